// An observation's row: its fields once each. The fields that queries filter, sort and aggregate
// on are columns; the rest of the record is one JSON object (`data`) under short keys, without
// what is null or empty. A record reads back as it was put, its fields in the record's own order:
//
// - `projectId` is left out when it is the store's project (a store holds one project);
// - updatedAt is NULL when it equals createdAt (a record written once);
// - a field of ObservationRecord that the record lacks (or holds undefined) is listed under `-`
//   (records of older versions lack some), so it stays absent;
// - fields ObservationRecord does not know are kept in `data` under their own names.
//
// The columns that only queries read (tokens, costs and latencies as the metrics count them, the
// trace id's hash) are computed here from the record; reading never looks at them.
//
// Input, output and metadata, the large parts, are kept as JSON text in columns of their own
// (since version 8; NULL when null or, for metadata, empty), so that the v2 list can send them
// as stored without parsing them. Rows written before keep them in `data`, where they are read
// from while their column is NULL.
import { millisBetween, sumOfKeys } from '../../core/metrics/index.js';
import type { ObservationRecord } from '../records.js';
import { xxHash32 } from './xxhash32.js';

/** The record's fields kept in columns, by column. */
const COLUMN_FIELDS = [
  ['id', 'id'],
  ['trace_id', 'traceId'],
  ['parent_observation_id', 'parentObservationId'],
  ['type', 'type'],
  ['name', 'name'],
  ['environment', 'environment'],
  ['level', 'level'],
  ['version', 'version'],
  ['start_time', 'startTime'],
  ['end_time', 'endTime'],
  ['completion_start_time', 'completionStartTime'],
  ['provided_model_name', 'providedModelName'],
  ['internal_model_id', 'internalModelId'],
  ['prompt_name', 'promptName'],
  ['prompt_version', 'promptVersion'],
  ['total_cost', 'totalCost'],
] as const;

/** The record's large parts kept as JSON text, by column (version 8 on). */
const TEXT_FIELDS = [
  ['input_json', 'input'],
  ['output_json', 'output'],
  ['metadata_json', 'metadata'],
] as const;
export type TextField = (typeof TEXT_FIELDS)[number][1];
const TEXT_COLUMN_OF = new Map<string, string>(TEXT_FIELDS.map(([column, field]) => [field, column]));

/** The columns queries read, derived from the record. */
const DERIVED_COLUMNS = ['input_tokens', 'output_tokens', 'total_tokens', 'input_cost', 'output_cost', 'latency_ms', 'time_to_first_token_ms', 'trace_hash'] as const;

/** The record's fields in `data`: key in data, and what an absent key stands for. */
const DATA_FIELDS: Readonly<Record<string, { key: string; empty: 'null' | 'object' }>> = {
  statusMessage: { key: 's', empty: 'null' },
  input: { key: 'i', empty: 'null' },
  output: { key: 'o', empty: 'null' },
  metadata: { key: 'm', empty: 'object' },
  modelParameters: { key: 'mp', empty: 'null' },
  providedUsageDetails: { key: 'pu', empty: 'object' },
  providedCostDetails: { key: 'pc', empty: 'object' },
  usageDetails: { key: 'u', empty: 'object' },
  costDetails: { key: 'c', empty: 'object' },
  usagePricingTierId: { key: 'ti', empty: 'null' },
  usagePricingTierName: { key: 'tn', empty: 'null' },
  promptId: { key: 'pi', empty: 'null' },
};

/** ObservationRecord's fields in its order (buildObservation's), for reading a record back. */
const RECORD_ORDER: readonly (keyof ObservationRecord)[] = [
  'id',
  'projectId',
  'traceId',
  'parentObservationId',
  'type',
  'name',
  'environment',
  'startTime',
  'endTime',
  'completionStartTime',
  'level',
  'statusMessage',
  'version',
  'input',
  'output',
  'metadata',
  'providedModelName',
  'internalModelId',
  'modelParameters',
  'providedUsageDetails',
  'providedCostDetails',
  'usageDetails',
  'costDetails',
  'totalCost',
  'usagePricingTierId',
  'usagePricingTierName',
  'promptId',
  'promptName',
  'promptVersion',
  'createdAt',
  'updatedAt',
];

const COLUMN_OF = new Map<string, string>(COLUMN_FIELDS.map(([column, field]) => [field, column]));
const DATA_KEY_FIELD = new Map(Object.entries(DATA_FIELDS).map(([field, { key }]) => [key, field]));
const ABSENT = '-';
const PROJECT = 'p';

/** The columns of a row, in the order `observationParams` gives their values. */
export const OBSERVATION_COLUMNS: readonly string[] = [...COLUMN_FIELDS.map(([column]) => column), ...DERIVED_COLUMNS, 'created_at', 'updated_at', 'data', ...TEXT_FIELDS.map(([column]) => column)];

