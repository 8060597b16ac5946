// A metrics query over the rows of its view: the rows in the query's range that belong to the
// view and pass its filters are grouped by its dimensions (and time bucket), each group's
// measures aggregated, and the groups answered as the service's query layer names them:
// dimensions by field, `<aggregation>_<measure>`, `time_dimension`. With a time dimension and no
// orderBy, every bucket of the range appears in time order, empty ones too (ClickHouse WITH
// FILL); an orderBy sorts instead, and without either the first metric sorts, descending
// (QueryBuilder.validateAndProcessOrderBy); then the row limit (100 by default) cuts. v1 differs
// (queryBuilder.ts with version "v1", web/src/pages/api/public/metrics/index.ts): its rows are
// the inner rows of v1-declaration.ts, its range includes `toTimestamp` (the standard filters'
// `<=`), and only a given row_limit cuts (the v1 route sets no default), so an answer past
// MAX_V1_ROWS is refused as the service refuses a query over its resource limits.
import { compareStrings } from '../order.js';
import { aggregate, emptyAggregate, noRowsAggregate } from './aggregate.js';
import type { ApiVersion, MetricsView } from './declaration.js';
import { MetricsResourceError } from './errors.js';
import { type MetricsQuery, queryRange } from './query.js';
import { passes } from './row-filter.js';
import type { MetricsScoreRow } from './scores-view.js';
import { bucket, type Granularity, granularityFor, nextBucket } from './time-buckets.js';
import type { MetricsRow } from './view.js';
import { v1InnerRows } from './v1-declaration.js';
import { metricsView, v1Declaration, type ViewRow } from './views.js';

/** One answer row: dimension values, `time_dimension`, and `<aggregation>_<measure>` values. */
export type MetricsAnswerRow = Record<string, unknown>;

interface Group {
  dims: Record<string, unknown>;
  values: Array<Array<number | string | null>>;
  rows: number;
}

const DEFAULT_ROW_LIMIT = 100;
/** Bins of the histogram aggregation without `config.bins`. */
export const DEFAULT_BINS = 10;
/** Most rows a v1 answer without row_limit may have. */
export const MAX_V1_ROWS = 100_000;

/** The granularity of the query's time dimension (`auto` resolved), or undefined without one. */
export function metricsGranularity(query: MetricsQuery): Granularity | undefined {
  if (!query.timeDimension) return undefined;
  const { from, to } = queryRange(query);
  return query.timeDimension.granularity === 'auto' ? granularityFor(from, to) : query.timeDimension.granularity;
}

/** The rows of the range that pass the filters, by their dimensions' values (and bucket), in order of first appearance. */
function group<Row>(query: MetricsQuery, view: MetricsView<Row>, rows: Iterable<Row>, granularity: Granularity | undefined, version: ApiVersion, maxGroups: number): Map<string, Group> {
  const { from, to } = queryRange(query);
  const start = Date.parse(from);
  const end = Date.parse(to);
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const time = view.time(row);
    const at = Date.parse(time);
    if (!(at >= start && (version === 'v1' ? at <= end : at < end))) continue;
    if (view.segment && !view.segment(row)) continue;
    if (!query.filters.every((filter) => passes(view, row, filter))) continue;
    const dims: Record<string, unknown> = {};
    for (const { field } of query.dimensions) dims[field] = view.dimensions[field]!.read(row) ?? null;
    if (granularity) dims.time_dimension = bucket(time, granularity);
    const key = JSON.stringify(dims);
    let entry = groups.get(key);
    if (!entry) {
      entry = { dims, values: query.metrics.map(() => []), rows: 0 };
      groups.set(key, entry);
      // Stop before holding more groups than can be answered.
      if (groups.size > maxGroups) throw new MetricsResourceError();
    }
    entry.rows++;
    for (const [i, { measure }] of query.metrics.entries()) entry.values[i]!.push(view.measures[measure]!.value(row));
  }
  return groups;
}

