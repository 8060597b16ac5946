// Cost per day and per model over a time range, as a stacked bar chart and a table: the report
// of `llmobs cost report --by model --time day`. The y axis is labelled in dollars, so the chart
// reads without hovering over a bar.
import { api } from '../api.js';
import { formatCost, formatNumber } from '../format.js';
import { type FilterField, FilterForm, type FilterValues } from '../parts/filter-form.js';
import { useData } from '../parts/use-data.js';
import { navigate } from '../router.js';
import { costAxis, tickLabel } from './axis.js';

interface Amounts {
  cost: number;
  inputTokens: number;
  outputTokens: number;
  count: number;
}

interface Report {
  from: string;
  to: string;
  total: Amounts;
  groups: Array<Amounts & { group: Record<string, string | null>; share: number }>;
  buckets: Array<Amounts & { bucket: string }>;
  rows: Array<Amounts & { group: Record<string, string | null>; bucket: string | null }>;
  truncated: boolean;
}

const COLOURS = ['#2454c5', '#d9822b', '#2e9e5b', '#b8336a', '#7a5cc7', '#1f9bb3', '#a88f1e', '#6b7785'];
const MOST_SERIES = COLOURS.length - 1;
const DAY_MS = 86_400_000;

const RANGE: readonly FilterField[] = [
  { key: 'from', label: 'From', type: 'date', required: true },
  { key: 'to', label: 'To', type: 'date', required: true },
];

const day = (date: Date) => date.toISOString().slice(0, 10);

export function CostPage({ query }: { query: URLSearchParams }) {
  const to = query.get('to') ?? day(new Date());
  const from = query.get('from') ?? day(new Date(Date.parse(to) - 29 * DAY_MS));
  const { data: report, error } = useData(`${from}/${to}`, () =>
    api.get<Report>('/ui/api/cost', { from: new Date(`${from}T00:00:00.000Z`).toISOString(), to: new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS).toISOString() }),
  );

  const apply = (range: FilterValues) => navigate(['cost'], { from: range.from, to: range.to });

  return (
    <section>
      <h1>Cost</h1>
      <FilterForm key={`${from}/${to}`} label="Time range" fields={RANGE} values={{ from, to }} submit="Show cost" onApply={apply} />
      {error ? <p role="alert">{error}</p> : null}
      {report ? <ReportView report={report} /> : null}
    </section>
  );
}

function ReportView({ report }: { report: Report }) {
  // The largest models get their own colour; the rest share one.
  const models = report.groups.map((g) => g.group.model ?? '(no model)');
  const named = models.slice(0, MOST_SERIES);
  const series = (model: string) => (named.includes(model) ? named.indexOf(model) : MOST_SERIES);
  const byBucket = new Map<string, number[]>();
  for (const row of report.rows) {
    if (!row.bucket) continue;
    const values = byBucket.get(row.bucket) ?? new Array<number>(COLOURS.length).fill(0);
    values[series(row.group.model ?? '(no model)')]! += row.cost;
    byBucket.set(row.bucket, values);
  }
  const axis = costAxis(Math.max(0, ...report.buckets.map((b) => b.cost)));
  // The plot's box inside the picture: room on the left for the tick labels, above for the unit.
  const left = 64;
  const top = 18;
  const width = 760;
  const height = 220;
  const plot = { width: width - left - 4, height: height - top };
  const bar = plot.width / Math.max(1, report.buckets.length);
  const yOf = (cost: number) => top + plot.height - (cost / axis.top) * plot.height;
  return (
    <>
      <p>
        Total <strong data-testid="cost-total">{formatCost(report.total.cost)}</strong> from {report.total.count} observations ({formatNumber(report.total.inputTokens)} input and {formatNumber(report.total.outputTokens)} output tokens).
        {report.truncated ? ' More groups than the metrics API returns: the smallest are left out of the chart.' : ''}
      </p>
      <svg class="chart" role="img" aria-label="Cost per day and model" viewBox={`0 0 ${width} ${height + 20}`} width="100%">
        <g aria-label="Cost axis (USD)" data-testid="cost-axis">
          <text class="axis-title" x={0} y={10}>
            Cost (USD)
          </text>
          {axis.ticks.map((tick) => (
            <g>
              <line class="grid" x1={left} x2={width - 4} y1={yOf(tick)} y2={yOf(tick)} />
              <text class="tick" x={left - 6} y={yOf(tick) + 3} text-anchor="end">
                {tickLabel(tick, axis.step)}
              </text>
            </g>
          ))}
        </g>
        {report.buckets.map((bucket, i) => {
          let y = top + plot.height;
          const x = left + i * bar;
          return (
            <g>
              <title>
                {bucket.bucket.slice(0, 10)}: {formatCost(bucket.cost)}
              </title>
              {(byBucket.get(bucket.bucket) ?? []).map((cost, s) => {
                const h = (cost / axis.top) * plot.height;
                y -= h;
                return cost > 0 ? <rect x={x + 1} y={y} width={Math.max(1, bar - 2)} height={h} fill={COLOURS[s]} /> : null;
              })}
              {i % Math.ceil(report.buckets.length / 10) === 0 ? (
                <text x={x + 1} y={height + 14}>
                  {bucket.bucket.slice(5, 10)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <table class="grid" aria-label="Cost per model">
        <thead>
          <tr>
            <th>Model</th>
            <th class="num">Cost</th>
            <th class="num">Share</th>
            <th class="num">Input tokens</th>
            <th class="num">Output tokens</th>
            <th class="num">Observations</th>
          </tr>
        </thead>
        <tbody>
          {report.groups.map((g) => {
            const model = g.group.model ?? '(no model)';
            return (
              <tr>
                <td>
                  <svg width="10" height="10" aria-hidden="true">
                    <rect width="10" height="10" fill={COLOURS[series(model)]} />
                  </svg>{' '}
                  {model}
                </td>
                <td class="num">{formatCost(g.cost)}</td>
                <td class="num">{(g.share * 100).toFixed(1)}%</td>
                <td class="num">{formatNumber(g.inputTokens)}</td>
                <td class="num">{formatNumber(g.outputTokens)}</td>
                <td class="num">{formatNumber(g.count)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </>
  );
}