const SELECT_COLUMNS = [...COLUMN_FIELDS.map(([column]) => column), 'created_at', 'updated_at', 'data', ...TEXT_FIELDS.map(([column]) => column)];

/** What a SELECT reads to make a record back (`observationFromRow`), under the alias `o`. */
export const OBSERVATION_SELECT = SELECT_COLUMNS.map((column) => `o.${column}`).join(', ');

/** Which of input, output and metadata a read of texts gives (`observationTextsSelect`). */
export type TextPick = ReadonlySet<TextField>;

/** Every one of input, output and metadata. */
export const ALL_TEXTS: TextPick = new Set(TEXT_FIELDS.map(([, field]) => field));

/**
 * `OBSERVATION_SELECT` without the text columns that `pick` leaves out (NULL in their place, so
 * that every column keeps its position): a page that does not send them does not read them.
 */
export function observationTextsSelect(pick: TextPick): string {
  return SELECT_COLUMNS.map((column) => (TEXT_FIELDS.some(([c, field]) => c === column && !pick.has(field)) ? 'NULL' : `o.${column}`)).join(', ');
}

/** The bytes of a row's JSON texts that `pick` reads, from the row's header (SQLite does not read the texts for it). */
export function textsSize(pick: TextPick): string {
  return ['octet_length(o.data)', ...TEXT_FIELDS.filter(([, field]) => pick.has(field)).map(([column]) => `ifnull(octet_length(o.${column}), 0)`)].join(' + ');
}

/** A row as `OBSERVATION_SELECT` reads it. */
export type ObservationRow = Record<string, unknown>;

/** A row as `OBSERVATION_SELECT` reads it in raw mode: its values in the SELECT's order. */
export type ObservationValues = readonly unknown[];

const isEmptyObject = (value: unknown): boolean => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;

/**
 * The values of `OBSERVATION_COLUMNS` for a record. `columns` gives what a column holds for a
 * field the record lacks (a row of an older version migrated); null otherwise.
 */
export function observationParams(record: ObservationRecord, projectId: string | undefined, columns?: Readonly<Record<string, unknown>>): unknown[] {
  const fields = record as unknown as Record<string, unknown>;
  const params: unknown[] = [];
  for (const [column, field] of COLUMN_FIELDS) params.push(fields[field] !== undefined ? fields[field] : (columns?.[column] ?? null));
  const usage = record.usageDetails;
  const cost = record.costDetails;
  params.push(
    sumOfKeys(usage, 'input'),
    sumOfKeys(usage, 'output'),
    usage?.total ?? 0,
    sumOfKeys(cost, 'input'),
    sumOfKeys(cost, 'output'),
    millisBetween(record.startTime, record.endTime),
    millisBetween(record.startTime, record.completionStartTime),
    xxHash32(record.traceId ?? ''),
  );
  const createdAt = record.createdAt !== undefined ? record.createdAt : (columns?.['created_at'] ?? null);
  const updatedAt = record.updatedAt !== undefined ? record.updatedAt : (columns?.['updated_at'] ?? null);
  params.push(createdAt, updatedAt === createdAt ? null : updatedAt, observationData(fields, projectId));
  for (const [, field] of TEXT_FIELDS) {
    const value = fields[field];
    const empty = value === null || value === undefined || (field === 'metadata' && isEmptyObject(value));
    params.push(empty ? null : JSON.stringify(value));
  }
  return params;
}

/** The `data` JSON of a record: what no column holds. */
function observationData(fields: Record<string, unknown>, projectId: string | undefined): string {
  const data: Record<string, unknown> = {};
  const absent: string[] = [];
  for (const field of RECORD_ORDER) if (fields[field] === undefined) absent.push(field);
  if (absent.length > 0) data[ABSENT] = absent;
  if (fields['projectId'] !== undefined && fields['projectId'] !== projectId) data[PROJECT] = fields['projectId'];
  for (const field of Object.keys(fields)) {
    const value = fields[field];
    const known = DATA_FIELDS[field];
    if (value === undefined || TEXT_COLUMN_OF.has(field)) continue;
    if (known) {
      if (value === null || (known.empty === 'object' && isEmptyObject(value))) continue;
      data[known.key] = value;
    } else if (!COLUMN_OF.has(field) && field !== 'projectId' && field !== 'createdAt' && field !== 'updatedAt') {
      data[field] = value;
    }
  }
  return JSON.stringify(data);
}

/** The record of a row read with `OBSERVATION_SELECT`. */
export function observationFromRow(row: ObservationRow, projectId: string | undefined): ObservationRecord {
  return recordOf(SELECT_COLUMNS.map((column) => row[column]), projectId, undefined);
}

/**
 * JSON text of input, output and metadata as stored: null when the record holds null (metadata:
 * `{}` when empty), undefined when it lacks the field.
 */
