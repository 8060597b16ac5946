// The read API's `filter` query parameter: a JSON array of filter objects that the traces list,
// the v1 and v2 observation lists take besides (and ahead of) their simple parameters. Parsed and
// checked as the service does (the filter objects of src/core/filters.ts, `optionalJsonParam`,
// and the public API filter builder `deriveFilters`): columns named by the id or the name of the
// service's table columns, the same messages. What a filter means is the store's
// (src/server/store/where.ts).
import { z } from 'zod';
import { type SingleFilter, singleFilter } from '../../core/filters.js';
import { invalidRequest } from '../http/errors.js';
import { type ColumnFilter, type FilterColumnKey, filterConditions } from '../store/index.js';

/** `filter=` as JSON text, parsed; bad JSON is a 400 of its own, as on the service. */
export const FILTER_JSON = z
  .string()
  .optional()
  .transform((text) => {
    if (!text) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw invalidRequest('Invalid JSON in filter parameter');
    }
  });

/** `filter=`: JSON text of an array of filters. */
function filterParam(matches: boolean) {
  return FILTER_JSON.pipe(z.array(singleFilter(matches)).optional());
}

/** The filter parameter of the traces list and the v1 observations list. */
export const FILTER_PARAM = filterParam(false);
/** The v2 observations list's: `string` and `stringObject` filters also take `matches`. */
export const EVENTS_FILTER_PARAM = filterParam(true);

type ColumnType = 'string' | 'stringOptions' | 'arrayOptions' | 'datetime' | 'number' | 'boolean' | 'stringObject' | 'numberObject' | 'booleanObject' | 'categoryOptions';

// The filter types each column type takes (filterTypeCompatibility.ts).
const COMPATIBLE: Record<ColumnType, readonly string[]> = {
  string: ['string', 'stringOptions'],
  stringOptions: ['string', 'stringOptions'],
  arrayOptions: ['arrayOptions', 'stringOptions'],
  datetime: ['datetime'],
  number: ['number'],
  boolean: ['boolean'],
  stringObject: ['stringObject'],
  numberObject: ['numberObject'],
  booleanObject: ['booleanObject'],
  categoryOptions: ['categoryOptions', 'stringOptions'],
};

/**
 * One column a filter may name: the service's id and display name (and aliases), what it is in
 * the store, and its type where the service's table definitions give one (the type check then
 * applies, as there).
 */
interface Column {
  names: readonly string[];
  key: FilterColumnKey;
  type?: ColumnType;
}

const col = (key: FilterColumnKey, names: readonly string[], type?: ColumnType): Column => ({ key, names, type });

// tracesTableUiColumnDefinitions, with the types of tracesTableCols (matched by id).
const TRACE_COLUMNS: readonly Column[] = [
  col('trace.bookmarked', ['bookmarked', '⭐️'], 'boolean'),
  col('trace.level', ['level', 'Level'], 'stringOptions'),
  col('trace.id', ['id', 'ID'], 'string'),
  col('trace.id', ['traceId', 'Trace ID']),
  col('trace.name', ['name', 'Name']),
  col('trace.name', ['traceName', 'Trace Name'], 'stringOptions'),
  col('trace.timestamp', ['timestamp', 'Timestamp'], 'datetime'),
  col('trace.userId', ['userId', 'User ID'], 'string'),
  col('trace.sessionId', ['sessionId', 'Session ID'], 'string'),
  col('trace.metadata', ['metadata', 'Metadata'], 'stringObject'),
  col('trace.version', ['version', 'Version'], 'string'),
  col('trace.release', ['release', 'Release'], 'string'),
  col('trace.environment', ['environment', 'Environment'], 'stringOptions'),
  col('trace.tags', ['tags', 'Tags']),
  col('trace.tags', ['traceTags', 'Trace Tags'], 'arrayOptions'),
  col('trace.warningCount', ['warningCount', 'Warning Level Count'], 'number'),
  col('trace.errorCount', ['errorCount', 'Error Level Count'], 'number'),
  col('trace.defaultCount', ['defaultCount', 'Default Level Count'], 'number'),
  col('trace.debugCount', ['debugCount', 'Debug Level Count'], 'number'),
  col('trace.inputTokens', ['inputTokens', 'Input Tokens'], 'number'),
  col('trace.outputTokens', ['outputTokens', 'Output Tokens'], 'number'),
  col('trace.totalTokens', ['totalTokens', 'Total Tokens'], 'number'),
  col('trace.totalTokens', ['tokens', 'Tokens'], 'number'),
  col('trace.scores', ['scores', 'Scores']),
  col('trace.scores', ['scores_avg', 'Scores (numeric)'], 'numberObject'),
  col('trace.scoreCategories', ['score_categories', 'Scores (categorical)'], 'categoryOptions'),
  col('trace.scoreBooleans', ['score_booleans', 'Scores (boolean)'], 'booleanObject'),
  col('trace.latency', ['latency', 'Latency (s)'], 'number'),
  col('trace.inputCost', ['inputCost', 'Input Cost ($)'], 'number'),
  col('trace.outputCost', ['outputCost', 'Output Cost ($)'], 'number'),
  col('trace.totalCost', ['totalCost', 'Total Cost ($)'], 'number'),
];

