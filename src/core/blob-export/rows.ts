// Observations of the v2 API as rows of Langfuse's observations_v2 export: the snake_case columns
// its events query selects for each field group (packages/shared/.../event-query-builder.ts,
// FIELD_SETS; the model group is its `model_export` set plus the prices the worker adds), and
// times as ClickHouse writes a DateTime64(6) (`YYYY-MM-DD HH:MM:SS.ffffff`, UTC). Latency and
// time to first token are seconds in both. The tools group is not in the v2 API, so it is not here.
import type { FieldGroup, FieldSelection } from '../observations/fields.js';
import { valueAt } from '../observations/fields.js';

/** Each group's columns in Langfuse's order: [export column, v2 API field]. */
export const EXPORT_COLUMNS: Record<FieldGroup, ReadonlyArray<readonly [string, string]>> = {
  core: [['id', 'id'], ['trace_id', 'traceId'], ['start_time', 'startTime'], ['end_time', 'endTime'], ['project_id', 'projectId'], ['parent_observation_id', 'parentObservationId'], ['type', 'type']],
  basic: [['name', 'name'], ['level', 'level'], ['status_message', 'statusMessage'], ['version', 'version'], ['environment', 'environment'], ['bookmarked', 'bookmarked'], ['public', 'public'], ['user_id', 'userId'], ['session_id', 'sessionId'], ['is_root_observation', 'isRootObservation']],
  time: [['completion_start_time', 'completionStartTime'], ['created_at', 'createdAt'], ['updated_at', 'updatedAt']],
  io: [['input', 'input'], ['output', 'output']],
  metadata: [['metadata', 'metadata']],
  model: [['provided_model_name', 'providedModelName'], ['model_id', 'internalModelId'], ['model_parameters', 'modelParameters']],
  usage: [['usage_details', 'usageDetails'], ['cost_details', 'costDetails'], ['total_cost', 'totalCost'], ['usage_pricing_tier_id', 'usagePricingTierId'], ['usage_pricing_tier_name', 'usagePricingTierName']],
  prompt: [['prompt_id', 'promptId'], ['prompt_name', 'promptName'], ['prompt_version', 'promptVersion']],
  metrics: [['latency', 'latency'], ['time_to_first_token', 'timeToFirstToken']],
  trace_context: [['tags', 'tags'], ['release', 'release'], ['trace_name', 'traceName']],
};

/** Added after every group when the model group is exported as text; Langfuse's Parquet files leave them out. */
export const PRICE_COLUMNS: ReadonlyArray<readonly [string, string]> = [['input_price', 'inputPrice'], ['output_price', 'outputPrice'], ['total_price', 'totalPrice']];

const TIME_FIELDS = new Set(['startTime', 'endTime', 'completionStartTime', 'createdAt', 'updatedAt']);

const SNAKE_OF = new Map<string, string>();
for (const pairs of [...Object.values(EXPORT_COLUMNS), PRICE_COLUMNS]) for (const [column, field] of pairs) SNAKE_OF.set(field, column);

export interface ExportColumn {
  /** The column's name in the file. */
  name: string;
  /** Where its value is in a v2 observation (a field or a dotted path). */
  source: string;
  time: boolean;
}

/**
 * The columns of a selection: with no names given, every column of its groups (and the prices
 * with the model group, unless `parquet`); with names, those in their order, each named as its
 * export column (`usageDetails.input` becomes `usage_details.input`).
 */
export function exportColumns(selection: FieldSelection, parquet: boolean): ExportColumn[] {
  const column = (name: string, source: string): ExportColumn => ({ name, source, time: TIME_FIELDS.has(source) });
  if (selection.columns) {
    return selection.columns.map((path) => {
      const [root, ...rest] = path.split('.');
      return column([SNAKE_OF.get(root!) ?? root!, ...rest].join('.'), path);
    });
  }
  const columns = selection.groups.flatMap((group) => EXPORT_COLUMNS[group].map(([name, source]) => column(name, source)));
  if (selection.groups.includes('model') && !parquet) columns.push(...PRICE_COLUMNS.map(([name, source]) => column(name, source)));
  return columns;
}

const ISO_UTC = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$/;

/** An ISO time as ClickHouse writes a DateTime64(6): `2026-05-01 12:00:00.123000`, UTC. Other values pass as they are. */
export function clickhouseTime(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  let match = ISO_UTC.exec(value);
  if (!match) {
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) return value;
    match = ISO_UTC.exec(new Date(ms).toISOString());
    if (!match) return value;
  }
  return `${match[1]} ${match[2]}.${(match[3] ?? '').padEnd(6, '0').slice(0, 6)}`;
}

/** One v2 observation as a row of the export: the columns' values, in order; missing ones null. */
export function exportRow(item: Record<string, unknown>, columns: readonly ExportColumn[]): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const column of columns) {
    const value = valueAt(item, column.source);
    row[column.name] = value === undefined ? null : column.time ? clickhouseTime(value) : value;
  }
  return row;
}

export type ColumnKind = 'time' | 'boolean' | 'double' | 'integer' | 'json' | 'text';

const KINDS: Record<string, ColumnKind> = {
  // Scores: timestamp and value (core/blob-export/scores.ts).
  timestamp: 'time', value: 'double',
  start_time: 'time', end_time: 'time', completion_start_time: 'time', created_at: 'time', updated_at: 'time',
  bookmarked: 'boolean', public: 'boolean', is_root_observation: 'boolean',
  total_cost: 'double', latency: 'double', time_to_first_token: 'double', input_price: 'double', output_price: 'double', total_price: 'double',
  prompt_version: 'integer',
  metadata: 'json', model_parameters: 'json', usage_details: 'json', cost_details: 'json', tags: 'json',
};

/** What a column holds, for a typed format (Parquet): a path into usage or cost details is a number. */
export function columnKind(name: string): ColumnKind {
  if (/^(usage|cost)_details\./.test(name)) return 'double';
  return KINDS[name] ?? 'text';
}
