// GET /api/public/v2/metrics, the `observations` view: what a cost report needs. The query is the
// service's JSON object (`query=`): dimensions, metrics (measure + aggregation), filters, a time
// dimension and a time range. Rows come back as the service's query layer names and types them:
// dimensions by field name, `<aggregation>_<measure>`, `time_dimension`; 64-bit integers (counts,
// token sums, millisecond sums) as strings, decimals and averages as numbers; time buckets filled
// over the range when no orderBy is given (ClickHouse WITH FILL).
import { z } from 'zod';
import { invalidRequest, invalidRequestData, zodIssues } from '../http/errors.js';
import type { Handler, Route } from '../http/router.js';
import type { ObservationForMetrics } from '../store/index.js';
import { metadataValueText } from '../../core/metadata.js';
import { compareStrings } from '../../core/order.js';
import { FILTERS, type SingleFilter } from './filter-param.js';
import { histogram } from './histogram.js';
import { parseQuery } from './read-query.js';

type Row = ObservationForMetrics;

const DIMENSIONS: Record<string, (row: Row) => unknown> = {
  id: (r) => r.observation.id,
  traceId: (r) => r.observation.traceId,
  traceName: (r) => r.traceName,
  environment: (r) => r.observation.environment || null,
  parentObservationId: (r) => r.observation.parentObservationId,
  type: (r) => r.observation.type,
  name: (r) => r.observation.name,
  level: (r) => r.observation.level,
  version: (r) => r.observation.version,
  userId: (r) => r.userId,
  sessionId: (r) => r.sessionId,
  traceRelease: (r) => r.release,
  traceVersion: (r) => r.traceVersion,
  tags: (r) => r.tags,
  providedModelName: (r) => r.observation.providedModelName,
  promptName: (r) => r.observation.promptName,
  promptVersion: (r) => r.observation.promptVersion,
  startTimeMonth: (r) => r.observation.startTime.slice(0, 7),
};

const sumKeys = (details: Record<string, number> | undefined, part: string) =>
  Object.entries(details ?? {}).reduce((sum, [key, value]) => (key.toLowerCase().includes(part) ? sum + Number(value) : sum), 0);
const ms = (from: string | null, to: string | null) => (from && to ? Date.parse(to) - Date.parse(from) : null);

/** Per-observation values of each measure, and whether the service's column is a 64-bit integer. */
const MEASURES: Record<string, { value: (row: Row) => number | null | string; integer: boolean }> = {
  count: { value: () => 1, integer: true },
  traceId: { value: (r) => r.observation.traceId, integer: true },
  uniqueUserIds: { value: (r) => r.userId, integer: true },
  uniqueSessionIds: { value: (r) => r.sessionId, integer: true },
  latency: { value: (r) => ms(r.observation.startTime, r.observation.endTime), integer: true },
  streamingLatency: { value: (r) => ms(r.observation.completionStartTime, r.observation.endTime), integer: true },
  timeToFirstToken: { value: (r) => ms(r.observation.startTime, r.observation.completionStartTime), integer: true },
  inputTokens: { value: (r) => sumKeys(r.observation.usageDetails, 'input'), integer: true },
  outputTokens: { value: (r) => sumKeys(r.observation.usageDetails, 'output'), integer: true },
  totalTokens: { value: (r) => Number(r.observation.usageDetails?.total ?? 0), integer: true },
  inputCost: { value: (r) => sumKeys(r.observation.costDetails, 'input'), integer: false },
  outputCost: { value: (r) => sumKeys(r.observation.costDetails, 'output'), integer: false },
  totalCost: { value: (r) => r.observation.totalCost, integer: false },
  outputTokensPerSecond: {
    value: (r) => {
      const seconds = Math.trunc((ms(r.observation.completionStartTime, r.observation.endTime) ?? 0) / 1000);
      return seconds ? sumKeys(r.observation.usageDetails, 'output') / seconds : null;
    },
    integer: false,
  },
  tokensPerSecond: {
    value: (r) => {
      const seconds = Math.trunc((ms(r.observation.startTime, r.observation.endTime) ?? 0) / 1000);
      return seconds ? Number(r.observation.usageDetails?.total ?? 0) / seconds : null;
    },
    integer: false,
  },
};

