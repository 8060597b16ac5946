// The one WHERE builder of the stored traffic. A store describes its filter object as data: for
// each field, the SQL expression it names and how the value compares with it (a FilterSpec).
// `where()` writes the conditions of a filter object from that description, then the read API's
// `filter` parameter (columns in filter-columns.ts) through the same comparisons. Values are
// always parameters, never SQL text.
//
// The `filter` parameter means what the service's ClickHouse filters mean (clickhouse-filter.ts):
// string operators on the text as stored and case-sensitive, metadata values compared as the
// strings the service keeps them as, tags by set operations. A NULL value (a field never set)
// matches no comparison.
import { type ColumnFilter, FILTER_COLUMNS } from './filter-columns.js';

/**
 * How a field's value meets its column: `=`, `>=`, `<` and `<=` compare one value; `in` takes a
 * list (the column is one of them); `has all` takes a list that a JSON array column must hold
 * whole; `is null` takes a boolean (true: no value). An empty list filters nothing.
 */
export type Comparison = '=' | '>=' | '<' | '<=' | 'in' | 'has all' | 'is null';

export interface FieldSpec {
  /** The SQL expression the field names. */
  sql: string;
  compare: Comparison;
  /** The field belongs to another table's rows: `key IN (SELECT id FROM table WHERE <condition>)`. */
  through?: { key: string; table: string };
}

/** A description of every field of a filter object but `advanced` (the `filter` parameter's filters). */
export type FilterSpec<F> = { readonly [K in Exclude<keyof F, 'advanced'>]-?: FieldSpec };

/** SQL text and its parameters, in order. */
export interface Sql {
  sql: string;
  params: unknown[];
}

/** A filter of the `filter` parameter that the column it names cannot take. */
export class UnsupportedFilterError extends Error {
  constructor(readonly filter: ColumnFilter) {
    super(`a ${filter.type} filter with operator "${filter.operator}" cannot be applied to this column`);
    this.name = 'UnsupportedFilterError';
  }
}

const placeholders = (values: readonly unknown[]) => values.map(() => '?').join(', ');

function compare(sql: string, operator: string, value: unknown, params: unknown[]): string {
  params.push(value);
  return `${sql} ${operator} ?`;
}

function oneOf(sql: string, values: readonly unknown[], params: unknown[], negate = false): string {
  params.push(...values);
  return `${sql} ${negate ? 'NOT IN' : 'IN'} (${placeholders(values)})`;
}

const isNull = (sql: string, yes: boolean) => `${sql} ${yes ? 'IS NULL' : 'IS NOT NULL'}`;

function anyInArray(array: string, values: readonly unknown[], params: unknown[]): string {
  params.push(...values);
  return `EXISTS (SELECT 1 FROM json_each(${array}) a WHERE a.value IN (${placeholders(values)}))`;
}

function allInArray(array: string, values: readonly unknown[], params: unknown[]): string {
  params.push(...values, new Set(values).size);
  return `(SELECT count(DISTINCT a.value) FROM json_each(${array}) a WHERE a.value IN (${placeholders(values)})) = ?`;
}

/** The condition of one field, or null when its value filters nothing (an empty list). */
function fieldCondition(spec: FieldSpec, value: unknown, params: unknown[]): string | null {
  const list = Array.isArray(value) ? (value as readonly unknown[]) : null;
  if (list && list.length === 0) return null;
  let condition: string;
  switch (spec.compare) {
    case 'in':
      condition = oneOf(spec.sql, list ?? [value], params);
      break;
    case 'has all':
      condition = allInArray(spec.sql, list ?? [value], params);
      break;
    case 'is null':
      condition = isNull(spec.sql, Boolean(value));
      break;
    default:
      condition = compare(spec.sql, spec.compare, value, params);
  }
  return spec.through ? `${spec.through.key} IN (SELECT id FROM ${spec.through.table} WHERE ${condition})` : condition;
}

/**
 * The WHERE clause of a filter object ('' when nothing filters): a condition for each field
 * given (undefined: not filtered), then its `advanced` filters, then the `extra` conditions (a
 * page cursor). Throws UnsupportedFilterError for an advanced filter its column cannot take.
 */
export function where<F extends object>(spec: FilterSpec<F>, filter: F, ...extra: Sql[]): Sql {
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const field of Object.keys(spec) as Array<keyof typeof spec>) {
    const value = filter[field];
    if (value === undefined) continue;
    const condition = fieldCondition(spec[field], value, params);
    if (condition !== null) conditions.push(condition);
  }
  const { advanced: filters } = filter as { advanced?: readonly ColumnFilter[] };
  if (filters?.length) {
    const advanced = filterConditions(filters);
    if ('unsupported' in advanced) throw new UnsupportedFilterError(advanced.unsupported);
    conditions.push(...advanced.where);
    params.push(...advanced.params);
  }
  for (const condition of extra) {
    conditions.push(condition.sql);
    params.push(...condition.params);
  }
  return { sql: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}