// observationsTableUiColumnDefinitions without the score columns (the v1 list drops them), with
// the types of observationsTableCols.
const OBSERVATION_COLUMNS: readonly Column[] = [
  col('observation.traceTags', ['traceTags', 'Trace Tags']),
  col('observation.userId', ['userId', 'User ID'], 'string'),
  col('observation.sessionId', ['sessionId', 'Session ID']),
  col('observation.traceName', ['traceName', 'Trace Name'], 'stringOptions'),
  col('observation.traceEnvironment', ['traceEnvironment', 'Trace Environment']),
  col('observation.environment', ['environment', 'Environment'], 'stringOptions'),
  col('observation.type', ['type', 'Type'], 'stringOptions'),
  col('observation.id', ['id', 'ID'], 'stringOptions'),
  col('observation.name', ['name', 'Name'], 'stringOptions'),
  col('observation.traceId', ['traceId', 'Trace ID'], 'string'),
  col('observation.parentObservationId', ['parentObservationId', 'Parent Observation ID'], 'string'),
  col('observation.startTime', ['startTime', 'Start Time'], 'datetime'),
  col('observation.endTime', ['endTime', 'End Time'], 'datetime'),
  col('observation.timeToFirstToken', ['timeToFirstToken', 'Time To First Token (s)'], 'number'),
  col('observation.latency', ['latency', 'Latency (s)'], 'number'),
  col('observation.tokensPerSecond', ['tokensPerSecond', 'Tokens per second'], 'number'),
  col('observation.inputCost', ['inputCost', 'Input Cost ($)'], 'number'),
  col('observation.outputCost', ['outputCost', 'Output Cost ($)'], 'number'),
  col('observation.totalCost', ['totalCost', 'Total Cost ($)'], 'number'),
  col('observation.level', ['level', 'Level'], 'stringOptions'),
  col('observation.statusMessage', ['statusMessage', 'Status Message'], 'string'),
  col('observation.model', ['model', 'Model'], 'stringOptions'),
  col('observation.modelId', ['modelId', 'Model ID'], 'stringOptions'),
  col('observation.inputTokens', ['inputTokens', 'Input Tokens'], 'number'),
  col('observation.outputTokens', ['outputTokens', 'Output Tokens'], 'number'),
  col('observation.totalTokens', ['totalTokens', 'Total Tokens'], 'number'),
  col('observation.totalTokens', ['tokens', 'Tokens'], 'number'),
  col('observation.metadata', ['metadata', 'Metadata'], 'stringObject'),
  col('observation.version', ['version', 'Version'], 'string'),
  col('observation.promptName', ['promptName', 'Prompt Name'], 'stringOptions'),
  col('observation.promptVersion', ['promptVersion', 'Prompt Version'], 'number'),
];

