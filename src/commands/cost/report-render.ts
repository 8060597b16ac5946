// What cost report prints: the report as a table, with bars on a terminal, or as CSV rows; and
// what the answer lacked.
import type { Context } from '../../context.js';
import { csvRow } from '../../core/csv.js';
import type { CostReport, TimeGrouping } from '../../core/spend/report.js';
import { formatCost, formatShare, formatTokens } from '../../output/format.js';
import { barChart } from './chart.js';

/** Bars drawn at most; the table has every group. */
const MAX_BARS = 30;

function groupLabel(report: CostReport, group: Record<string, string | null>): string {
  return report.by.map((g) => group[g] ?? `(no ${g})`).join(' · ');
}

function bucketLabel(bucket: string, time: TimeGrouping): string {
  if (time === 'hour') return bucket.slice(0, 16).replace('T', ' ');
  if (time === 'month') return bucket.slice(0, 7);
  return bucket.slice(0, 10);
}

/** What the answer lacked: groups cut at the row limit, rows without numbers. */
export function warnIncomplete(ctx: Context, report: CostReport, rows: number): void {
  if (report.truncated) ctx.out.warn(`the server returned ${rows} rows, as many as it returns at most: some groups may be missing (the total, asked for on its own, counts them all). Narrow the range or use fewer groupings.`);
  if (report.unreadable) ctx.out.warn(report.unreadable === 1 ? '1 row had no readable cost or count and was left out' : `${report.unreadable} rows had no readable cost or count and were left out`);
}

export function printReportCsv(ctx: Context, report: CostReport): void {
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

export function printReport(ctx: Context, report: CostReport): void {
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
    : report.groups.slice(0, MAX_BARS).map((g) => ({ label: groupLabel(report, g.group), value: g.cost, text: formatCost(g.cost) }));
  if (items.length > 1 && items.some((i) => i.value > 0)) {
    out.line('');
    for (const line of barChart(items, width, out.c)) out.line(line);
    if (!report.time && report.groups.length > MAX_BARS) out.line(out.c.dim(`… and ${report.groups.length - MAX_BARS} more (see the table)`));
  }
}
