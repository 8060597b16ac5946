// The metrics API's `observations` view in SQL: the query's filters become a WHERE, its
// dimensions (and time bucket) a GROUP BY, its metrics SQL aggregates over the columns each
// measure reads (src/core/metrics/view.ts defines them in JavaScript; the columns hold the same
// values, computed by the same functions at write time). Nothing of a record is parsed. What SQL
// cannot answer as the JavaScript engine does (a filter on metadata: its values are compared as
// the engine prints them) is left to it (`observationMetricsSql` answers undefined).
//
// Groups come out in the order the engine meets them: it reads observations newest first by the
// v2 list's key (start time, trace hash, id; the index it scans), so a group's place is the
// largest key among its rows (appearanceOrder); ties in the answer's order keep that order, as
// they do there.
// Float sums are SQLite's, which compensates rounding (Kahan-Babuska-Neumaier): they can differ
// from the engine's plain sums in the last digit, towards the exact decimal sum the service's
// Decimal64 columns give.
import { aggregate, aggregateSummary, DEFAULT_BINS, filterDimensionName, type Granularity, type MetricsGroup, type MetricsQuery, metricsGranularity, metricsView, type ValueSummary } from '../../core/metrics/index.js';
import type { SingleFilter } from '../../core/filters.js';
import type { Sql } from './where.js';

interface Column {
  sql: string;
  /** Reads its trace's row (joined as `t`). */
  trace?: boolean;
  /** The text a string filter compares (the column itself when unset). */
  text?: string;
}

const TAGS = "COALESCE(json_extract(t.record, '$.tags'), '[]')";

// view.ts's dimensions, over the observation `o` and its trace `t`.
const DIMENSIONS: Readonly<Record<string, Column>> = {
  id: { sql: 'o.id' },
  traceId: { sql: 'o.trace_id' },
  environment: { sql: "NULLIF(o.environment, '')" },
  parentObservationId: { sql: 'o.parent_observation_id' },
  type: { sql: 'o.type' },
  name: { sql: 'o.name' },
  level: { sql: 'o.level' },
  version: { sql: 'o.version' },
  userId: { sql: 't.user_id', trace: true },
  sessionId: { sql: 't.session_id', trace: true },
  tags: { sql: TAGS, trace: true },
  release: { sql: 't.release', trace: true },
  traceName: { sql: 't.name', trace: true },
  traceRelease: { sql: 't.release', trace: true },
  traceVersion: { sql: 't.version', trace: true },
  providedModelName: { sql: 'o.provided_model_name' },
  promptName: { sql: 'o.prompt_name' },
  promptVersion: { sql: 'o.prompt_version', text: 'CAST(o.prompt_version AS TEXT)' },
  startTimeMonth: { sql: 'substr(o.start_time, 1, 7)' },
  experimentName: { sql: 'NULL' },
  experimentDatasetId: { sql: 'NULL' },
  experimentId: { sql: 'NULL' },
};

// Whole seconds, as the engine truncates them; NULL when under one.
const wholeSeconds = (millis: string) => `NULLIF(CAST(COALESCE(${millis}, 0) / 1000 AS INTEGER), 0)`;
const STREAMING = '(o.latency_ms - o.time_to_first_token_ms)';

// view.ts's measures. Latencies are kept in milliseconds; streaming latency, from the first
// token to the end, is the latency less the time to the first token (whole milliseconds both).
const MEASURES: Readonly<Record<string, Column>> = {
  count: { sql: '1' },
  traceId: { sql: 'o.trace_id' },
  uniqueUserIds: { sql: 't.user_id', trace: true },
  uniqueSessionIds: { sql: 't.session_id', trace: true },
  latency: { sql: 'o.latency_ms' },
  streamingLatency: { sql: STREAMING },
  inputTokens: { sql: 'o.input_tokens' },
  outputTokens: { sql: 'o.output_tokens' },
  totalTokens: { sql: 'o.total_tokens' },
  outputTokensPerSecond: { sql: `o.output_tokens / ${wholeSeconds(STREAMING)}` },
  tokensPerSecond: { sql: `o.total_tokens / ${wholeSeconds('o.latency_ms')}` },
  inputCost: { sql: 'o.input_cost' },
  outputCost: { sql: 'o.output_cost' },
  totalCost: { sql: 'COALESCE(o.total_cost, 0)' },
  timeToFirstToken: { sql: 'o.time_to_first_token_ms' },
};

/** The time bucket of the start time, as src/core/metrics/time-buckets.ts prints it. */
const BUCKETS: Readonly<Record<Granularity, string>> = {
  minute: "substr(o.start_time, 1, 16) || ':00Z'",
  hour: "substr(o.start_time, 1, 13) || ':00:00Z'",
  day: 'substr(o.start_time, 1, 10)',
  week: "date(o.start_time, '-6 days', 'weekday 1')",
  month: "substr(o.start_time, 1, 7) || '-01'",
};