// eventsTableNativeUiColumnDefinitions (the v2 list), with the types of eventsTableCols.
const EVENT_COLUMNS: readonly Column[] = [
  col('observation.environment', ['environment', 'Environment'], 'stringOptions'),
  col('observation.type', ['type', 'Type'], 'stringOptions'),
  col('observation.id', ['id', 'ID'], 'stringOptions'),
  col('observation.name', ['name', 'Name'], 'stringOptions'),
  col('observation.traceId', ['traceId', 'Trace ID'], 'string'),
  col('observation.startTime', ['startTime', 'Start Time'], 'datetime'),
  col('observation.endTime', ['endTime', 'End Time'], 'datetime'),
  col('observation.timeToFirstToken', ['timeToFirstToken', 'Time To First Token (s)'], 'number'),
  col('observation.latency', ['latency', 'Latency (s)'], 'number'),
  col('observation.tokensPerSecond', ['tokensPerSecond', 'Tokens per second'], 'number'),
  col('observation.inputCost', ['inputCost', 'Input Cost ($)'], 'number'),
  col('observation.outputCost', ['outputCost', 'Output Cost ($)'], 'number'),
  col('observation.totalCost', ['totalCost', 'Total Cost ($)'], 'number'),
  col('observation.level', ['level', 'Level'], 'stringOptions'),
  col('observation.statusMessage', ['statusMessage', 'Status Message'], 'string'),
  col('observation.model', ['model', 'Model']),
  col('observation.model', ['providedModelName', 'Provided Model Name'], 'stringOptions'),
  col('observation.modelId', ['modelId', 'Model ID'], 'stringOptions'),
  col('observation.inputTokens', ['inputTokens', 'Input Tokens'], 'number'),
  col('observation.outputTokens', ['outputTokens', 'Output Tokens'], 'number'),
  col('observation.totalTokens', ['totalTokens', 'Total Tokens'], 'number'),
  col('observation.totalTokens', ['tokens', 'Tokens']),
  col('observation.metadata', ['metadata', 'Metadata'], 'stringObject'),
  col('observation.version', ['version', 'Version'], 'string'),
  col('observation.release', ['release', 'Release'], 'string'),
  col('observation.promptName', ['promptName', 'Prompt Name'], 'stringOptions'),
  col('observation.promptVersion', ['promptVersion', 'Prompt Version'], 'number'),
  col('observation.input', ['input', 'Input'], 'string'),
  col('observation.output', ['output', 'Output'], 'string'),
  col('observation.sessionId', ['sessionId', 'Session ID'], 'string'),
  col('observation.traceName', ['traceName', 'Trace Name'], 'stringOptions'),
  col('observation.userId', ['userId', 'User ID'], 'string'),
  col('observation.traceTags', ['traceTags', 'Trace Tags'], 'arrayOptions'),
  col('observation.traceTags', ['tags', 'Tags']),
  col('observation.environment', ['traceEnvironment', 'Trace Environment']),
  col('observation.hasParentObservation', ['hasParentObservation', 'Has Parent Observation'], 'boolean'),
  col('observation.isRoot', ['isRootObservation', 'Is Root Observation'], 'boolean'),
  col('observation.hasInput', ['hasInput', 'Has Input'], 'boolean'),
  col('observation.hasOutput', ['hasOutput', 'Has Output'], 'boolean'),
  col('observation.parentObservationId', ['parentObservationId', 'Parent Observation ID']),
];

// Columns of the service that this server does not keep (ingestion keys and SDKs, experiments,
// tools, comments, evaluator ids): a filter on them is refused rather than answered wrongly.
const NOT_KEPT = new Set([
  'ingestionApiKey', 'API Key', 'ingestionSdkName', 'SDK Name', 'ingestionSdkVersion', 'SDK Version', 'ingestionSource', 'Ingestion Source',
  'evaluatorId', 'Evaluator ID', 'ruleId', 'Rule ID', 'experimentDatasetId', 'experimentId', 'experimentName', 'isExperimentItemRootSpan',
  'toolDefinitions', 'toolCalls', 'toolNames', 'calledToolNames', 'Available Tools', 'Tool Calls', 'Tool Names', 'Called Tool Names',
  'commentCount', 'commentContent', 'Comment Count', 'Comment Content',
]);

export type FilterTable = 'traces' | 'observations' | 'events';

const COLUMNS: Record<FilterTable, readonly Column[]> = { traces: TRACE_COLUMNS, observations: OBSERVATION_COLUMNS, events: EVENT_COLUMNS };

