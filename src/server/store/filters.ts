// The read API's advanced filters as SQL over the stored traces (alias t) and observations
// (alias o), with what the service's ClickHouse filters mean (clickhouse-filter.ts): string
// operators on the text as stored and case-sensitive, metadata values compared as the strings the
// service keeps them as, tags by set operations, and the aggregates a trace list filters on (its
// observations' levels, tokens, costs and latency, its scores) computed from what is stored. A
// NULL value (a field never set) matches no comparison.

/** Every column a filter can name (the handlers map the service's column names onto these). */
export type FilterColumnKey =
  | 'trace.id'
  | 'trace.name'
  | 'trace.timestamp'
  | 'trace.userId'
  | 'trace.sessionId'
  | 'trace.version'
  | 'trace.release'
  | 'trace.environment'
  | 'trace.tags'
  | 'trace.bookmarked'
  | 'trace.metadata'
  | 'trace.level'
  | 'trace.warningCount'
  | 'trace.errorCount'
  | 'trace.defaultCount'
  | 'trace.debugCount'
  | 'trace.inputTokens'
  | 'trace.outputTokens'
  | 'trace.totalTokens'
  | 'trace.latency'
  | 'trace.inputCost'
  | 'trace.outputCost'
  | 'trace.totalCost'
  | 'trace.scores'
  | 'trace.scoreCategories'
  | 'trace.scoreBooleans'
  | 'observation.id'
  | 'observation.type'
  | 'observation.name'
  | 'observation.traceId'
  | 'observation.parentObservationId'
  | 'observation.startTime'
  | 'observation.endTime'
  | 'observation.environment'
  | 'observation.level'
  | 'observation.statusMessage'
  | 'observation.version'
  | 'observation.model'
  | 'observation.modelId'
  | 'observation.promptName'
  | 'observation.promptVersion'
  | 'observation.latency'
  | 'observation.timeToFirstToken'
  | 'observation.tokensPerSecond'
  | 'observation.inputTokens'
  | 'observation.outputTokens'
  | 'observation.totalTokens'
  | 'observation.inputCost'
  | 'observation.outputCost'
  | 'observation.totalCost'
  | 'observation.metadata'
  | 'observation.input'
  | 'observation.output'
  | 'observation.hasParentObservation'
  | 'observation.isRoot'
  | 'observation.hasInput'
  | 'observation.hasOutput'
  | 'observation.userId'
  | 'observation.sessionId'
  | 'observation.traceName'
  | 'observation.traceEnvironment'
  | 'observation.traceTags'
  | 'observation.release';

/** One filter as the store applies it: a known column, the service's filter type and operator. */
export interface ColumnFilter {
  column: FilterColumnKey;
  type: string;
  operator: string;
  /** datetime values are ISO strings (UTC, milliseconds). */
  value: unknown;
  /** The metadata key, or the score name, of object filters. */
  key?: string;
}

type Kind = 'scalar' | 'array' | 'object' | 'scores';

interface Expression {
  kind: Kind;
  sql: string;
}

const scalar = (sql: string): Expression => ({ kind: 'scalar', sql });
const ofTrace = (aggregate: string, where = '') => scalar(`(SELECT ${aggregate} FROM observations x WHERE x.trace_id = t.id${where})`);
const traceField = (column: string) => scalar(`(SELECT ${column} FROM traces tt WHERE tt.id = o.trace_id)`);
const levelCount = (level: string) => ofTrace('count(*)', ` AND x.level = '${level}'`);

