// Observations as a table on the terminal: start, type, name, model, level, tokens, cost, trace, id.
import type { Context } from '../../context.js';
import { lenientNumber, lenientNumberMap, tokenSums } from '../../core/numbers.js';
import { formatCost, formatTokens } from '../../output/format.js';

export function printObservations(ctx: Context, rows: readonly Record<string, unknown>[]): void {
  ctx.out.table(
    [
      { header: 'START' },
      { header: 'TYPE' },
      { header: 'NAME', style: (text, c) => c.bold(text) },
      { header: 'MODEL' },
      { header: 'LEVEL', style: (text, c) => (text === 'ERROR' ? c.red(text) : text === 'WARNING' ? c.yellow(text) : text) },
      { header: 'TOKENS IN/OUT', align: 'right' },
      { header: 'COST', align: 'right' },
      { header: 'TRACE' },
      { header: 'ID' },
    ],
    rows.map((o) => {
      const usage = lenientNumberMap(o.usageDetails);
      const tokens = tokenSums(usage);
      const cost = lenientNumber(o.totalCost) ?? lenientNumberMap(o.costDetails).total ?? null;
      return [
        typeof o.startTime === 'string' ? o.startTime.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '',
        o.type as string,
        (o.name as string | null) ?? '',
        (o.providedModelName as string | null) ?? '',
        (o.level as string | null) ?? '',
        Object.keys(usage).length ? `${formatTokens(tokens.input)}/${formatTokens(tokens.output)}` : '',
        cost === null ? '' : formatCost(cost),
        (o.traceId as string | null) ?? '',
        o.id as string,
      ];
    }),
  );
}
