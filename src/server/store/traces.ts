// Recorded traces, observations and scores. Ingestion writes whole records (it merges new events
// with what `withEvents` returned, then `put`s the result with the events it was built from); the
// read API queries them. The events are kept as ingestion gives them (JSON): the store never
// looks inside.
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../records.js';
import { type ColumnFilter, filterConditions } from './filters.js';
import type { Statements } from './sqlite.js';
import { xxHash32 } from './xxhash32.js';

/** Filters of the traces list; every one given must hold. Times are ISO strings. */
export interface TraceFilter {
  userId?: string | undefined;
  name?: string | undefined;
  sessionId?: string | undefined;
  version?: string | undefined;
  release?: string | undefined;
  /** The trace has all of these tags. */
  tags?: readonly string[] | undefined;
  /** The trace's environment is one of these. */
  environments?: readonly string[] | undefined;
  /** timestamp >= this. */
  fromTimestamp?: string | undefined;
  /** timestamp < this. */
  toTimestamp?: string | undefined;
  /** The `filter` parameter's filters, all of which must hold too. */
  advanced?: readonly ColumnFilter[] | undefined;
}

/** A filter of the `filter` parameter that the column it names cannot take. */
export class UnsupportedFilterError extends Error {
  constructor(readonly filter: ColumnFilter) {
    super(`a ${filter.type} filter with operator "${filter.operator}" cannot be applied to this column`);
    this.name = 'UnsupportedFilterError';
  }
}

function advancedWhere(filters: readonly ColumnFilter[] | undefined, where: string[], params: unknown[]): void {
  if (!filters?.length) return;
  const conditions = filterConditions(filters);
  if ('unsupported' in conditions) throw new UnsupportedFilterError(conditions.unsupported);
  where.push(...conditions.where);
  params.push(...conditions.params);
}

export const TRACE_ORDER_COLUMNS = {
  id: 'id',
  timestamp: 'timestamp',
  name: 'name',
  userId: 'user_id',
  release: 'release',
  version: 'version',
  sessionId: 'session_id',
  public: "json_extract(record, '$.public')",
  bookmarked: "json_extract(record, '$.bookmarked')",
} as const;

export interface TraceOrder {
  column: keyof typeof TRACE_ORDER_COLUMNS;
  direction: 'ASC' | 'DESC';
}

/** What the traces list shows of a trace's observations and scores. */
export interface TraceStats {
  observationIds: string[];
  scoreIds: string[];
  /** From the earliest start or end to the latest, in milliseconds; 0 without observations. */
  latencyMs: number;
  /** Sum of the observations' total costs. */
  totalCost: number;
}

function traceWhere(filter: TraceFilter): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const equal = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(`${column} = ?`);
    params.push(value);
  };
  equal('user_id', filter.userId);
  equal('name', filter.name);
  equal('session_id', filter.sessionId);
  equal('version', filter.version);
  equal('release', filter.release);
  for (const tag of filter.tags ?? []) {
    where.push("EXISTS (SELECT 1 FROM json_each(json_extract(record, '$.tags')) WHERE value = ?)");
    params.push(tag);
  }
  if (filter.environments?.length) {
    where.push(`environment IN (${filter.environments.map(() => '?').join(', ')})`);
    params.push(...filter.environments);
  }
  if (filter.fromTimestamp !== undefined) {
    where.push('timestamp >= ?');
    params.push(filter.fromTimestamp);
  }
  if (filter.toTimestamp !== undefined) {
    where.push('timestamp < ?');
    params.push(filter.toTimestamp);
  }
  advancedWhere(filter.advanced, where, params);
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

/** A stored record with the ingestion events it was built from (null: stored without them). */
export interface WithEvents<R> {
  record: R;
  events: unknown;
}

const parseEvents = (text: string | null): unknown => (text === null ? null : (JSON.parse(text) as unknown));
const eventsText = (events: unknown): string | null => (events === null || events === undefined ? null : JSON.stringify(events));