const EXPRESSIONS: Record<FilterColumnKey, Expression> = {
  'trace.id': scalar('t.id'),
  'trace.name': scalar('t.name'),
  'trace.timestamp': scalar('t.timestamp'),
  'trace.userId': scalar('t.user_id'),
  'trace.sessionId': scalar('t.session_id'),
  'trace.version': scalar('t.version'),
  'trace.release': scalar('t.release'),
  'trace.environment': scalar('t.environment'),
  'trace.tags': { kind: 'array', sql: "json_extract(t.record, '$.tags')" },
  'trace.bookmarked': scalar("json_extract(t.record, '$.bookmarked')"),
  'trace.metadata': { kind: 'object', sql: "json_extract(t.record, '$.metadata')" },
  // The most severe level of the trace's observations.
  'trace.level': ofTrace(
    "CASE max(CASE x.level WHEN 'ERROR' THEN 3 WHEN 'WARNING' THEN 2 WHEN 'DEFAULT' THEN 1 ELSE 0 END) WHEN 3 THEN 'ERROR' WHEN 2 THEN 'WARNING' WHEN 1 THEN 'DEFAULT' WHEN 0 THEN 'DEBUG' END",
  ),
  'trace.warningCount': levelCount('WARNING'),
  'trace.errorCount': levelCount('ERROR'),
  'trace.defaultCount': levelCount('DEFAULT'),
  'trace.debugCount': levelCount('DEBUG'),
  'trace.inputTokens': ofTrace('total(x.input_tokens)'),
  'trace.outputTokens': ofTrace('total(x.output_tokens)'),
  'trace.totalTokens': ofTrace('sum(x.total_tokens)'),
  // From the first start to the last end (or start), in seconds.
  'trace.latency': ofTrace('(julianday(max(coalesce(x.end_time, x.start_time))) - julianday(min(x.start_time))) * 86400.0'),
  'trace.inputCost': ofTrace('total(x.input_cost)'),
  'trace.outputCost': ofTrace('total(x.output_cost)'),
  'trace.totalCost': ofTrace('sum(x.total_cost)'),
  'trace.scores': { kind: 'scores', sql: 't.id' },
  'trace.scoreCategories': { kind: 'scores', sql: 't.id' },
  'trace.scoreBooleans': { kind: 'scores', sql: 't.id' },
  'observation.id': scalar('o.id'),
  'observation.type': scalar('o.type'),
  'observation.name': scalar('o.name'),
  'observation.traceId': scalar('o.trace_id'),
  'observation.parentObservationId': scalar('o.parent_observation_id'),
  'observation.startTime': scalar('o.start_time'),
  'observation.endTime': scalar('o.end_time'),
  'observation.environment': scalar('o.environment'),
  'observation.level': scalar('o.level'),
  'observation.statusMessage': scalar("json_extract(o.record, '$.statusMessage')"),
  'observation.version': scalar('o.version'),
  'observation.model': scalar('o.provided_model_name'),
  'observation.modelId': scalar('o.internal_model_id'),
  'observation.promptName': scalar('o.prompt_name'),
  'observation.promptVersion': scalar('o.prompt_version'),
  'observation.latency': scalar('o.latency_ms / 1000.0'),
  'observation.timeToFirstToken': scalar('o.time_to_first_token_ms / 1000.0'),
  'observation.tokensPerSecond': scalar('o.output_tokens / (o.latency_ms / 1000.0)'),
  'observation.inputTokens': scalar('o.input_tokens'),
  'observation.outputTokens': scalar('o.output_tokens'),
  'observation.totalTokens': scalar('o.total_tokens'),
  'observation.inputCost': scalar('o.input_cost'),
  'observation.outputCost': scalar('o.output_cost'),
  'observation.totalCost': scalar('o.total_cost'),
  'observation.metadata': { kind: 'object', sql: "json_extract(o.record, '$.metadata')" },
  // Input and output as the service keeps them: the text as sent, JSON text otherwise.
  'observation.input': scalar("CAST(json_extract(o.record, '$.input') AS TEXT)"),
  'observation.output': scalar("CAST(json_extract(o.record, '$.output') AS TEXT)"),
  'observation.hasParentObservation': scalar('o.parent_observation_id IS NOT NULL'),
  'observation.isRoot': scalar('o.parent_observation_id IS NULL'),
  'observation.hasInput': scalar("coalesce(json_extract(o.record, '$.input'), '') <> ''"),
  'observation.hasOutput': scalar("coalesce(json_extract(o.record, '$.output'), '') <> ''"),
  'observation.userId': traceField('tt.user_id'),
  'observation.sessionId': traceField('tt.session_id'),
  'observation.traceName': traceField('tt.name'),
  'observation.traceEnvironment': traceField('tt.environment'),
  'observation.traceTags': { kind: 'array', sql: "(SELECT json_extract(tt.record, '$.tags') FROM traces tt WHERE tt.id = o.trace_id)" },
  'observation.release': traceField('tt.release'),
};

/** A metadata value as the service keeps it: strings as they are, anything else as JSON text. */
const META_TEXT = "CASE m.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null' ELSE CAST(m.value AS TEXT) END";

const COMPARISONS = new Set(['=', '>', '<', '>=', '<=', '<>']);

class Unsupported extends Error {}

