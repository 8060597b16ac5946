// The columns the read API's `filter` parameter can name, as SQL over the stored traces (alias t)
// and observations (alias o), with what the service's ClickHouse columns hold: metadata values as
// the strings the service keeps them as, tags as arrays, and the aggregates a trace list filters
// on (its observations' levels, tokens, costs and latency, its scores) computed from what is
// stored. How a filter compares a column is the WHERE builder's (where.ts).
//
// A trace's aggregates read `trace_observations` and `trace_scores`, which the traces list defines
// (store/traces.ts): the rows the service aggregates, those of the environments the list filters on.

import { dataField } from './observation-row.js';

/** What a column is, for the filter types it takes. */
export type ColumnKind = 'scalar' | 'array' | 'object' | 'scores';

export interface FilterColumn {
  kind: ColumnKind;
  sql: string;
}

const scalar = (sql: string): FilterColumn => ({ kind: 'scalar', sql });
const ofTrace = (aggregate: string, where = '') => scalar(`(SELECT ${aggregate} FROM trace_observations x WHERE x.trace_id = t.id${where})`);
const traceField = (column: string) => scalar(`(SELECT ${column} FROM traces tt WHERE tt.id = o.trace_id)`);
const levelCount = (level: string) => ofTrace('count(*)', ` AND x.level = '${level}'`);

/** Every column a filter can name (the handlers map the service's column names onto these). */
export const FILTER_COLUMNS = {
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
  'observation.statusMessage': scalar(dataField('statusMessage')),
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
  'observation.metadata': { kind: 'object', sql: dataField('metadata') },
  // Input and output as the service keeps them: the text as sent, JSON text otherwise.
  'observation.input': scalar(`CAST(${dataField('input')} AS TEXT)`),
  'observation.output': scalar(`CAST(${dataField('output')} AS TEXT)`),
  'observation.hasParentObservation': scalar('o.parent_observation_id IS NOT NULL'),
  'observation.isRoot': scalar('o.parent_observation_id IS NULL'),
  'observation.hasInput': scalar(`coalesce(${dataField('input')}, '') <> ''`),
  'observation.hasOutput': scalar(`coalesce(${dataField('output')}, '') <> ''`),
  'observation.userId': traceField('tt.user_id'),
  'observation.sessionId': traceField('tt.session_id'),
  'observation.traceName': traceField('tt.name'),
  'observation.traceEnvironment': traceField('tt.environment'),
  'observation.traceTags': { kind: 'array', sql: "(SELECT json_extract(tt.record, '$.tags') FROM traces tt WHERE tt.id = o.trace_id)" },
  'observation.release': traceField('tt.release'),
} as const satisfies Record<string, FilterColumn>;

export type FilterColumnKey = keyof typeof FILTER_COLUMNS;

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