// A legacy `scores` column resolves by the filter's type (resolveLegacyScoreFilterColumn).
const LEGACY_SCORE_COLUMNS: Record<string, string> = { categoryOptions: 'score_categories', numberObject: 'scores_avg', booleanObject: 'score_booleans' };

/**
 * The filters as the store applies them; positionInTrace filters are dropped, as the service drops
 * them here. `unindexedIo`: the events columns take input/output filters without the v2 list's
 * rules (the v1 list on the events table, allowUnindexedIoFilters).
 */
export function resolveFilters(filters: readonly SingleFilter[] | undefined, table: FilterTable, { unindexedIo = false } = {}): ColumnFilter[] {
  const resolved: ColumnFilter[] = [];
  for (const filter of filters ?? []) {
    if (filter.type === 'positionInTrace') continue;
    let name = filter.column;
    if (table === 'traces' && name.toLowerCase() === 'scores') {
      const typed = LEGACY_SCORE_COLUMNS[filter.type];
      if (!typed) {
        throw invalidRequest(`Invalid filter type '${filter.type}' for legacy score column '${filter.column}'. Expected one of 'categoryOptions', 'numberObject', or 'booleanObject'.`);
      }
      name = typed;
    }
    const column = COLUMNS[table].find((c) => c.names.includes(name));
    if (!column) {
      if (NOT_KEPT.has(name)) throw invalidRequest(`Column ${name} is not kept by llmobs server, so it cannot be filtered on here.`);
      throw invalidRequest(`Column ${name} does not match a UI / CH table mapping.`);
    }
    if (column.type && filter.type !== 'null' && !COMPATIBLE[column.type].includes(filter.type)) {
      throw invalidRequest(`Invalid filter type '${filter.type}' for column '${filter.column}'. Expected filter type '${column.type}'.`);
    }
    if (filter.type === 'string' || filter.type === 'stringObject') checkMatches(filter, column.key);
    const value = filter.type === 'datetime' ? filter.value.toISOString() : filter.value;
    resolved.push({ column: column.key, type: filter.type, operator: filter.operator, value, ...('key' in filter ? { key: filter.key } : {}) });
  }
  if (table === 'events' && !unindexedIo) checkInputOutputFilters(resolved);
  const sql = filterConditions(resolved);
  if ('unsupported' in sql) {
    const { type, operator, column } = sql.unsupported;
    const named = filters!.find((f) => f.type === type && f.operator === operator)?.column ?? column;
    throw invalidRequest(`A ${type} filter with operator "${operator}" cannot be applied to column '${named}'.`);
  }
  return resolved;
}

/**
 * `matches` searches the service's text indexes, which input, output and metadata have: the value
 * needs a letter or a digit to search for (clickhouse-sql/fts.ts assertValidFtsMatchFilter).
 */
function checkMatches(filter: { type: string; operator: string; value: string }, column: FilterColumnKey): void {
  if (filter.operator !== 'matches') return;
  if (!/[\p{L}\p{N}]/u.test(filter.value)) throw invalidRequest('`matches` requires at least one search token.');
  const text = filter.type === 'string' && (column === 'observation.input' || column === 'observation.output');
  const metadata = filter.type === 'stringObject' && column === 'observation.metadata';
  if (!text && !metadata) throw invalidRequest('`matches` is only supported for input, output, and metadata filters.');
}

/** The v2 list's rules for input and output: string filters only, and at least one `=` or `matches`. */
function checkInputOutputFilters(filters: readonly ColumnFilter[]): void {
  const io = filters.filter((f) => f.column === 'observation.input' || f.column === 'observation.output');
  if (io.length === 0) return;
  if (io.some((f) => f.type !== 'string')) throw invalidRequest('Input/output filters only support filter type `string`.');
  if (!io.some((f) => f.operator === '=' || f.operator === 'matches')) throw invalidRequest('Input/output filters require at least one `matches` or `=` operator.');
}

/** Whether an advanced filter targets this column: the simple parameter on it then gives way. */
export function targets(filters: readonly ColumnFilter[], ...columns: FilterColumnKey[]): boolean {
  return filters.some((f) => columns.includes(f.column));
}