function stringCondition(sql: string, operator: string, value: string, params: unknown[]): string {
  switch (operator) {
    case '=':
      params.push(value);
      return `${sql} = ?`;
    case 'contains':
      params.push(value);
      return `instr(${sql}, ?) > 0`;
    case 'does not contain':
      params.push(value);
      return `instr(${sql}, ?) = 0`;
    case 'starts with':
      params.push(value, value);
      return `substr(${sql}, 1, length(?)) = ?`;
    case 'ends with':
      params.push(value, value, value);
      return `length(${sql}) >= length(?) AND substr(${sql}, length(${sql}) - length(?) + 1) = ?`;
    case 'matches':
      // A literal, case-insensitive search (the service runs it on its text indexes).
      params.push(value);
      return `instr(lower(${sql}), lower(?)) > 0`;
  }
  throw new Unsupported();
}

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

function condition(filter: ColumnFilter, params: unknown[]): string {
  const { sql, kind } = EXPRESSIONS[filter.column];
  const { type, operator, value } = filter;
  if (kind === 'scalar') {
    if (type === 'null') return `${sql} ${operator === 'is null' ? 'IS NULL' : 'IS NOT NULL'}`;
    if (type === 'string') return stringCondition(sql, operator, value as string, params);
    if (type === 'stringOptions') {
      params.push(...(value as string[]));
      return `${sql} ${operator === 'none of' ? 'NOT IN' : 'IN'} (${placeholders(value as string[])})`;
    }
    if ((type === 'number' || type === 'datetime') && COMPARISONS.has(operator)) {
      params.push(value);
      return `${sql} ${operator} ?`;
    }
    if (type === 'boolean' && COMPARISONS.has(operator)) {
      params.push(value ? 1 : 0);
      return `${sql} ${operator} ?`;
    }
  }
  if (kind === 'array') {
    const values = value as string[];
    if (type === 'arrayOptions' || type === 'stringOptions') {
      params.push(...values);
      const any = `EXISTS (SELECT 1 FROM json_each(${sql}) a WHERE a.value IN (${placeholders(values)}))`;
      if (operator === 'any of') return any;
      if (operator === 'none of') return `NOT ${any}`;
      if (operator === 'all of') {
        params.push(new Set(values).size);
        return `(SELECT count(DISTINCT a.value) FROM json_each(${sql}) a WHERE a.value IN (${placeholders(values)})) = ?`;
      }
    }
    if (type === 'null') return `coalesce(json_array_length(${sql}), 0) ${operator === 'is null' ? '=' : '>'} 0`;
  }
  if (kind === 'object' && type === 'stringObject') {
    params.push(filter.key);
    const inner = stringCondition(META_TEXT, operator, value as string, params);
    return `EXISTS (SELECT 1 FROM json_each(${sql}) m WHERE m.key = ? AND ${inner})`;
  }
  if (kind === 'scores') {
    const scores = (dataTypes: string) => `FROM scores s WHERE s.trace_id = ${sql} AND s.name = ? AND json_extract(s.record, '$.dataType') IN (${dataTypes})`;
    if (type === 'numberObject' && COMPARISONS.has(operator)) {
      params.push(filter.key, value);
      return `(SELECT avg(json_extract(s.record, '$.value')) ${scores("'NUMERIC', 'BOOLEAN'")}) ${operator} ?`;
    }
    if (type === 'categoryOptions' || (type === 'stringOptions' && filter.key !== undefined)) {
      const values = value as string[];
      params.push(filter.key, ...values);
      const any = `EXISTS (SELECT 1 ${scores("'CATEGORICAL'")} AND json_extract(s.record, '$.stringValue') IN (${placeholders(values)}))`;
      return operator === 'none of' ? `NOT ${any}` : any;
    }
    if (type === 'booleanObject') {
      params.push(filter.key, value ? 1 : 0);
      const has = `EXISTS (SELECT 1 ${scores("'BOOLEAN'")} AND json_extract(s.record, '$.value') = ?)`;
      return operator === '<>' ? `NOT ${has}` : has;
    }
  }
  throw new Unsupported();
}

/**
 * The SQL conditions of the filters (all of them must hold) and their parameters, or the first
 * filter whose type this column does not support (the service's SQL would fail on it).
 */
export function filterConditions(filters: readonly ColumnFilter[]): { where: string[]; params: unknown[] } | { unsupported: ColumnFilter } {
  const where: string[] = [];
  const params: unknown[] = [];
  for (const filter of filters) {
    try {
      where.push(`(${condition(filter, params)})`);
    } catch (error) {
      if (error instanceof Unsupported) return { unsupported: filter };
      throw error;
    }
  }
  return { where, params };
}