export type ObservationTexts = Record<TextField, string | null | undefined>;

/**
 * The record of a row read with `observationTextsSelect(pick)` (in raw mode) without its input,
 * output and metadata, and those of them `pick` holds as JSON text: a row written since version 8
 * gives its columns' text unparsed. The others are undefined, as a record that lacks them.
 */
export function observationTextsFromValues(values: ObservationValues, projectId: string | undefined, pick: TextPick = ALL_TEXTS): { record: ObservationRecord; texts: ObservationTexts } {
  const texts: ObservationTexts = { input: undefined, output: undefined, metadata: undefined };
  return { record: recordOf(values, projectId, texts, pick), texts };
}

/** Where each column is in a row's values. */
const AT = Object.fromEntries(SELECT_COLUMNS.map((column, i) => [column, i])) as Record<string, number>;
const DATA = AT['data']!;

/** A field kept in `data`, or what its absent key stands for. */
function fromData(data: Record<string, unknown>, field: string): unknown {
  const { key, empty } = DATA_FIELDS[field]!;
  return key in data ? data[key] : empty === 'null' ? null : {};
}

/** Input, output or metadata: its column's JSON text, or (a row written before version 8) its value in `data`. */
function large(values: ObservationValues, data: Record<string, unknown>, field: TextField, texts: ObservationTexts | undefined, pick: TextPick): unknown {
  const text = values[AT[TEXT_COLUMN_OF.get(field)!]!] as string | null;
  if (texts === undefined) return text !== null ? JSON.parse(text) : fromData(data, field);
  if (!pick.has(field)) return undefined;
  if (text !== null) texts[field] = text;
  else {
    const value = fromData(data, field);
    texts[field] = value === null ? null : JSON.stringify(value);
  }
  return undefined;
}

/**
 * The record of a row's values; with `texts`, its large parts go there as JSON text instead (and
 * are undefined in the record). One object literal in RECORD_ORDER: a record of every field
 * takes one shape, made at once.
 */
function recordOf(values: ObservationValues, projectId: string | undefined, texts: ObservationTexts | undefined, pick: TextPick = ALL_TEXTS): ObservationRecord {
  const data = JSON.parse(values[DATA] as string) as Record<string, unknown>;
  const absent = data[ABSENT] as string[] | undefined;
  const column = (name: string) => values[AT[name]!] ?? null;
  const record: Record<string, unknown> = {
    id: column('id'),
    projectId: PROJECT in data ? data[PROJECT] : projectId,
    traceId: column('trace_id'),
    parentObservationId: column('parent_observation_id'),
    type: column('type'),
    name: column('name'),
    environment: column('environment'),
    startTime: column('start_time'),
    endTime: column('end_time'),
    completionStartTime: column('completion_start_time'),
    level: column('level'),
    statusMessage: fromData(data, 'statusMessage'),
    version: column('version'),
    input: absent?.includes('input') ? undefined : large(values, data, 'input', texts, pick),
    output: absent?.includes('output') ? undefined : large(values, data, 'output', texts, pick),
    metadata: absent?.includes('metadata') ? undefined : large(values, data, 'metadata', texts, pick),
    providedModelName: column('provided_model_name'),
    internalModelId: column('internal_model_id'),
    modelParameters: fromData(data, 'modelParameters'),
    providedUsageDetails: fromData(data, 'providedUsageDetails'),
    providedCostDetails: fromData(data, 'providedCostDetails'),
    usageDetails: fromData(data, 'usageDetails'),
    costDetails: fromData(data, 'costDetails'),
    totalCost: column('total_cost'),
    usagePricingTierId: fromData(data, 'usagePricingTierId'),
    usagePricingTierName: fromData(data, 'usagePricingTierName'),
    promptId: fromData(data, 'promptId'),
    promptName: column('prompt_name'),
    promptVersion: column('prompt_version'),
    createdAt: values[AT['created_at']!],
    updatedAt: values[AT['updated_at']!] ?? values[AT['created_at']!],
  };
  if (absent !== undefined) for (const field of absent) delete record[field];
  for (const key of Object.keys(data)) {
    if (key !== ABSENT && key !== PROJECT && !DATA_KEY_FIELD.has(key)) record[key] = data[key];
  }
  return record as unknown as ObservationRecord;
}

/**
 * SQL of a field kept in `data` or (input, output, metadata) in its own column, as json_extract
 * reads it from `data`, for filters (`o` is the row).
 */
export const dataField = (field: 'statusMessage' | 'input' | 'output' | 'metadata'): string => {
  const fromData = `json_extract(o.data, '$.${DATA_FIELDS[field]!.key}')`;
  const column = TEXT_COLUMN_OF.get(field);
  return column === undefined ? fromData : `coalesce(json_extract(o.${column}, '$'), ${fromData})`;
};
