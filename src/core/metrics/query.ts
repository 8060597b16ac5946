// A metrics query: the JSON object the metrics API takes as its `query` parameter (v1 and v2
// alike), checked as the service checks it: its zod schema (web/src/features/public-api/types/
// metrics.ts), then QueryBuilder.validateFilters and the view's dimensions and measures, with
// the service's messages. Only the `observations` view is answered here.
import { z } from 'zod';
import { type SingleFilter, singleFilter } from '../filters.js';
import { MetricsQueryError } from './errors.js';
import { DIMENSION_TYPES, DIMENSIONS, MEASURES, TIME_DIMENSION } from './view.js';

const AGGREGATIONS = ['sum', 'avg', 'count', 'max', 'min', 'p50', 'p75', 'p90', 'p95', 'p99', 'histogram', 'uniq'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
const GRANULARITIES = ['auto', 'minute', 'hour', 'day', 'week', 'month'] as const;

const QUERY_OBJECT = z
  .object({
    view: z.enum(['observations', 'scores-numeric', 'scores-categorical', 'scores-boolean']),
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

/** A query the `observations` view can answer. */
export type MetricsQuery = z.output<typeof QUERY_OBJECT> & { view: 'observations' };

const expected = (types: readonly string[]) => (types.length === 1 ? `'${types[0]}'` : types.map((t) => `'${t}'`).join(types.length === 2 ? ' or ' : ', '));

/** The service's checks of a query's filters (QueryBuilder.validateFilters), with its messages. */
function validateFilters(filters: readonly SingleFilter[]): void {
  for (const filter of filters) {
    if (filter.type === 'positionInTrace') continue;
    if (DIMENSIONS[filter.column]) {
      if (filter.type === 'null') continue;
      const type = DIMENSION_TYPES[filter.column] ?? 'string';
      const compatible = type === 'string[]' ? ['arrayOptions'] : ['string', 'stringOptions'];
      if (!compatible.includes(filter.type)) {
        throw new MetricsQueryError(`Invalid filter for field '${filter.column}': Filter type '${filter.type}' is not supported for dimension type '${type}'. Expected ${expected(compatible)}.`);
      }
    } else if (filter.column === TIME_DIMENSION) {
      if (filter.type !== 'null' && filter.type !== 'datetime') {
        throw new MetricsQueryError(`Invalid filter for field '${filter.column}': Filter type '${filter.type}' is not supported for time dimension '${TIME_DIMENSION}'. Expected 'datetime'.`);
      }
    } else if (filter.column === 'metadata') {
      if (filter.type !== 'stringObject') {
        throw new MetricsQueryError(
          `Invalid filter for field 'metadata': Metadata filters require type 'stringObject' with a 'key' property, not '${filter.type}'. Example: {"column": "metadata", "type": "stringObject", "key": "environment", "operator": "=", "value": "production"}`,
        );
      }
    } else if (!filter.column.endsWith('Name')) {
      throw new MetricsQueryError(`Invalid filter column ${filter.column}. Must be one of ${Object.keys(DIMENSIONS).join(',')} or ${TIME_DIMENSION}`);
    }
  }
}

/** Parses and checks the JSON text of a query; throws MetricsQueryError with the service's message. */
export function parseMetricsQuery(text: string): MetricsQuery {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new MetricsQueryError('Invalid JSON in query parameter');
  }
  const parsed = QUERY_OBJECT.safeParse(json);
  if (!parsed.success) throw new MetricsQueryError('Invalid request data', parsed.error.issues);
  const query = parsed.data;
  validateFilters(query.filters);
  if (query.view !== 'observations') throw new MetricsQueryError(`The ${query.view} view is not supported by llmobs server; use the observations view`);
  for (const { field } of query.dimensions) if (!DIMENSIONS[field]) throw new MetricsQueryError(`Invalid dimension ${field} for view observations`);
  for (const { measure } of query.metrics) if (!MEASURES[measure]) throw new MetricsQueryError(`Invalid measure ${measure} for view observations`);
  return query as MetricsQuery;
}

/** The query's time range as ISO times (UTC, milliseconds): rows start in [from, to). */
export function queryRange(query: MetricsQuery): { from: string; to: string } {
  return { from: new Date(query.fromTimestamp).toISOString(), to: new Date(query.toTimestamp).toISOString() };
}