/** Records (with their events) of the ids stored, in one statement however many ids there are. */
function withEvents<R>(sql: Statements, table: 'traces' | 'observations' | 'scores', ids: readonly string[]): Map<string, WithEvents<R>> {
  const found = new Map<string, WithEvents<R>>();
  if (ids.length === 0) return found;
  const rows = sql.rows<{ id: string; record: string; events: string | null }>(`SELECT id, record, events FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`, JSON.stringify(ids));
  for (const row of rows) found.set(row.id, { record: JSON.parse(row.record) as R, events: parseEvents(row.events) });
  return found;
}

const parseTrace = (row: { record: string }): TraceRecord => JSON.parse(row.record) as TraceRecord;
const parseObservation = (row: { record: string }): ObservationRecord => JSON.parse(row.record) as ObservationRecord;
const parseScore = (row: { record: string }): ScoreRecord => JSON.parse(row.record) as ScoreRecord;

export class TraceStore {
  constructor(private readonly sql: Statements) {}

  get(id: string): TraceRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM traces WHERE id = ?', id);
    return row && parseTrace(row);
  }

  /** The traces of these ids that are stored, with their events. */
  withEvents(ids: readonly string[]): Map<string, WithEvents<TraceRecord>> {
    return withEvents(this.sql, 'traces', ids);
  }

  /** Stores a trace and the events it was built from, replacing the stored one with the same id. */
  put(trace: TraceRecord, events: unknown = null): void {
    this.sql.run(
      `INSERT INTO traces (id, timestamp, name, user_id, session_id, release, version, environment, created_at, updated_at, record, events)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET timestamp = excluded.timestamp, name = excluded.name, user_id = excluded.user_id,
         session_id = excluded.session_id, release = excluded.release, version = excluded.version,
         environment = excluded.environment, created_at = excluded.created_at, updated_at = excluded.updated_at, record = excluded.record,
         events = excluded.events`,
      trace.id,
      trace.timestamp,
      trace.name,
      trace.userId,
      trace.sessionId,
      trace.release,
      trace.version,
      trace.environment,
      trace.createdAt,
      trace.updatedAt,
      JSON.stringify(trace),
      eventsText(events),
    );
  }

  /**
   * Deletes traces with their observations and scores, as the service's trace deletion does.
   * Returns how many of the ids were stored traces.
   */
  delete(ids: readonly string[]): number {
    let deleted = 0;
    for (const id of new Set(ids)) {
      // The events these records were built from stay ingested: a client retrying one of them
      // after the deletion does not bring the record back. Their logs hold their ids.
      for (const [table, column] of [['traces', 'id'], ['observations', 'trace_id'], ['scores', 'trace_id']] as const) {
        this.sql.run(
          `INSERT INTO ingested_events (id, created_at)
           SELECT e.value ->> 'id', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM ${table} r, json_each(r.events, '$.events') e
           WHERE r.${column} = ? AND r.events IS NOT NULL AND e.value ->> 'id' IS NOT NULL
           ON CONFLICT (id) DO NOTHING`,
          id,
        );
      }
      deleted += this.sql.run('DELETE FROM traces WHERE id = ?', id);
      this.sql.run('DELETE FROM observations WHERE trace_id = ?', id);
      this.sql.run('DELETE FROM scores WHERE trace_id = ?', id);
    }
    return deleted;
  }

  /** A page of the traces list (newest first unless `order` says otherwise). */
  list(filter: TraceFilter, order: TraceOrder | null, page: { limit: number; offset: number }): TraceRecord[] {
    const where = traceWhere(filter);
    const orderBy = order ? `${TRACE_ORDER_COLUMNS[order.column]} ${order.direction}, id ${order.direction}` : 'timestamp DESC, id DESC';
    return this.sql
      .rows<{ record: string }>(`SELECT record FROM traces t ${where.sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, ...where.params, page.limit, page.offset)
      .map(parseTrace);
  }

  /** How many traces match (all of them without a filter). */
  count(filter: TraceFilter = {}): number {
    const where = traceWhere(filter);
    return this.sql.row<{ n: number }>(`SELECT COUNT(*) AS n FROM traces t ${where.sql}`, ...where.params)?.n ?? 0;
  }

  /** Observation and score ids, latency and cost of each trace. */
  stats(ids: readonly string[]): Map<string, TraceStats> {
    const stats = new Map<string, TraceStats>(ids.map((id) => [id, { observationIds: [], scoreIds: [], latencyMs: 0, totalCost: 0 }]));
    for (const id of ids) {
      const entry = stats.get(id)!;
      const row = this.sql.row<{ first: string | null; last: string | null; cost: number | null }>(
        `SELECT MIN(MIN(start_time), COALESCE(MIN(end_time), MIN(start_time))) AS first,
                MAX(MAX(start_time), COALESCE(MAX(end_time), MAX(start_time))) AS last, SUM(total_cost) AS cost
         FROM observations WHERE trace_id = ?`,
        id,
      );
      if (row?.first && row.last) entry.latencyMs = Date.parse(row.last) - Date.parse(row.first);
      entry.totalCost = row?.cost ?? 0;
      entry.observationIds = this.sql.rows<{ id: string }>('SELECT id FROM observations WHERE trace_id = ?', id).map((r) => r.id);
      entry.scoreIds = this.sql.rows<{ id: string }>('SELECT id FROM scores WHERE trace_id = ?', id).map((r) => r.id);
    }
    return stats;
  }
}

/** Sum of the values whose key contains `part` (any case), as the service's metrics count them. */
function sumOfKeys(details: Record<string, number> | null | undefined, part: string): number {
  let sum = 0;
  for (const [key, value] of Object.entries(details ?? {})) {
    if (key.toLowerCase().includes(part) && typeof value === 'number' && Number.isFinite(value)) sum += value;
  }
  return sum;
}

function millisBetween(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms : null;
}

/** Filters of the observation lists; every one given must hold. Times are ISO strings. */
export interface ObservationFilter {
  type?: string | undefined;
  name?: string | undefined;
  level?: string | undefined;
  traceId?: string | undefined;
  version?: string | undefined;
  parentObservationId?: string | undefined;
  /** Observations without a parent (true) or with one (false). */
  isRoot?: boolean | undefined;
  environments?: readonly string[] | undefined;
  /** Of the observation's trace. */
  userId?: string | undefined;
  sessionId?: string | undefined;
  /** startTime >= this. */
  fromStartTime?: string | undefined;
  /** startTime < this. */
  toStartTime?: string | undefined;
  /** The `filter` parameter's filters, all of which must hold too. */
  advanced?: readonly ColumnFilter[] | undefined;
}

/** Where a page of the v2 list ends: the last row's sort key (startTime, traceId: ordered by its xxHash32, id), all descending. */
export interface ObservationCursor {
  startTime: string;
  traceId: string;
  id: string;
}

/** One observation with what metrics group and filter by from its trace. */
export interface ObservationForMetrics {
  observation: ObservationRecord;
  traceName: string | null;
  userId: string | null;
  sessionId: string | null;
  release: string | null;
  traceVersion: string | null;
  tags: string[];
}

function observationWhere(filter: ObservationFilter): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const equal = (column: string, value: string | undefined) => {
    if (value === undefined) return;
    where.push(`o.${column} = ?`);
    params.push(value);
  };
  equal('type', filter.type);
  equal('name', filter.name);
  equal('level', filter.level);
  equal('trace_id', filter.traceId);
  equal('version', filter.version);
  equal('parent_observation_id', filter.parentObservationId);
  if (filter.isRoot !== undefined) where.push(filter.isRoot ? 'o.parent_observation_id IS NULL' : 'o.parent_observation_id IS NOT NULL');
  if (filter.environments?.length) {
    where.push(`o.environment IN (${filter.environments.map(() => '?').join(', ')})`);
    params.push(...filter.environments);
  }
  if (filter.userId !== undefined) {
    where.push('o.trace_id IN (SELECT id FROM traces WHERE user_id = ?)');
    params.push(filter.userId);
  }
  if (filter.sessionId !== undefined) {
    where.push('o.trace_id IN (SELECT id FROM traces WHERE session_id = ?)');
    params.push(filter.sessionId);
  }
  if (filter.fromStartTime !== undefined) {
    where.push('o.start_time >= ?');
    params.push(filter.fromStartTime);
  }
  if (filter.toStartTime !== undefined) {
    where.push('o.start_time < ?');
    params.push(filter.toStartTime);
  }
  advancedWhere(filter.advanced, where, params);
  return { sql: where.length ? `WHERE ${where.join(' AND ')}` : '', params };
}

export class ObservationStore {
  constructor(private readonly sql: Statements) {}

  get(id: string): ObservationRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM observations WHERE id = ?', id);
    return row && parseObservation(row);
  }

  /** The observations of a trace, by start time. */
  ofTrace(traceId: string): ObservationRecord[] {
    return this.sql.rows<{ record: string }>('SELECT record FROM observations WHERE trace_id = ? ORDER BY start_time, id', traceId).map(parseObservation);
  }

  /** The observations of these ids that are stored, with their events. */
  withEvents(ids: readonly string[]): Map<string, WithEvents<ObservationRecord>> {
    return withEvents(this.sql, 'observations', ids);
  }

  /** Stores an observation and the events it was built from, replacing the stored one with the same id. */
  put(observation: ObservationRecord, events: unknown = null): void {
    const usage = observation.usageDetails;
    const cost = observation.costDetails;
    this.sql.run(
      `INSERT INTO observations (id, trace_id, parent_observation_id, type, name, environment, level, version, start_time, end_time,
         completion_start_time, provided_model_name, internal_model_id, prompt_name, prompt_version, input_tokens, output_tokens,
         total_tokens, input_cost, output_cost, total_cost, latency_ms, time_to_first_token_ms, created_at, updated_at, record, events, trace_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET trace_id = excluded.trace_id, parent_observation_id = excluded.parent_observation_id,
         type = excluded.type, name = excluded.name, environment = excluded.environment, level = excluded.level,
         version = excluded.version, start_time = excluded.start_time, end_time = excluded.end_time,
         completion_start_time = excluded.completion_start_time, provided_model_name = excluded.provided_model_name,
         internal_model_id = excluded.internal_model_id, prompt_name = excluded.prompt_name, prompt_version = excluded.prompt_version,
         input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens, total_tokens = excluded.total_tokens,
         input_cost = excluded.input_cost, output_cost = excluded.output_cost, total_cost = excluded.total_cost,
         latency_ms = excluded.latency_ms, time_to_first_token_ms = excluded.time_to_first_token_ms,
         created_at = excluded.created_at, updated_at = excluded.updated_at, record = excluded.record, events = excluded.events,
         trace_hash = excluded.trace_hash`,
      observation.id,
      observation.traceId,
      observation.parentObservationId,
      observation.type,
      observation.name,
      observation.environment,
      observation.level,
      observation.version,
      observation.startTime,
      observation.endTime,
      observation.completionStartTime,
      observation.providedModelName,
      observation.internalModelId,
      observation.promptName,
      observation.promptVersion,
      sumOfKeys(usage, 'input'),
      sumOfKeys(usage, 'output'),
      usage?.total ?? 0,
      sumOfKeys(cost, 'input'),
      sumOfKeys(cost, 'output'),
      observation.totalCost,
      millisBetween(observation.startTime, observation.endTime),
      millisBetween(observation.startTime, observation.completionStartTime),
      observation.createdAt,
      observation.updatedAt,
      JSON.stringify(observation),
      eventsText(events),
      xxHash32(observation.traceId ?? ''),
    );
  }

  /** A page of the v1 list, newest start first. */
  list(filter: ObservationFilter, page: { limit: number; offset: number }): ObservationRecord[] {
    const where = observationWhere(filter);
    return this.sql
      .rows<{ record: string }>(`SELECT o.record FROM observations o ${where.sql} ORDER BY o.start_time DESC, o.id DESC LIMIT ? OFFSET ?`, ...where.params, page.limit, page.offset)
      .map(parseObservation);
  }

  count(filter: ObservationFilter = {}): number {
    const where = observationWhere(filter);
    return this.sql.row<{ n: number }>(`SELECT COUNT(*) AS n FROM observations o ${where.sql}`, ...where.params)?.n ?? 0;
  }

  /**
   * Up to `limit` observations after `cursor`, ordered by startTime, xxHash32(traceId) and id, all
   * descending (the v2 list, as the service orders it; '' stands for no trace).
   */
  page(filter: ObservationFilter, cursor: ObservationCursor | undefined, limit: number): ObservationRecord[] {
    const where = observationWhere(filter);
    let sql = where.sql;
    const params = [...where.params];
    if (cursor) {
      sql += `${sql ? ' AND' : 'WHERE'} (o.start_time, o.trace_hash, o.id) < (?, ?, ?)`;
      params.push(cursor.startTime, xxHash32(cursor.traceId), cursor.id);
    }
    return this.sql
      .rows<{ record: string }>(`SELECT o.record FROM observations o ${sql} ORDER BY o.start_time DESC, o.trace_hash DESC, o.id DESC LIMIT ?`, ...params, limit)
      .map(parseObservation);
  }

  /** The observations that started in [from, to), with their trace's fields, one at a time. */
  *forMetrics(from: string, to: string): Generator<ObservationForMetrics> {
    const rows = this.sql
      .get(
        `SELECT o.record, t.name AS trace_name, t.user_id, t.session_id, t.release, t.version AS trace_version,
                json_extract(t.record, '$.tags') AS tags
         FROM observations o LEFT JOIN traces t ON t.id = o.trace_id
         WHERE o.start_time >= ? AND o.start_time < ?`,
      )
      .iterate(from, to) as Iterable<{ record: string; trace_name: string | null; user_id: string | null; session_id: string | null; release: string | null; trace_version: string | null; tags: string | null }>;
    for (const row of rows) {
      yield {
        observation: parseObservation(row),
        traceName: row.trace_name,
        userId: row.user_id,
        sessionId: row.session_id,
        release: row.release,
        traceVersion: row.trace_version,
        tags: row.tags ? (JSON.parse(row.tags) as string[]) : [],
      };
    }
  }
}

/** Filters of the v3 scores list: each list given means "one of these". */
export interface ScoreFilter {
  ids?: readonly string[] | undefined;
  names?: readonly string[] | undefined;
  sources?: readonly string[] | undefined;
  dataTypes?: readonly string[] | undefined;
  environments?: readonly string[] | undefined;
  configIds?: readonly string[] | undefined;
  queueIds?: readonly string[] | undefined;
  authorUserIds?: readonly string[] | undefined;
  traceIds?: readonly string[] | undefined;
  sessionIds?: readonly string[] | undefined;
  observationIds?: readonly string[] | undefined;
  numericValues?: readonly number[] | undefined;
  stringValues?: readonly string[] | undefined;
  valueMin?: number | undefined;
  valueMax?: number | undefined;
  fromTimestamp?: string | undefined;
  toTimestamp?: string | undefined;
}

export class ScoreStore {
  constructor(private readonly sql: Statements) {}

  get(id: string): ScoreRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM scores WHERE id = ?', id);
    return row && parseScore(row);
  }

  /** The scores of a trace (its observations' included), newest first. */
  ofTrace(traceId: string): ScoreRecord[] {
    return this.sql.rows<{ record: string }>('SELECT record FROM scores WHERE trace_id = ? ORDER BY timestamp DESC, id DESC', traceId).map(parseScore);
  }

  /** Up to `limit` scores after `cursor` (timestamp and id, both descending), matching `filter`. */
  page(filter: ScoreFilter, cursor: { timestamp: string; id: string } | undefined, limit: number): ScoreRecord[] {
    const where: string[] = [];
    const params: unknown[] = [];
    const oneOf = (expression: string, values: readonly (string | number)[] | undefined) => {
      if (!values?.length) return;
      where.push(`${expression} IN (${values.map(() => '?').join(', ')})`);
      params.push(...values);
    };
    oneOf('id', filter.ids);
    oneOf('name', filter.names);
    oneOf('trace_id', filter.traceIds);
    oneOf('observation_id', filter.observationIds);
    oneOf('session_id', filter.sessionIds);
    oneOf('environment', filter.environments);
    oneOf("json_extract(record, '$.source')", filter.sources);
    oneOf("json_extract(record, '$.dataType')", filter.dataTypes);
    oneOf("json_extract(record, '$.configId')", filter.configIds);
    oneOf("json_extract(record, '$.queueId')", filter.queueIds);
    oneOf("json_extract(record, '$.authorUserId')", filter.authorUserIds);
    if (filter.numericValues?.length) oneOf("json_extract(record, '$.value')", filter.numericValues);
    if (filter.stringValues?.length) oneOf("json_extract(record, '$.stringValue')", filter.stringValues);
    if (filter.valueMin !== undefined) {
      where.push("json_extract(record, '$.value') >= ?");
      params.push(filter.valueMin);
    }
    if (filter.valueMax !== undefined) {
      where.push("json_extract(record, '$.value') <= ?");
      params.push(filter.valueMax);
    }
    if (filter.fromTimestamp !== undefined) {
      where.push('timestamp >= ?');
      params.push(filter.fromTimestamp);
    }
    if (filter.toTimestamp !== undefined) {
      where.push('timestamp < ?');
      params.push(filter.toTimestamp);
    }
    if (cursor) {
      where.push('(timestamp, id) < (?, ?)');
      params.push(cursor.timestamp, cursor.id);
    }
    const sql = `SELECT record FROM scores ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY timestamp DESC, id DESC LIMIT ?`;
    return this.sql.rows<{ record: string }>(sql, ...params, limit).map(parseScore);
  }

  /** The scores of these ids that are stored, with their events. */
  withEvents(ids: readonly string[]): Map<string, WithEvents<ScoreRecord>> {
    return withEvents(this.sql, 'scores', ids);
  }

  /** Stores a score and the events it was built from, replacing the stored one with the same id (scores upsert on id). */
  put(score: ScoreRecord, events: unknown = null): void {
    this.sql.run(
      `INSERT INTO scores (id, timestamp, name, trace_id, observation_id, session_id, environment, record, events)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET timestamp = excluded.timestamp, name = excluded.name, trace_id = excluded.trace_id,
         observation_id = excluded.observation_id, session_id = excluded.session_id, environment = excluded.environment,
         record = excluded.record, events = excluded.events`,
      score.id,
      score.timestamp,
      score.name,
      score.traceId,
      score.observationId,
      score.sessionId,
      score.environment,
      JSON.stringify(score),
      eventsText(events),
    );
  }
}

/** Ids of ingested events, for de-duplication of retried batches. Each call is one statement. */
export class EventStore {
  constructor(private readonly sql: Statements) {}

  has(id: string): boolean {
    return this.seen([id]).size > 0;
  }

  /** Which of these event ids were ingested before. */
  seen(ids: readonly string[]): Set<string> {
    if (ids.length === 0) return new Set();
    const rows = this.sql.rows<{ id: string }>('SELECT id FROM ingested_events WHERE id IN (SELECT value FROM json_each(?))', JSON.stringify(ids));
    return new Set(rows.map((row) => row.id));
  }

  /** Records event ids as ingested; returns how many were new. */
  record(ids: readonly string[], at: string): number {
    if (ids.length === 0) return 0;
    // "WHERE true" tells SQLite's parser that ON CONFLICT belongs to the INSERT, not to a join.
    return this.sql.run('INSERT INTO ingested_events (id, created_at) SELECT value, ? FROM json_each(?) WHERE true ON CONFLICT (id) DO NOTHING', at, JSON.stringify(ids));
  }
}