/** What one metric's partial columns hold. */
export type MetricPart = 'count' | 'distinct' | 'sum' | 'min' | 'max' | 'values';

export interface MetricsSql extends Sql {
  /** The largest trace hash and id (as text) of each group's rows that start at a time (one more parameter). */
  tie: string;
  /** The columns of each metric, in query order: `m<i>_<part>`. */
  parts: MetricPart[][];
  dimensions: readonly string[];
  granularity: Granularity | undefined;
}

function stringCondition(text: string, operator: string, value: string, params: unknown[]): string {
  const t = `COALESCE(${text}, '')`;
  switch (operator) {
    case '=':
      params.push(value);
      return `${t} = ?`;
    case 'contains':
      params.push(value);
      return `instr(${t}, ?) > 0`;
    case 'does not contain':
      params.push(value);
      return `instr(${t}, ?) = 0`;
    case 'starts with':
      params.push(value, value);
      return `substr(${t}, 1, length(?)) = ?`;
    case 'ends with':
      params.push(value, value, value);
      return `(? = '' OR substr(${t}, -length(?)) = ?)`;
    default:
      return '0';
  }
}

/** One filter as SQL, or undefined when SQL cannot answer it as the engine does. */
function filterCondition(filter: SingleFilter, params: unknown[]): { sql: string; trace: boolean } | undefined {
  const op = filter.operator;
  if (filter.type === 'datetime' && filter.column === 'start_time') {
    params.push(filter.value.toISOString());
    return { sql: `o.start_time ${op === '>' || op === '<' || op === '>=' ? op : '<='} ?`, trace: false };
  }
  if (filter.type === 'null' && filter.column === 'start_time') return { sql: op === 'is null' ? '0' : '1', trace: false };
  const name = filterDimensionName({ dimensions: DIMENSIONS }, filter.column);
  if (name === undefined) return undefined;
  const column = DIMENSIONS[name]!;
  const trace = column.trace ?? false;
  const text = column.text ?? column.sql;
  switch (filter.type) {
    case 'null': {
      const empty = name === 'tags' ? `${column.sql} = '[]'` : `(${column.sql} IS NULL OR ${text} = '')`;
      return { sql: op === 'is null' ? empty : `NOT ${empty}`, trace };
    }
    case 'string':
      return { sql: stringCondition(text, op, filter.value, params), trace };
    case 'stringOptions':
    case 'arrayOptions': {
      // The engine's set test: the row's values (the tags, or the one value) against the list.
      const have = name === 'tags' ? `SELECT value FROM json_each(${column.sql})` : `SELECT ${text} WHERE ${text} IS NOT NULL`;
      params.push(JSON.stringify(filter.value));
      const wanted = 'SELECT value FROM json_each(?)';
      if (op === 'any of') return { sql: `EXISTS (${have} INTERSECT ${wanted})`, trace };
      if (op === 'none of') return { sql: `NOT EXISTS (${have} INTERSECT ${wanted})`, trace };
      return { sql: `NOT EXISTS (${wanted} EXCEPT ${have})`, trace };
    }
    default:
      return undefined;
  }
}

function aggregateColumns(i: number, aggregation: string, value: string): { sql: string[]; parts: MetricPart[] } {
  const col = (part: MetricPart, sql: string) => `${sql} AS m${i}_${part}`;
  switch (aggregation) {
    case 'count':
      return { sql: [col('count', `COUNT(${value})`)], parts: ['count'] };
    case 'uniq':
      return { sql: [col('distinct', `COUNT(DISTINCT ${value})`)], parts: ['distinct'] };
    case 'sum':
    case 'avg':
      return { sql: [col('count', `COUNT(${value})`), col('sum', `SUM(${value})`)], parts: ['count', 'sum'] };
    case 'min':
    case 'max':
      return { sql: [col('count', `COUNT(${value})`), col(aggregation, `${aggregation.toUpperCase()}(${value})`)], parts: ['count', aggregation] };
    default:
      // Percentiles and histograms need every value: 17 significant digits give each double back.
      return { sql: [col('values', `group_concat(printf('%!.17g', ${value})) FILTER (WHERE ${value} IS NOT NULL)`)], parts: ['values'] };
  }
}

/**
 * The grouped query of a metrics query over the `observations` view, or undefined when a filter
 * needs the engine. Rows: `d<i>` per dimension, `time_dimension`, the metrics' parts, `n` (rows), `first` (the newest start time).
 */