const AGGREGATIONS = ['sum', 'avg', 'count', 'max', 'min', 'p50', 'p75', 'p90', 'p95', 'p99', 'histogram', 'uniq'] as const;
type Aggregation = (typeof AGGREGATIONS)[number];
const GRANULARITIES = ['auto', 'minute', 'hour', 'day', 'week', 'month'] as const;
type Granularity = Exclude<(typeof GRANULARITIES)[number], 'auto'>;

/** The view's dimension types (string unless listed), for the filter types each takes. */
const DIMENSION_TYPES: Record<string, 'string' | 'string[]'> = { tags: 'string[]' };
/** The observations view's time dimension: the column a datetime filter names. */
const TIME_DIMENSION = 'start_time';

const QUERY_OBJECT = z
  .object({
    view: z.enum(['observations', 'scores-numeric', 'scores-categorical', 'scores-boolean']),
    dimensions: z.array(z.object({ field: z.string() })).optional().default([]),
    metrics: z.array(z.object({ measure: z.string(), aggregation: z.enum(AGGREGATIONS) })),
    filters: FILTERS.optional().default([]),
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

const METRICS_QUERY = z.object({ query: z.string() });

type Filter = SingleFilter;

const expected = (types: readonly string[]) => (types.length === 1 ? `'${types[0]}'` : types.map((t) => `'${t}'`).join(types.length === 2 ? ' or ' : ', '));

/** The service's checks of a query's filters (QueryBuilder.validateFilters), with its messages. */
function validateFilters(filters: readonly Filter[]): void {
  for (const filter of filters) {
    if (filter.type === 'positionInTrace') continue;
    if (DIMENSIONS[filter.column]) {
      if (filter.type === 'null') continue;
      const type = DIMENSION_TYPES[filter.column] ?? 'string';
      const compatible = type === 'string[]' ? ['arrayOptions'] : ['string', 'stringOptions'];
      if (!compatible.includes(filter.type)) {
        throw invalidRequest(`Invalid filter for field '${filter.column}': Filter type '${filter.type}' is not supported for dimension type '${type}'. Expected ${expected(compatible)}.`);
      }
    } else if (filter.column === TIME_DIMENSION) {
      if (filter.type !== 'null' && filter.type !== 'datetime') {
        throw invalidRequest(`Invalid filter for field '${filter.column}': Filter type '${filter.type}' is not supported for time dimension '${TIME_DIMENSION}'. Expected 'datetime'.`);
      }
    } else if (filter.column === 'metadata') {
      if (filter.type !== 'stringObject') {
        throw invalidRequest(
          `Invalid filter for field 'metadata': Metadata filters require type 'stringObject' with a 'key' property, not '${filter.type}'. Example: {"column": "metadata", "type": "stringObject", "key": "environment", "operator": "=", "value": "production"}`,
        );
      }
    } else if (!filter.column.endsWith('Name')) {
      throw invalidRequest(`Invalid filter column ${filter.column}. Must be one of ${Object.keys(DIMENSIONS).join(',')} or ${TIME_DIMENSION}`);
    }
  }
}

/** The value a filter compares: a dimension, the start time, or (a column ending in "Name" the service does not know) the name. */
function filterValue(row: Row, filter: Filter): unknown {
  const read = DIMENSIONS[filter.column];
  if (read) return read(row);
  if (filter.column === TIME_DIMENSION) return row.observation.startTime;
  return row.observation.name;
}

function stringPasses(text: string, operator: string, wanted: string): boolean {
  if (operator === '=') return text === wanted;
  if (operator === 'contains') return text.includes(wanted);
  if (operator === 'does not contain') return !text.includes(wanted);
  if (operator === 'starts with') return text.startsWith(wanted);
  if (operator === 'ends with') return text.endsWith(wanted);
  return false;
}

/** Whether a row passes one filter of the service's filter language. */
function passes(row: Row, filter: Filter): boolean {
  const op = filter.operator;
  switch (filter.type) {
    case 'positionInTrace':
      return true;
    case 'stringObject': {
      const metadata = row.observation.metadata ?? {};
      if (!Object.hasOwn(metadata, filter.key)) return false;
      return stringPasses(metadataValueText(metadata[filter.key]), op, filter.value);
    }
    case 'datetime': {
      const a = String(filterValue(row, filter) ?? '');
      const b = filter.value.toISOString();
      return op === '>' ? a > b : op === '<' ? a < b : op === '>=' ? a >= b : a <= b;
    }
    case 'null': {
      const actual = filterValue(row, filter);
      const empty = actual === null || actual === undefined || actual === '' || (Array.isArray(actual) && actual.length === 0);
      return op === 'is null' ? empty : !empty;
    }
  }
  const actual = filterValue(row, filter);
  switch (filter.type) {
    case 'string':
      return stringPasses(actual === null || actual === undefined ? '' : String(actual), op, filter.value);
    case 'stringOptions':
    case 'arrayOptions': {
      const wanted = filter.value;
      const have = Array.isArray(actual) ? actual.map(String) : actual === null || actual === undefined ? [] : [String(actual)];
      if (op === 'any of') return have.some((v) => wanted.includes(v));
      if (op === 'none of') return !have.some((v) => wanted.includes(v));
      return wanted.every((v) => have.includes(v));
    }
  }
  throw invalidRequest(`Filter type ${filter.type} is not supported by llmobs server on the observations view`);
}

function granularityFor(from: string, to: string): Granularity {
  const hours = (Date.parse(to) - Date.parse(from)) / 3_600_000;
  if (hours < 2) return 'minute';
  if (hours < 72) return 'hour';
  if (hours < 1440) return 'day';
  if (hours < 8760) return 'week';
  return 'month';
}

/** The bucket of a time, as ClickHouse prints it with date_time_output_format=iso. */
function bucket(iso: string, granularity: Granularity): string {
  const d = new Date(iso);
  const date = (x: Date) => x.toISOString().slice(0, 10);
  switch (granularity) {
    case 'minute':
      return `${d.toISOString().slice(0, 16)}:00Z`;
    case 'hour':
      return `${d.toISOString().slice(0, 13)}:00:00Z`;
    case 'day':
      return date(d);
    case 'week': {
      const monday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7)));
      return date(monday);
    }
    case 'month':
      return `${d.toISOString().slice(0, 7)}-01`;
  }
}

