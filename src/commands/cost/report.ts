// llmobs cost report: what the project spent in a time range, grouped, from the Metrics API.
import type { ReportRequest } from '../../core/spend/report.js';
import { PreconditionError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { OBSERVATION_TYPES, TIME_FORMS } from '../observations/filter-flags.js';

export default defineCommand({
  name: 'report',
  summary: 'cost, tokens and count per model, day, user, prompt ... for a time range (default: this month so far); --budget USD exits 9 when the total is over it',
  flags: [
    { flags: '--from <time>', help: `start of the range, inclusive (${TIME_FORMS}; default: the 1st of this month, UTC)` },
    { flags: '--to <time>', help: 'end of the range, exclusive (default: now)' },
    { flags: '--month <month>', help: 'a calendar month (UTC): YYYY-MM, this or last' },
    { flags: '--by <grouping>', help: 'group by model, user, prompt, environment, name, type, trace, release, level, and/or hour, day, week, month (repeatable or comma-separated; default: model)', repeatable: true },
    { flags: '--type <type>', help: 'count only these observation types (repeatable; default: all but SPAN and EVENT)', choices: OBSERVATION_TYPES, repeatable: true },
    { flags: '--environment <env>', help: 'only these environments (repeatable)', repeatable: true },
    { flags: '--budget <usd>', help: 'exit 9 when the total cost is over this amount in USD, saying by how much' },
    { flags: '--no-cache', help: 'ask the server even when the same report was answered within the last 5 minutes' },
  ],
  examples: [
    'llmobs cost report',
    'llmobs cost report --month last --by model',
    'llmobs cost report --from 7d --by day',
    'llmobs cost report --month 2026-05 --by model --by day --csv > may.csv',
    '# a CI spend gate: exit 9 when last month cost more than $500',
    'llmobs cost report --month last --budget 500',
  ],
  async run(ctx, { opts: given }) {
    const [{ ReportOptions }, { resolveRange }, { checkBudget, checkRequest, readGroupings }, { askReport }, render, { formatCost, formatShare }] = await Promise.all([import('./options.js'), import('./range.js'), import('../../core/spend/report.js'), import('./report-query.js'), import('./report-render.js'), import('../../output/format.js')]);
    const opts = parseOptions(ReportOptions, given);
    const now = ctx.now();
    const range = resolveRange(opts, now);
    const groupings = readGroupings(opts.by);
    if (!groupings.ok) throw new UsageError(`--by: ${groupings.message}`);
    const request: ReportRequest = { from: range.from.time, to: range.to.time, by: groupings.by, time: groupings.time, types: opts.type ?? null, environments: opts.environment ?? [] };
    const problem = checkRequest(request);
    if (problem) throw new UsageError(problem);

    const { report, rows, cachedAt } = await askReport(ctx, request, range, { cache: opts.cache, now });
    const budget = opts.budget === undefined ? null : checkBudget(report.total.cost, opts.budget);
    render.warnIncomplete(ctx, report, rows);
    if (ctx.globals.json) {
      ctx.out.printJson({ ...report, budget, cachedAt });
    } else if (ctx.globals.csv) {
      render.printReportCsv(ctx, report);
    } else {
      render.printReport(ctx, report);
      if (budget && !budget.exceeded) ctx.out.info(`Within the budget of ${formatCost(budget.limit)}: ${formatShare(budget.used)} used, ${formatCost(budget.limit - budget.total)} left.`);
    }
    if (budget?.exceeded) {
      throw new PreconditionError(`the total cost ${formatCost(budget.total)} exceeds the budget of ${formatCost(budget.limit)} by ${formatCost(budget.over)}${budget.limit > 0 ? ` (${formatShare(budget.used)} of the budget)` : ''}`, {
        hint: `Range ${report.from} to ${report.to}.`,
        details: budget,
      });
    }
  },
});