/** Adds the empty buckets of the range, then sorts by bucket. */
function fill<Row>(query: MetricsQuery, view: MetricsView<Row>, rows: MetricsAnswerRow[], granularity: Granularity, limit: number): void {
  const present = new Set(rows.map((row) => row.time_dimension as string));
  const empty = (bucketValue: string) => {
    const out: MetricsAnswerRow = Object.fromEntries(query.dimensions.map(({ field }) => [field, null]));
    out.time_dimension = bucketValue;
    if (query.metrics.length === 0) out.count = '0';
    for (const { measure, aggregation } of query.metrics) {
      const { type, nullable } = view.measures[measure]!;
      out[`${aggregation}_${measure}`] = emptyAggregate(aggregation, type === 'integer', nullable);
    }
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

const isNull = (x: unknown) => x === null || x === undefined;

/** orderBy: numbers (and 64-bit integers sent as strings) by value, other values as text; nulls are apart (below). */
function compareValues(x: unknown, y: unknown): number {
  if (x === y) return 0;
  const numeric = typeof x === 'number' || typeof y === 'number' || (typeof x === 'string' && INTEGER_TEXT.test(x) && typeof y === 'string' && INTEGER_TEXT.test(y));
  return numeric ? Number(x) - Number(y) : compareStrings(String(x), String(y));
}

/** Sorts by the fields in order, as ClickHouse's ORDER BY: nulls last, whichever the direction. */
function sortRows(rows: MetricsAnswerRow[], order: ReadonlyArray<{ field: string; direction: 'asc' | 'desc' }>): void {
  rows.sort((a, b) => {
    for (const { field, direction } of order) {
      const x = a[field];
      const y = b[field];
      if (isNull(x) || isNull(y)) {
        if (isNull(x) !== isNull(y)) return isNull(x) ? 1 : -1;
        continue;
      }
      const cmp = compareValues(x, y);
      if (cmp !== 0) return direction === 'asc' ? cmp : -cmp;
    }
    return 0;
  });
}

/** One group of an answer: its dimension values (and `time_dimension`), and each metric's value in the query's order. */
export interface MetricsGroup {
  dims: Record<string, unknown>;
  values: unknown[];
  /** How many rows the group has: the answer of a query without metrics. */
  rows: number;
}

/**
 * Answers a query over rows of its view (rows outside the query's range are skipped): the rows
 * must be the view's, for v2 observations with their traces' fields for `observations`, scores
 * for the score views; for v1 the base rows its declaration reads (v1-views.ts,
 * v1-scores-view.ts). Throws MetricsResourceError for a v1 answer past MAX_V1_ROWS.
 */
export function runMetricsQuery(query: MetricsQuery, rows: Iterable<MetricsRow> | Iterable<MetricsScoreRow> | Iterable<unknown>, version: ApiVersion = 'v2'): MetricsAnswerRow[] {
  // The caller reads the rows of query.view; the view's readers take those.
  const view = metricsView(query.view, version) as MetricsView<ViewRow>;
  const source = version === 'v1' ? v1InnerRows(v1Declaration(query.view), query, rows as Iterable<never>) : rows;
  const bins = query.config?.bins ?? DEFAULT_BINS;
  const unbounded = query.config?.row_limit === undefined && version === 'v1';
  const groups = [...group(query, view, source as Iterable<ViewRow>, metricsGranularity(query), version, unbounded ? MAX_V1_ROWS : Infinity).values()].map(({ dims, values, rows }) => ({
    dims,
    rows,
    values: query.metrics.map(({ measure, aggregation }, i) => {
      const { type, nullable } = view.measures[measure]!;
      return aggregate(values[i]!, aggregation, type === 'integer', bins, nullable);
    }),
  }));
  return finishMetricsQuery(query, groups, version);
}

/**
 * The answer from its groups, in the order their rows first appeared: named as the service
 * names them, empty time buckets filled in (no orderBy) or sorted, cut at the row limit. A store
 * that aggregates by itself hands its groups here.
 */
export function finishMetricsQuery(query: MetricsQuery, groups: Iterable<MetricsGroup>, version: ApiVersion = 'v2'): MetricsAnswerRow[] {
  const view = metricsView(query.view, version);
  const granularity = metricsGranularity(query);
  const bins = query.config?.bins ?? DEFAULT_BINS;
  const given = query.config?.row_limit;
  const limit = given ?? (version === 'v1' ? MAX_V1_ROWS + 1 : DEFAULT_ROW_LIMIT);
  const unbounded = given === undefined && version === 'v1';
  const answer: MetricsAnswerRow[] = [];
  for (const { dims, values, rows } of groups) {
    const out: MetricsAnswerRow = { ...dims };
    for (const [i, { measure, aggregation }] of query.metrics.entries()) out[`${aggregation}_${measure}`] = values[i];
    // Without metrics the service selects `count(*) as count` (QueryBuilder.buildOuterMetricsPart).
    if (query.metrics.length === 0) out.count = String(rows);
    answer.push(out);
  }
  // Without dimensions or a time bucket the service's query has no GROUP BY: over no rows it
  // still answers one. v2's values are ClickHouse's over an empty table (noRowsAggregate).
  if (answer.length === 0 && !granularity && query.dimensions.length === 0) {
    const none: MetricsAnswerRow = Object.fromEntries(
      query.metrics.map(({ measure, aggregation }) => {
        const { type, nullable } = view.measures[measure]!;
        return [`${aggregation}_${measure}`, version === 'v1' ? aggregate([], aggregation, type === 'integer', bins) : noRowsAggregate(aggregation, type, nullable ?? false)];
      }),
    );
    if (query.metrics.length === 0) none.count = '0';
    answer.push(none);
  }
  const order = query.orderBy?.length ? query.orderBy : defaultOrder(query, granularity);
  if (granularity && !query.orderBy?.length) {
    fill(query, view, answer, granularity, limit);
  } else {
    sortRows(answer, order);
  }
  if (unbounded && answer.length > MAX_V1_ROWS) throw new MetricsResourceError();
  return answer.slice(0, limit);
}

/** The order without an orderBy: the time bucket, else the first metric descending, else the first dimension. */
function defaultOrder(query: MetricsQuery, granularity: Granularity | undefined): Array<{ field: string; direction: 'asc' | 'desc' }> {
  if (granularity) return [{ field: 'time_dimension', direction: 'asc' }];
  const [metric] = query.metrics;
  if (metric) return [{ field: `${metric.aggregation}_${metric.measure}`, direction: 'desc' }];
  const [dimension] = query.dimensions;
  return dimension ? [{ field: dimension.field, direction: 'asc' }] : [];
}
