// A metrics query: the JSON object the metrics API takes as its `query` parameter, checked as the
// routes check it, in their order and with their messages: the zod schema (web/src/features/
// public-api/types/metrics.ts, MetricsQueryObjectV2, or MetricsQueryObject for v1, which also
// has the `traces` view), for v2 the high-cardinality rule (validateQuery; v1 has none), then
// QueryBuilder.build (packages/shared/src/features/query/server/queryBuilder.ts) with the
// version's views: dimensions, measures and their aggregations, filters, orderBy.
import { z } from 'zod';
import { type SingleFilter, singleFilter } from '../filters.js';
import { type ApiVersion, type Dimension, type MetricsView, V1_VIEW_NAMES, validAggregations, VIEW_NAMES } from './declaration.js';
import { MetricsQueryError } from './errors.js';
import { highCardinalityProblem } from './high-cardinality.js';
import { type AnyMetricsView, metricsView } from './views.js';

const AGGREGATIONS = ['sum', 'avg', 'count', 'max', 'min', 'p50', 'p75', 'p90', 'p95', 'p99', 'histogram', 'uniq'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
const GRANULARITIES = ['auto', 'minute', 'hour', 'day', 'week', 'month'] as const;

const QUERY_OBJECT = z
  .object({
    view: z.enum(VIEW_NAMES),
    dimensions: z.array(z.object({ field: z.string() })).optional().default([]),
    metrics: z.array(z.object({ measure: z.string(), aggregation: z.enum(AGGREGATIONS) })),
    filters: z.array(singleFilter(false)).optional().default([]),
    timeDimension: z.object({ granularity: z.enum(GRANULARITIES) }).nullable().optional().default(null),
    fromTimestamp: z.iso.datetime({ offset: true }),
    toTimestamp: z.iso.datetime({ offset: true }),
    orderBy: z
      .array(z.object({ field: z.string(), direction: z.enum(['asc', 'desc']) }))
      .nullable()
      .optional()
      .default(null),
    config: z.object({ bins: z.number().int().min(1).max(100).optional(), row_limit: z.number().int().positive().lte(1000).optional() }).optional(),
  })
  .refine((query) => new Date(query.fromTimestamp).getTime() < new Date(query.toTimestamp).getTime(), { message: 'fromTimestamp must be before toTimestamp' });

/** v1's query object: v2's, with the `traces` view too. */
const QUERY_OBJECT_V1 = z
  .object({ ...QUERY_OBJECT.shape, view: z.enum(V1_VIEW_NAMES) })
  .refine((query) => new Date(query.fromTimestamp).getTime() < new Date(query.toTimestamp).getTime(), { message: 'fromTimestamp must be before toTimestamp' });

/** A checked query; a v2 one never names the `traces` view. */
export type MetricsQuery = z.output<typeof QUERY_OBJECT_V1>;

const expected = (types: readonly string[]) => (types.length === 1 ? `'${types[0]}'` : types.map((t) => `'${t}'`).join(types.length === 2 ? ' or ' : ', '));

const FILTER_TYPES = { string: ['string', 'stringOptions'], 'string[]': ['arrayOptions'], arrayString: ['arrayOptions'], number: ['number'], boolean: ['boolean'] } as const;

/** The name of the dimension a filter column names: its own, or (a column ending in "Name" the view lacks) `name`. */
export function filterDimensionName(view: { dimensions: Readonly<Record<string, unknown>> }, column: string): string | undefined {
  if (Object.hasOwn(view.dimensions, column)) return column;
  if (column.endsWith('Name') && Object.hasOwn(view.dimensions, 'name')) return 'name';
  return undefined;
}

/** The dimension a filter column names (filterDimensionName). */
export function filterDimension<Row>(view: MetricsView<Row>, column: string): Dimension<Row> | undefined {
  const name = filterDimensionName(view, column);
  return name === undefined ? undefined : view.dimensions[name];
}

/** QueryBuilder.validateFilters, then the column check of mapFilters, with their messages. */
function validateFilters(filters: readonly SingleFilter[], view: AnyMetricsView): void {
  for (const filter of filters) {
    const dimension = filterDimension(view, filter.column);
    if (dimension) {
      if (filter.type === 'null') continue;
      const compatible: readonly string[] = FILTER_TYPES[dimension.type];
      if (!compatible.includes(filter.type)) {
        throw new MetricsQueryError(`Invalid filter for field '${filter.column}': Filter type '${filter.type}' is not supported for dimension type '${dimension.type}'. Expected ${expected(compatible)}.`);
      }
    } else if (filter.column === view.timeDimension) {
      if (filter.type !== 'null' && filter.type !== 'datetime') {
        throw new MetricsQueryError(`Invalid filter for field '${filter.column}': Filter type '${filter.type}' is not supported for time dimension '${view.timeDimension}'. Expected 'datetime'.`);
      }
    } else if (filter.column === 'metadata') {
      if (filter.type !== 'stringObject') {
        throw new MetricsQueryError(
          `Invalid filter for field 'metadata': Metadata filters require type 'stringObject' with a 'key' property, not '${filter.type}'. Example: {"column": "metadata", "type": "stringObject", "key": "environment", "operator": "=", "value": "production"}`,
        );
      }
    }
  }
  for (const { column } of filters) {
    if (!filterDimension(view, column) && column !== view.timeDimension && column !== 'metadata') {
      throw new MetricsQueryError(`Invalid filter column ${column}. Must be one of ${Object.keys(view.dimensions).join(',')} or ${view.timeDimension}`);
    }
  }
}

// The aggregations an orderBy field may name: histogram is not among them.
const METRIC_FIELD = /^(sum|avg|count|max|min|p50|p75|p90|p95|p99|uniq)_(.+)$/;

/** QueryBuilder.validateAndProcessOrderBy: each field is the time bucket, a dimension, or a metric of the query. */
function validateOrderBy(query: MetricsQuery): void {
  for (const { field } of query.orderBy ?? []) {
    if (query.timeDimension && field === 'time_dimension') continue;
    if (query.dimensions.some((d) => d.field === field)) continue;
    const metric = METRIC_FIELD.exec(field);
    if (metric && query.metrics.some((m) => m.aggregation === metric[1] && m.measure === metric[2])) continue;
    throw new MetricsQueryError(`Invalid orderBy field: ${field}. Must be one of the dimension or metric fields.`);
  }
}

/** Parses and checks the JSON text of a query; throws MetricsQueryError with the service's message. */
export function parseMetricsQuery(text: string, version: ApiVersion = 'v2'): MetricsQuery {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MetricsQueryError('Invalid JSON in query parameter');
  }
  const parsed = (version === 'v1' ? QUERY_OBJECT_V1 : QUERY_OBJECT).safeParse(json);
  if (!parsed.success) throw new MetricsQueryError('Invalid request data', parsed.error.issues);
  const query: MetricsQuery = parsed.data;
  if (version === 'v2') {
    const problem = highCardinalityProblem(query);
    if (problem) throw new MetricsQueryError(problem);
  }
  const view = metricsView(query.view, version);
  for (const { field } of query.dimensions) {
    if (!Object.hasOwn(view.dimensions, field)) throw new MetricsQueryError(`Invalid dimension ${field}. Must be one of ${Object.keys(view.dimensions).join(',')}`);
  }
  for (const { measure, aggregation } of query.metrics) {
    if (!Object.hasOwn(view.measures, measure)) throw new MetricsQueryError(`Invalid metric ${measure}. Must be one of ${Object.keys(view.measures).join(',')}`);
    const { type } = view.measures[measure]!;
    const valid = validAggregations(type);
    if (!valid.includes(aggregation)) {
      throw new MetricsQueryError(`Aggregation "${aggregation}" is not valid for measure "${measure}" (type: ${type}). Valid aggregations: ${valid.join(', ')}`);
    }
  }
  validateFilters(query.filters, view);
  validateOrderBy(query);
  return query;
}

/** The query's time range as ISO times (UTC, milliseconds): rows start in [from, to). */
export function queryRange(query: MetricsQuery): { from: string; to: string } {
  return { from: new Date(query.fromTimestamp).toISOString(), to: new Date(query.toTimestamp).toISOString() };
}