/** A metadata value as the service keeps it: strings as they are, anything else as JSON text. */
const META_TEXT = "CASE m.type WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' WHEN 'null' THEN 'null' ELSE CAST(m.value AS TEXT) END";

const COMPARISONS = new Set(['=', '>', '<', '>=', '<=', '<>']);

class Unsupported extends Error {}

function stringCondition(sql: string, operator: string, value: string, params: unknown[]): string {
  switch (operator) {
    case '=':
      return compare(sql, '=', value, params);
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

function columnCondition(filter: ColumnFilter, params: unknown[]): string {
  const { sql, kind } = FILTER_COLUMNS[filter.column];
  const { type, operator, value } = filter;
  if (kind === 'scalar') {
    if (type === 'null') return isNull(sql, operator === 'is null');
    if (type === 'string') return stringCondition(sql, operator, value as string, params);
    if (type === 'stringOptions') return oneOf(sql, value as string[], params, operator === 'none of');
    if ((type === 'number' || type === 'datetime') && COMPARISONS.has(operator)) return compare(sql, operator, value, params);
    if (type === 'boolean' && COMPARISONS.has(operator)) return compare(sql, operator, value ? 1 : 0, params);
  }
  if (kind === 'array') {
    const values = value as string[];
    if (type === 'arrayOptions' || type === 'stringOptions') {
      if (operator === 'any of') return anyInArray(sql, values, params);
      if (operator === 'none of') return `NOT ${anyInArray(sql, values, params)}`;
      if (operator === 'all of') return allInArray(sql, values, params);
    }
    if (type === 'null') return `coalesce(json_array_length(${sql}), 0) ${operator === 'is null' ? '=' : '>'} 0`;
  }
  if (kind === 'object' && type === 'stringObject') {
    params.push(filter.key);
    const inner = stringCondition(META_TEXT, operator, value as string, params);
    return `EXISTS (SELECT 1 FROM json_each(${sql}) m WHERE m.key = ? AND ${inner})`;
  }
  if (kind === 'scores') {
    const scores = (dataTypes: string) => `FROM trace_scores s WHERE s.trace_id = ${sql} AND s.name = ? AND json_extract(s.record, '$.dataType') IN (${dataTypes})`;
    if (type === 'numberObject' && COMPARISONS.has(operator)) {
      params.push(filter.key, value);
      return `(SELECT avg(json_extract(s.record, '$.value')) ${scores("'NUMERIC', 'BOOLEAN'")}) ${operator} ?`;
    }
    if (type === 'categoryOptions') {
      const values = value as string[];
      params.push(filter.key, ...values);
      const any = `EXISTS (SELECT 1 ${scores("'CATEGORICAL'")} AND json_extract(s.record, '$.stringValue') IN (${placeholders(values)}))`;
      return operator === 'none of' ? `NOT ${any}` : any;
    }
    if (type === 'stringOptions' && filter.column === 'trace.scoreCategories') {
      // The service runs `score_categories IN (list)` on its array of "name:value" labels, and
      // ClickHouse takes an array on both sides as one value: the trace's labels must be the list
      // exactly. Its order there is groupArray's, which nothing fixes; here both sides are sorted.
      const values = value as string[];
      params.push(...values);
      const label = "s.name || ':' || json_extract(s.record, '$.stringValue')";
      const labels = `(SELECT json_group_array(${label} ORDER BY ${label}) FROM trace_scores s WHERE s.trace_id = ${sql} AND json_extract(s.record, '$.dataType') = 'CATEGORICAL' AND coalesce(json_extract(s.record, '$.stringValue'), '') <> '')`;
      const list = `(SELECT json_group_array(value ORDER BY value) FROM json_each(json_array(${placeholders(values)})))`;
      return `${labels} ${operator === 'none of' ? '<>' : '='} ${list}`;
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
 * The SQL conditions of the `filter` parameter's filters (all of them must hold) and their
 * parameters, or the first filter whose type its column does not take (the service's SQL would
 * fail on it).
 */
export function filterConditions(filters: readonly ColumnFilter[]): { where: string[]; params: unknown[] } | { unsupported: ColumnFilter } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  for (const filter of filters) {
    try {
      conditions.push(`(${columnCondition(filter, params)})`);
    } catch (error) {
      if (error instanceof Unsupported) return { unsupported: filter };
      throw error;
    }
  }
  return { where: conditions, params };
}
