// A metrics query over the rows of the `observations` view: the rows in the query's range that
// pass its filters are grouped by its dimensions (and time bucket), each group's measures
// aggregated, and the groups answered as the service's query layer names them: dimensions by
// field, `<aggregation>_<measure>`, `time_dimension`. With a time dimension and no orderBy, every
// bucket of the range appears in time order, empty ones too (ClickHouse WITH FILL); an orderBy
// sorts instead; then the row limit (100 by default) cuts.
import { compareStrings } from '../order.js';
import { aggregate, emptyAggregate } from './aggregate.js';
import { type MetricsQuery, queryRange } from './query.js';
import { passes } from './row-filter.js';
import { bucket, type Granularity, granularityFor, nextBucket } from './time-buckets.js';
import { DIMENSIONS, MEASURES, type MetricsRow } from './view.js';

/** One answer row: dimension values, `time_dimension`, and `<aggregation>_<measure>` values. */
export type MetricsAnswerRow = Record<string, unknown>;

interface Group {
  dims: Record<string, unknown>;
  values: Array<Array<number | string | null>>;
}

const DEFAULT_ROW_LIMIT = 100;
const DEFAULT_BINS = 10;

/** The granularity of the query's time dimension (`auto` resolved), or undefined without one. */
function queryGranularity(query: MetricsQuery): Granularity | undefined {
  if (!query.timeDimension) return undefined;
  const { from, to } = queryRange(query);
  return query.timeDimension.granularity === 'auto' ? granularityFor(from, to) : query.timeDimension.granularity;
}

/** The rows of the range that pass the filters, by their dimensions' values (and bucket), in order of first appearance. */
function group(query: MetricsQuery, rows: Iterable<MetricsRow>, granularity: Granularity | undefined): Map<string, Group> {
  const { from, to } = queryRange(query);
  const start = Date.parse(from);
  const end = Date.parse(to);
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const at = Date.parse(row.observation.startTime);
    if (!(at >= start && at < end)) continue;
    if (!query.filters.every((filter) => passes(row, filter))) continue;
    const dims: Record<string, unknown> = {};
    for (const { field } of query.dimensions) dims[field] = DIMENSIONS[field]!(row) ?? null;
    if (granularity) dims.time_dimension = bucket(row.observation.startTime, granularity);
    const key = JSON.stringify(dims);
    let entry = groups.get(key);
    if (!entry) {
      entry = { dims, values: query.metrics.map(() => []) };
      groups.set(key, entry);
    }
    for (const [i, { measure }] of query.metrics.entries()) entry.values[i]!.push(MEASURES[measure]!.value(row));
  }
  return groups;
}

/** Adds the empty buckets of the range, then sorts by bucket. */
function fill(query: MetricsQuery, rows: MetricsAnswerRow[], granularity: Granularity, limit: number): void {
  const present = new Set(rows.map((row) => row.time_dimension as string));
  const empty = (bucketValue: string) => {
    const out: MetricsAnswerRow = Object.fromEntries(query.dimensions.map(({ field }) => [field, null]));
    out.time_dimension = bucketValue;
    for (const { measure, aggregation } of query.metrics) out[`${aggregation}_${measure}`] = emptyAggregate(aggregation, MEASURES[measure]!.integer);
    return out;
  };
  // Only the earliest `limit` empty buckets can be among the first `limit` rows: a range of
  // centuries by the minute would otherwise be millions of rows built and thrown away.
  const { from, to } = queryRange(query);
  const end = bucket(to, granularity);
  let added = 0;
  for (let b = bucket(from, granularity); b < end && added < limit; b = nextBucket(b, granularity)) {
    if (present.has(b)) continue;
    rows.push(empty(b));
    added++;
  }
  rows.sort((a, b) => compareStrings(String(a.time_dimension), String(b.time_dimension)));
}

const INTEGER_TEXT = /^-?\d+$/;

/** orderBy: numbers (and 64-bit integers sent as strings) by value, other values as text, nulls first. */
function compareValues(x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (x === null || x === undefined) return -1;
  if (y === null || y === undefined) return 1;
  const numeric = typeof x === 'number' || typeof y === 'number' || (typeof x === 'string' && INTEGER_TEXT.test(x) && typeof y === 'string' && INTEGER_TEXT.test(y));
  return numeric ? Number(x) - Number(y) : compareStrings(String(x), String(y));
}

/** Answers a query over rows of the view (rows outside the query's range are skipped). */
export function runMetricsQuery(query: MetricsQuery, rows: Iterable<MetricsRow>): MetricsAnswerRow[] {
  const granularity = queryGranularity(query);
  const bins = query.config?.bins ?? DEFAULT_BINS;
  const limit = query.config?.row_limit ?? DEFAULT_ROW_LIMIT;
  const answer = [...group(query, rows, granularity).values()].map(({ dims, values }) => {
    const out: MetricsAnswerRow = { ...dims };
    for (const [i, { measure, aggregation }] of query.metrics.entries()) out[`${aggregation}_${measure}`] = aggregate(values[i]!, aggregation, MEASURES[measure]!.integer, bins);
    return out;
  });
  const order = query.orderBy ?? [];
  if (granularity && order.length === 0) {
    fill(query, answer, granularity, limit);
  } else if (order.length) {
    answer.sort((a, b) => {
      for (const { field, direction } of order) {
        const cmp = compareValues(a[field], b[field]);
        if (cmp !== 0) return direction === 'asc' ? cmp : -cmp;
      }
      return 0;
    });
  }
  return answer.slice(0, limit);
}
