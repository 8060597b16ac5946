import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { CostReport, Grouping, ReportRequest, TimeGrouping } from '../../core/spend/report.js';
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
    const [{ z }, { queryMetrics }, { sha256Hex }, { csvRow }, { buildQuery, buildReport, checkBudget, checkRequest, GROUPINGS, TIME_GROUPINGS }, { OBSERVATION_TYPES }, { cacheKey, readAnswer, writeAnswer }, { resolveRange }, { barChart }, { formatCost, formatShare, formatTokens }] = await Promise.all([import('zod'), import('../../api/metrics.js'), import('../../core/hashes.js'), import('../../core/observations/csv.js'), import('../../core/spend/report.js'), import('../observations/filters.js'), import('./cache.js'), import('./range.js'), import('./chart.js'), import('../../output/format.js')]);
    const BY = [...Object.keys(GROUPINGS), ...TIME_GROUPINGS];

    const Options = z.object({
      from: z.string().optional(),
      to: z.string().optional(),
      month: z.string().optional(),
      by: z.array(z.string()).optional(),
      type: z.array(z.enum(OBSERVATION_TYPES, { error: `must be one of ${OBSERVATION_TYPES.join(', ')}` })).optional(),
      environment: z.array(z.string().min(1, 'must not be empty')).optional(),
      budget: z
        .string()
        .transform((text) => text.trim().replace(/^\$/, '').replace(/_/g, ''))
        // 1,000 or 12,500.50; a comma anywhere else (1,5) may be a decimal comma: refused, not guessed.
        .transform((text) => (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? text.replace(/,/g, '') : text))
        .pipe(z.string().regex(/^\d+(\.\d+)?$/, 'must be an amount in USD, such as 100 or 12.50').transform(Number))
        .optional(),
      cache: z.boolean().default(true),
    });

    function resolveBy(items: readonly string[] | undefined): { by: Grouping[]; time: TimeGrouping | null } {
      const names = (items ?? ['model']).flatMap((item) => item.split(',')).map((s) => s.trim()).filter(Boolean);
      const by: Grouping[] = [];
      let time: TimeGrouping | null = null;
      for (const name of names) {
        if ((TIME_GROUPINGS as readonly string[]).includes(name)) {
          if (time && time !== name) throw new UsageError(`--by: one time grouping at a time (${time} and ${name} given)`);
          time = name as TimeGrouping;
        } else if (name in GROUPINGS) {
          if (!by.includes(name as Grouping)) by.push(name as Grouping);
        } else {
          throw new UsageError(`--by: unknown grouping "${name}"; use ${BY.join(', ')}`);
        }
      }
      return { by, time };
    }

    function groupLabel(report: CostReport, group: Record<string, string | null>): string {
      return report.by.map((g) => group[g] ?? `(no ${g})`).join(' · ');
    }

    function bucketLabel(bucket: string, time: TimeGrouping): string {
      if (time === 'hour') return bucket.slice(0, 16).replace('T', ' ');
      if (time === 'month') return bucket.slice(0, 7);
      return bucket.slice(0, 10);
    }

    function printCsv(ctx: Context, report: CostReport): void {
      const header = [...report.by, ...(report.time ? [report.time] : []), 'cost', 'inputTokens', 'outputTokens', 'count'];
      if (ctx.globals.headers !== false) ctx.out.write(csvRow(header));
      if (report.by.length === 0 && !report.time) {
        ctx.out.write(csvRow([report.total.cost, report.total.inputTokens, report.total.outputTokens, report.total.count]));
        return;
      }
      const rows = report.time && report.by.length === 0 ? report.buckets.map((b) => ({ ...b, group: {} })) : report.rows;
      for (const row of rows) {
        ctx.out.write(csvRow([...report.by.map((g) => row.group[g as keyof typeof row.group] ?? ''), ...(report.time ? [row.bucket] : []), row.cost, row.inputTokens, row.outputTokens, row.count]));
      }
    }

    function printReport(ctx: Context, report: CostReport): void {
      const { out } = ctx;
      const dims = report.by.length ? `by ${report.by.join(', ')}${report.time ? ` and ${report.time}` : ''}` : report.time ? `by ${report.time}` : 'in total';
      if (out.isTTY) out.heading(`Cost ${dims}, ${report.from.replace('.000Z', 'Z')} to ${report.to.replace('.000Z', 'Z')}`);
      const amountColumns = [
        { header: 'COST', align: 'right' as const },
        { header: 'SHARE', align: 'right' as const },
        { header: 'INPUT TOKENS', align: 'right' as const },
        { header: 'OUTPUT TOKENS', align: 'right' as const },
        { header: 'COUNT', align: 'right' as const },
      ];
      const amounts = (a: { cost: number; inputTokens: number; outputTokens: number; count: number }) => [
        formatCost(a.cost),
        formatShare(report.total.cost > 0 ? a.cost / report.total.cost : 0),
        formatTokens(a.inputTokens),
        formatTokens(a.outputTokens),
        formatTokens(a.count),
      ];
      const totalRow = ['total', ...amounts(report.total)];
      if (report.by.length > 0) {
        out.table(
          [{ header: report.by.map((g) => g.toUpperCase()).join(' · '), style: (t, c) => (t === 'total' ? c.bold(t) : t) }, ...amountColumns],
          [...report.groups.map((g) => [groupLabel(report, g.group), ...amounts(g)]), ...(out.isTTY ? [totalRow] : [])],
        );
      } else if (report.time) {
        out.table([{ header: report.time.toUpperCase() }, ...amountColumns], [...report.buckets.map((b) => [bucketLabel(b.bucket, report.time!), ...amounts(b)]), ...(out.isTTY ? [totalRow] : [])]);
      } else {
        out.table([{ header: '' }, ...amountColumns], [totalRow]);
      }
      if (!out.isTTY) return;
      const width = Math.min(100, (ctx.io.stdout as { columns?: number }).columns ?? 80);
      const items = report.time
        ? report.buckets.map((b) => ({ label: bucketLabel(b.bucket, report.time!), value: b.cost, text: formatCost(b.cost) }))
        : report.groups.slice(0, 30).map((g) => ({ label: groupLabel(report, g.group), value: g.cost, text: formatCost(g.cost) }));
      if (items.length > 1 && items.some((i) => i.value > 0)) {
        out.line('');
        for (const line of barChart(items, width, out.c)) out.line(line);
        if (!report.time && report.groups.length > 30) out.line(out.c.dim(`… and ${report.groups.length - 30} more (see the table)`));
      }
    }

    const opts = parseOptions(Options, given);
    const now = ctx.now();
    const range = resolveRange(opts, now);
    const { by, time } = resolveBy(opts.by);
    const request: ReportRequest = { from: range.from.time, to: range.to.time, by, time, types: opts.type ?? null, environments: opts.environment ?? [] };
    const problem = checkRequest(request);
    if (problem) throw new UsageError(problem);
    const query = buildQuery(request);

    // The client (and the HTTP stack with it) only when the server is asked: a cached answer needs
    // the settings alone.
    const config = await ctx.resolveConfig({ auth: true });
    let client: ApiClient | undefined;
    // An API key is a secret: the question holds a digest of it.
    const identity = config.auth.type === 'basic' ? config.auth.publicKey : config.auth.type === 'bearer' ? sha256Hex(config.auth.apiKey) : 'none';
    /** The server's answer to a query, or the cached one of the last 5 minutes. */
    const answer = async (asked: typeof query) => {
      const key = cacheKey({ v: 2, baseUrl: config.baseUrl, identity, query: { ...asked, fromTimestamp: range.from.key, toTimestamp: range.to.key } });
      const cached = opts.cache ? readAnswer(ctx, key) : undefined;
      if (cached) return { data: cached.data, cached };
      client ??= await ctx.apiFor(config);
      const data = await queryMetrics(client, asked, (line) => ctx.trace(line));
      writeAnswer(ctx, { version: 2, key, fetchedAt: now.toISOString(), from: asked.fromTimestamp, to: asked.toTimestamp, data });
      return { data, cached: undefined };
    };
    const { data, cached } = await answer(query);
    let cachedAt: string | null = null;
    if (cached) {
      cachedAt = cached.fetchedAt;
      request.from = new Date(cached.from);
      request.to = new Date(cached.to);
      const age = Math.round((now.getTime() - Date.parse(cached.fetchedAt)) / 1000);
      ctx.out.hint(`From the cache: the same report was asked for ${age < 60 ? `${age} s` : `${Math.round(age / 60)} min`} ago (--no-cache asks the server; Langfuse Cloud's Hobby plan allows 100 metrics requests a day).`);
    }
    const report = buildReport(request, data);
    if (report.truncated && (request.by.length > 0 || request.time)) {
      // The groups were cut at the row limit, so their sum is not the total (nor what a budget is
      // checked against): one more request, without groups, gives it.
      const whole = { ...request, by: [], time: null };
      report.total = buildReport(whole, (await answer(buildQuery(whole))).data).total;
      for (const group of report.groups) group.share = report.total.cost > 0 ? group.cost / report.total.cost : 0;
    }
    const budget = opts.budget === undefined ? null : checkBudget(report.total.cost, opts.budget);
    if (report.truncated) ctx.out.warn(`the server returned ${data.length} rows, as many as it returns at most: some groups may be missing (the total, asked for on its own, counts them all). Narrow the range or use fewer groupings.`);
    if (report.unreadable) ctx.out.warn(report.unreadable === 1 ? '1 row had no readable cost or count and was left out' : `${report.unreadable} rows had no readable cost or count and were left out`);

    if (ctx.globals.json) {
      ctx.out.printJson({ ...report, budget, cachedAt });
    } else if (ctx.globals.csv) {
      printCsv(ctx, report);
    } else {
      printReport(ctx, report);
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
