// What cost recompute prints: how the re-pricing went (stderr), then per model what was stored,
// what the definitions give now, and what matched no definition, now or when ingested.
import type { Context } from '../../context.js';
import { type ModelRecompute, recomputeTotals } from '../../core/spend/recompute.js';
import { formatInteger } from '../../core/thousands.js';
import { countOf, formatCost, formatTokens } from '../../output/format.js';
import type { RepriceStats } from './reprice.js';

/** How a re-pricing went (stderr), then its models: JSON, or a table and what matched nothing. */
export function printRecompute(ctx: Context, models: ModelRecompute[], stats: RepriceStats, files: { input?: string | undefined; output?: string | undefined }): void {
  ctx.out.info(
    `Re-priced ${countOf(stats.generations, 'generation')}${files.input !== undefined ? ` from ${countOf(stats.lines, 'line')}` : ''} in ${stats.seconds.toFixed(2)} s (${formatInteger(Math.round(stats.generations / Math.max(stats.seconds, 0.001)))}/s)${stats.skipped ? `; ${countOf(stats.skipped, 'observation')} without a model or cost skipped` : ''}${files.output !== undefined ? `; one line per generation in ${files.output}` : ''}`,
  );
  if (ctx.globals.json) ctx.out.printJson(models.map((m) => ({ ...m, model: m.model === '' ? null : m.model })));
  else printModels(ctx, models);
  if (stats.unreported > 0) ctx.out.warn(`${stats.unreported} more lines or generations failed`);
}

function printModels(ctx: Context, models: ModelRecompute[]): void {
  const { out } = ctx;
  if (models.length === 0) {
    out.info('No generations to re-price.');
    return;
  }
  const totals = recomputeTotals(models);
  const name = (m: { model: string }) => (m.model === '' ? '(no model)' : m.model);
  const diff = (d: number) => (Math.abs(d) < 5e-13 ? formatCost(0) : `${d > 0 ? '+' : ''}${formatCost(d)}`);
  const rows = models.map((m) => [
    name(m),
    formatTokens(m.generations),
    formatCost(m.storedCost),
    formatCost(m.recomputedCost),
    diff(m.difference),
    m.definitions.join(', ') || '(none)',
    m.unmatchedNow ? formatTokens(m.unmatchedNow) : '',
    m.unmatchedBefore === null ? '?' : m.unmatchedBefore ? formatTokens(m.unmatchedBefore) : '',
  ]);
  if (out.isTTY) rows.push(['total', formatTokens(totals.generations), formatCost(totals.storedCost), formatCost(totals.recomputedCost), diff(totals.difference), '', totals.unmatchedNow ? formatTokens(totals.unmatchedNow) : '', totals.unmatchedBefore === null ? '?' : totals.unmatchedBefore ? formatTokens(totals.unmatchedBefore) : '']);
  out.table(
    [
      { header: 'MODEL', style: (t, c) => (t === 'total' ? c.bold(t) : t) },
      { header: 'GENERATIONS', align: 'right' },
      { header: 'STORED', align: 'right' },
      { header: 'RECOMPUTED', align: 'right' },
      { header: 'DIFFERENCE', align: 'right', style: (t, c) => (t.startsWith('+') ? c.red(t) : t.startsWith('-') ? c.green(t) : t) },
      { header: 'DEFINITION NOW' },
      { header: 'UNMATCHED NOW', align: 'right' },
      { header: 'UNMATCHED THEN', align: 'right' },
    ],
    rows,
  );
  const now = models.filter((m) => m.unmatchedNow > 0 && m.model !== '');
  if (now.length) {
    out.warn(`no definition matches ${now.map((m) => `"${m.model}" (${formatTokens(m.unmatchedNow)})`).join(', ')}: they get no cost. Add one (llmobs models create) or see why with: llmobs models match NAME`);
  }
  const before = models.filter((m) => (m.unmatchedBefore ?? 0) > 0);
  if (before.length) {
    const newly = before.filter((m) => m.definitions.length > 0);
    out.info(`Matched no definition when ingested: ${before.map((m) => `"${name(m)}" (${formatTokens(m.unmatchedBefore!)})`).join(', ')}${newly.length ? `; ${newly.map((m) => `"${name(m)}"`).join(', ')} ${newly.length === 1 ? 'has' : 'have'} one now` : ''}.`);
  }
}