function nextBucket(value: string, granularity: Granularity): string {
  const d = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (granularity === 'minute') d.setUTCMinutes(d.getUTCMinutes() + 1);
  else if (granularity === 'hour') d.setUTCHours(d.getUTCHours() + 1);
  else if (granularity === 'day') d.setUTCDate(d.getUTCDate() + 1);
  else if (granularity === 'week') d.setUTCDate(d.getUTCDate() + 7);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return bucket(d.toISOString(), granularity);
}

/** ClickHouse's `quantile`: linear interpolation between the nearest ranks. */
function quantile(values: number[], level: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = level * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/** One metric over a group's values (exported for tests); `bins` is the histogram's (the query's config.bins, 10 by default). */
export function aggregate(values: Array<number | string | null>, aggregation: Aggregation, integer: boolean, bins = 10): unknown {
  const present = values.filter((v): v is number | string => v !== null);
  const numbers = present.map(Number);
  const int64 = (n: number) => String(Math.round(n));
  switch (aggregation) {
    case 'count':
      return String(present.length);
    case 'uniq':
      return String(new Set(present).size);
    case 'sum': {
      if (numbers.length === 0) return integer ? '0' : null;
      const sum = numbers.reduce((a, b) => a + b, 0);
      return integer ? int64(sum) : sum;
    }
    case 'max':
    case 'min': {
      if (numbers.length === 0) return integer ? '0' : null;
      // A loop: Math.max(...numbers) overflows the stack past some 150,000 values.
      let value = numbers[0]!;
      for (const n of numbers) if (aggregation === 'max' ? n > value || Number.isNaN(n) : n < value || Number.isNaN(n)) value = n;
      return integer ? int64(value) : value;
    }
    case 'avg':
      return numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : null;
    case 'histogram': {
      // histogram(bins)(toFloat64(x)): NULLs skipped; a value that is not a finite number fails
      // the service's query.
      for (const n of numbers) if (!Number.isFinite(n)) throw invalidRequest('The histogram aggregation takes numeric measures only');
      return histogram(numbers, bins);
    }
    default:
      return numbers.length ? quantile(numbers, Number(aggregation.slice(1)) / 100) : null;
  }
}

const getMetrics: Handler = (request, tx) => {
  const raw = parseQuery(METRICS_QUERY, request.query).query;
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw invalidRequest('Invalid JSON in query parameter');
  }
  const parsed = QUERY_OBJECT.safeParse(json);
  if (!parsed.success) throw invalidRequestData(zodIssues(parsed.error.issues as never));
  const query = parsed.data;
  validateFilters(query.filters);
  if (query.view !== 'observations') throw invalidRequest(`The ${query.view} view is not supported by llmobs server; use the observations view`);
  for (const { field } of query.dimensions) if (!DIMENSIONS[field]) throw invalidRequest(`Invalid dimension ${field} for view observations`);
  for (const { measure } of query.metrics) if (!MEASURES[measure]) throw invalidRequest(`Invalid measure ${measure} for view observations`);

  const from = new Date(query.fromTimestamp).toISOString();
  const to = new Date(query.toTimestamp).toISOString();
  const granularity = query.timeDimension ? (query.timeDimension.granularity === 'auto' ? granularityFor(from, to) : query.timeDimension.granularity) : undefined;
  const groups = new Map<string, { dims: Record<string, unknown>; values: Array<Array<number | string | null>> }>();
  for (const row of tx.observations.forMetrics(from, to)) {
    if (!query.filters.every((filter) => passes(row, filter))) continue;
    const dims: Record<string, unknown> = {};
    for (const { field } of query.dimensions) dims[field] = DIMENSIONS[field]!(row) ?? null;
    if (granularity) dims.time_dimension = bucket(row.observation.startTime, granularity);
    const key = JSON.stringify(dims);
    let group = groups.get(key);
    if (!group) {
      group = { dims, values: query.metrics.map(() => []) };
      groups.set(key, group);
    }
    query.metrics.forEach(({ measure }, i) => group!.values[i]!.push(MEASURES[measure]!.value(row)));
  }

  const limit = query.config?.row_limit ?? 100;
  let rows = [...groups.values()].map(({ dims, values }) => {
    const out: Record<string, unknown> = { ...dims };
    query.metrics.forEach(({ measure, aggregation }, i) => (out[`${aggregation}_${measure}`] = aggregate(values[i]!, aggregation, MEASURES[measure]!.integer, query.config?.bins ?? 10)));
    return out;
  });

  if (granularity && !query.orderBy?.length) {
    // WITH FILL: every bucket of the range appears, ascending; missing ones with empty values.
    const present = new Set(rows.map((row) => row.time_dimension as string));
    const empty = (bucketValue: string) => {
      const out: Record<string, unknown> = Object.fromEntries(query.dimensions.map(({ field }) => [field, null]));
      out.time_dimension = bucketValue;
      for (const { measure, aggregation } of query.metrics) {
        out[`${aggregation}_${measure}`] =
          aggregation === 'histogram' ? [] : aggregation === 'count' || aggregation === 'uniq' || (MEASURES[measure]!.integer && ['sum', 'max', 'min'].includes(aggregation)) ? '0' : 0;
      }
      return out;
    };
    // Only the earliest `limit` empty buckets can be among the first `limit` rows: a range of
    // centuries by the minute would otherwise be millions of rows built and thrown away.
    const end = bucket(to, granularity);
    let added = 0;
    for (let b = bucket(from, granularity); b < end && added < limit; b = nextBucket(b, granularity)) {
      if (present.has(b)) continue;
      rows.push(empty(b));
      added++;
    }
    rows.sort((a, b) => compareStrings(String(a.time_dimension), String(b.time_dimension)));
  } else if (query.orderBy?.length) {
    const order = query.orderBy;
    rows.sort((a, b) => {
      for (const { field, direction } of order) {
        const x = a[field];
        const y = b[field];
        const numeric = typeof x === 'number' || typeof y === 'number' || (typeof x === 'string' && /^-?\d+$/.test(x) && typeof y === 'string' && /^-?\d+$/.test(y));
        const cmp = x === y ? 0 : x === null || x === undefined ? -1 : y === null || y === undefined ? 1 : numeric ? Number(x) - Number(y) : compareStrings(String(x), String(y));
        if (cmp !== 0) return direction === 'asc' ? cmp : -cmp;
      }
      return 0;
    });
  }
  rows = rows.slice(0, limit);
  return { status: 200, body: { data: rows } };
};

export const metricsRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/v2\/metrics$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { GET: getMetrics },
  },
];