export function observationMetricsSql(query: MetricsQuery, from: string, to: string): MetricsSql | undefined {
  const params: unknown[] = [from, to];
  const where = ['o.start_time >= ?', 'o.start_time < ?'];
  let trace = false;
  for (const filter of query.filters) {
    const condition = filterCondition(filter, params);
    if (!condition) return undefined;
    where.push(condition.sql);
    trace ||= condition.trace;
  }
  const select: string[] = [];
  const group: string[] = [];
  for (const [i, { field }] of query.dimensions.entries()) {
    const column = DIMENSIONS[field]!;
    trace ||= column.trace ?? false;
    select.push(`${column.sql} AS d${i}`);
    group.push(`d${i}`);
  }
  const granularity = metricsGranularity(query);
  if (granularity) {
    select.push(`${BUCKETS[granularity]} AS time_dimension`);
    group.push('time_dimension');
  }
  const parts: MetricPart[][] = [];
  for (const [i, { measure, aggregation }] of query.metrics.entries()) {
    const column = MEASURES[measure]!;
    trace ||= column.trace ?? false;
    const columns = aggregateColumns(i, aggregation, column.sql);
    select.push(...columns.sql);
    parts.push(columns.parts);
  }
  select.push('COUNT(*) AS n, MAX(o.start_time) AS first');
  const from_ = `FROM observations o${trace ? ' LEFT JOIN traces t ON t.id = o.trace_id' : ''} WHERE ${where.join(' AND ')}`;
  const groupBy = group.length ? ` GROUP BY ${group.join(', ')}` : '';
  const keys = select.slice(0, group.length);
  return {
    sql: `SELECT ${select.join(', ')} ${from_}${groupBy}`,
    params,
    tie: `SELECT ${[...keys, "MAX(printf('%010d', o.trace_hash) || o.id) AS tie"].join(', ')} ${from_} AND o.start_time = ?${groupBy}`,
    parts,
    dimensions: query.dimensions.map(({ field }) => field),
    granularity,
  };
}

const groupKey = (built: MetricsSql, row: Record<string, unknown>) => JSON.stringify([...built.dimensions.map((_, i) => row[`d${i}`] ?? null), row['time_dimension'] ?? null]);

/**
 * Sorts the rows of `built.sql` in the order the engine meets their groups: by their newest start
 * time, then, among groups whose newest rows start at the same time, by the largest trace hash
 * and id of those rows (read with `built.tie` for those times only).
 */
export function appearanceOrder(built: MetricsSql, rows: Array<Record<string, unknown>>, tie: (time: string) => ReadonlyArray<Record<string, unknown>>): void {
  const times = new Map<string, number>();
  for (const row of rows) times.set(String(row['first']), (times.get(String(row['first'])) ?? 0) + 1);
  const ties = new Map<string, string>();
  for (const [time, count] of times) {
    if (count < 2) continue;
    for (const row of tie(time)) ties.set(`${time} ${groupKey(built, row)}`, String(row['tie']));
  }
  const key = (row: Record<string, unknown>) => `${String(row['first'])} ${ties.get(`${String(row['first'])} ${groupKey(built, row)}`) ?? ''}`;
  rows.sort((a, b) => {
    const x = key(a);
    const y = key(b);
    return x === y ? 0 : x < y ? 1 : -1;
  });
}

/** The groups of rows of `observationMetricsSql` (with rows, in appearance order). */
export function metricsGroups(query: MetricsQuery, built: MetricsSql, rows: ReadonlyArray<Record<string, unknown>>): MetricsGroup[] {
  const view = metricsView(query.view);
  const bins = query.config?.bins ?? DEFAULT_BINS;
  return rows.map((row) => {
    const dims: Record<string, unknown> = {};
    for (const [i, field] of built.dimensions.entries()) {
      const value = row[`d${i}`] ?? null;
      dims[field] = field === 'tags' ? JSON.parse(String(value)) : value;
    }
    if (built.granularity) dims['time_dimension'] = row['time_dimension'];
    const values = query.metrics.map(({ measure, aggregation }, i) => {
      const { type, nullable } = view.measures[measure]!;
      const integer = type === 'integer';
      const part = (name: MetricPart) => row[`m${i}_${name}`] as number | null;
      if (built.parts[i]![0] === 'values') {
        const text = row[`m${i}_values`] as string | null;
        return aggregate(text ? text.split(',').map(Number) : [], aggregation, integer, bins, nullable);
      }
      const summary: ValueSummary = { count: part('count') ?? 0, distinct: part('distinct') ?? 0, sum: part('sum'), min: part('min'), max: part('max') };
      return aggregateSummary(aggregation, integer, summary, nullable);
    });
    return { dims, values, rows: Number(row['n']) };
  });
}
