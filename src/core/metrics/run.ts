// A metrics query over the rows of its view: the rows in the query's range that belong to the
// view and pass its filters are grouped by its dimensions (and time bucket), each group's
// measures aggregated, and the groups answered as the service's query layer names them:
// dimensions by field, `<aggregation>_<measure>`, `time_dimension`. With a time dimension and no
// orderBy, every bucket of the range appears in time order, empty ones too (ClickHouse WITH
// FILL); an orderBy sorts instead, and without either the first metric sorts, descending
// (QueryBuilder.validateAndProcessOrderBy); then the row limit (100 by default) cuts.
import { compareStrings } from '../order.js';
import { aggregate, emptyAggregate } from './aggregate.js';
import type { MetricsView } from './declaration.js';
import { type MetricsQuery, queryRange } from './query.js';
import { passes } from './row-filter.js';
import type { MetricsScoreRow } from './scores-view.js';
import { bucket, type Granularity, granularityFor, nextBucket } from './time-buckets.js';
import type { MetricsRow } from './view.js';
import { metricsView, type ViewRow } from './views.js';

/** One answer row: dimension values, `time_dimension`, and `<aggregation>_<measure>` values. */
export type MetricsAnswerRow = Record<string, unknown>;

interface Group {
  dims: Record<string, unknown>;
  values: Array<Array<number | string | null>>;
}

const DEFAULT_ROW_LIMIT = 100;
/** Bins of the histogram aggregation without `config.bins`. */
export const DEFAULT_BINS = 10;

/** The granularity of the query's time dimension (`auto` resolved), or undefined without one. */
export function metricsGranularity(query: MetricsQuery): Granularity | undefined {
  if (!query.timeDimension) return undefined;
  const { from, to } = queryRange(query);
  return query.timeDimension.granularity === 'auto' ? granularityFor(from, to) : query.timeDimension.granularity;
}

/** The rows of the range that pass the filters, by their dimensions' values (and bucket), in order of first appearance. */
function group<Row>(query: MetricsQuery, view: MetricsView<Row>, rows: Iterable<Row>, granularity: Granularity | undefined): Map<string, Group> {
  const { from, to } = queryRange(query);
  const start = Date.parse(from);
  const end = Date.parse(to);
  const groups = new Map<string, Group>();
  for (const row of rows) {
    const time = view.time(row);
    const at = Date.parse(time);
    if (!(at >= start && at < end)) continue;
    if (view.segment && !view.segment(row)) continue;
    if (!query.filters.every((filter) => passes(view, row, filter))) continue;
    const dims: Record<string, unknown> = {};
    for (const { field } of query.dimensions) dims[field] = view.dimensions[field]!.read(row) ?? null;
    if (granularity) dims.time_dimension = bucket(time, granularity);
    const key = JSON.stringify(dims);
    let entry = groups.get(key);
    if (!entry) {
      entry = { dims, values: query.metrics.map(() => []) };
      groups.set(key, entry);
    }
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
    for (const { measure, aggregation } of query.metrics) out[`${aggregation}_${measure}`] = emptyAggregate(aggregation, view.measures[measure]!.type === 'integer');
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
}

/**
 * Answers a query over rows of its view (rows outside the query's range are skipped): the rows
 * must be the view's, observations with their traces' fields for `observations`, scores for the
 * score views.
 */
export function runMetricsQuery(query: MetricsQuery, rows: Iterable<MetricsRow> | Iterable<MetricsScoreRow>): MetricsAnswerRow[] {
  // The caller reads the rows of query.view; the view's readers take those.
  const view = metricsView(query.view) as MetricsView<ViewRow>;
  const bins = query.config?.bins ?? DEFAULT_BINS;
  const groups = [...group(query, view, rows as Iterable<ViewRow>, metricsGranularity(query)).values()].map(({ dims, values }) => ({
    dims,
    values: query.metrics.map(({ measure, aggregation }, i) => aggregate(values[i]!, aggregation, view.measures[measure]!.type === 'integer', bins)),
  }));
  return finishMetricsQuery(query, groups);
}

/**
 * The answer from its groups, in the order their rows first appeared: named as the service
 * names them, empty time buckets filled in (no orderBy) or sorted, cut at the row limit. A store
 * that aggregates by itself hands its groups here.
 */
export function finishMetricsQuery(query: MetricsQuery, groups: Iterable<MetricsGroup>): MetricsAnswerRow[] {
  const view = metricsView(query.view);
  const granularity = metricsGranularity(query);
  const limit = query.config?.row_limit ?? DEFAULT_ROW_LIMIT;
  const answer: MetricsAnswerRow[] = [];
  for (const { dims, values } of groups) {
    const out: MetricsAnswerRow = { ...dims };
    for (const [i, { measure, aggregation }] of query.metrics.entries()) out[`${aggregation}_${measure}`] = values[i];
    answer.push(out);
  }
  const order = query.orderBy?.length ? query.orderBy : defaultOrder(query, granularity);
  if (granularity && !query.orderBy?.length) {
    fill(query, view, answer, granularity, limit);
  } else {
    sortRows(answer, order);
  }
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
