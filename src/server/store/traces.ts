// Recorded traces. Ingestion writes whole records (it merges new events with what `withEvents`
// returned, then `put`s the result with the events it was built from); the read API lists them
// and their observations' and scores' ids, latency and cost.
import type { TraceRecord } from '../records.js';
import type { ColumnFilter } from './filter-columns.js';
import { type RowSizes, rowsOfIds, sizesOfIds } from './observations.js';
import type { Statements } from './sqlite.js';
import { type FilterSpec, filterConditions, type Sql, UnsupportedFilterError, where } from './where.js';
import { eventsText, parseRecord, type WithEvents, withEvents } from './with-events.js';

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

const TRACE_FILTER: FilterSpec<TraceFilter> = {
  userId: { sql: 't.user_id', compare: '=' },
  name: { sql: 't.name', compare: '=' },
  sessionId: { sql: 't.session_id', compare: '=' },
  version: { sql: 't.version', compare: '=' },
  release: { sql: 't.release', compare: '=' },
  tags: { sql: "json_extract(t.record, '$.tags')", compare: 'has all' },
  environments: { sql: 't.environment', compare: 'in' },
  fromTimestamp: { sql: 't.timestamp', compare: '>=' },
  toTimestamp: { sql: 't.timestamp', compare: '<' },
};

/**
 * The observations and scores a listed trace shows and is filtered on, as the CTEs
 * trace_observations and trace_scores (filter-columns.ts reads them). As in the service's
 * buildTracesBaseQuery (packages/shared/src/server/repositories/traces.ts), every filter on the
 * environment, the simple parameter's and the `filter` parameter's, holds for them too, and
 * scores are the trace's own of listable types (no corrections).
 */
function traceRows(filter: TraceFilter): Sql {
  const { sql: and, params } = environmentConditions(filter);
  return {
    sql: `WITH trace_observations AS NOT MATERIALIZED (SELECT * FROM observations t WHERE 1${and}),
      trace_scores AS NOT MATERIALIZED (SELECT * FROM scores t WHERE ${LISTED_SCORE}${and})`,
    params: [...params, ...params],
  };
}

/** Scores of the types the list shows. */
const LISTED_SCORE = "json_extract(t.record, '$.dataType') <> 'CORRECTION'";

/** traceRows' filters on the environment, each after an AND, over the rows under the alias t. */
function environmentConditions(filter: TraceFilter): Sql {
  const environment: ColumnFilter[] = [
    ...(filter.environments?.length ? [{ column: 'trace.environment' as const, type: 'stringOptions', operator: 'any of', value: filter.environments }] : []),
    ...(filter.advanced ?? []).filter((f) => f.column === 'trace.environment'),
  ];
  const conditions = filterConditions(environment);
  if ('unsupported' in conditions) throw new UnsupportedFilterError(conditions.unsupported);
  // The conditions name the trace's column (t.environment), so the rows are read under the alias t.
  return { sql: conditions.where.map((condition) => ` AND ${condition}`).join(''), params: conditions.params };
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

/**
 * TraceStats with the ids as JSON text in UTF-8, as the read thread gives them: a long trace's ids
 * cross to the server's thread as one block, where a million strings would take long to copy in.
 */
export type TraceStatsJson = Omit<TraceStats, 'observationIds' | 'scoreIds'> & { observationIds: Uint8Array; scoreIds: Uint8Array };

const encoder = new TextEncoder();

export function statsAsJson(stats: Map<string, TraceStats>): Map<string, TraceStatsJson> {
  const json = (ids: string[]) => encoder.encode(JSON.stringify(ids));
  return new Map([...stats].map(([id, stat]) => [id, { ...stat, observationIds: json(stat.observationIds), scoreIds: json(stat.scoreIds) }]));
}

/** A row of a trace's observations as the stats read them in slices; `id` only when asked for. */
export interface StatsRow {
  rowid: number;
  id?: string;
  startTime: string;
  endTime: string | null;
  totalCost: number | null;
}

/** Where a slice of a trace's observations begins: after this row in the trace's index order. */
export interface StatsCursor {
  startTime: string;
  rowid: number;
}

/** A page of the traces list, one column of each row (newest first unless `order` says otherwise). */
function listQuery(column: 'record' | 'id', filter: TraceFilter, order: TraceOrder | null, page: { limit: number; offset: number }): Sql {
  const rows = traceRows(filter);
  const { sql, params } = where(TRACE_FILTER, filter);
  const orderBy = order ? `${TRACE_ORDER_COLUMNS[order.column]} ${order.direction}, id ${order.direction}` : 'timestamp DESC, id DESC';
  return { sql: `${rows.sql} SELECT ${column} FROM traces t ${sql} ORDER BY ${orderBy} LIMIT ? OFFSET ?`, params: [...rows.params, ...params, page.limit, page.offset] };
}

export class TraceStore {
  constructor(private readonly sql: Statements) {}

  get(id: string): TraceRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM traces WHERE id = ?', id);
    return row && parseRecord<TraceRecord>(row);
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
    const unique = [...new Set(ids)];
    let deleted = 0;
    for (let at = 0; at < unique.length; ) ({ at, deleted } = this.deleteStep(unique, { at, deleted }, Infinity));
    return deleted;
  }

  /**
   * A step of `delete(ids)` (ids without repeats) that deletes at most `rows` (at least one)
   * observations and scores, from where the step before stopped (`at`: the first id not yet gone;
   * `deleted`: the count so far), so that a deletion of large traces can go in transactions of
   * bounded work. A trace's row goes last, once its observations and scores have.
   */
  deleteStep(ids: readonly string[], done: { at: number; deleted: number }, rows: number): { at: number; deleted: number } {
    let { at, deleted } = done;
    let budget = Math.max(1, rows);
    for (; at < ids.length; at++) {
      const id = ids[at]!;
      for (const table of ['observations', 'scores'] as const) {
        // One more than the budget tells whether the table holds more of the trace than this step takes.
        const rowids = this.sql.valueRows(`SELECT rowid FROM ${table} WHERE trace_id = ? LIMIT ?`, id, Number.isFinite(budget) ? budget + 1 : -1).map((row) => row[0]);
        const more = rowids.length > budget;
        const now = more ? rowids.slice(0, budget) : rowids;
        if (now.length > 0) {
          const list = JSON.stringify(now);
          this.keepEventIds(table, 'rowid IN (SELECT value FROM json_each(?))', list);
          this.sql.run(`DELETE FROM ${table} WHERE rowid IN (SELECT value FROM json_each(?))`, list);
          budget -= now.length;
        }
        if (more) return { at, deleted };
      }
      this.keepEventIds('traces', 'id = ?', id);
      deleted += this.sql.run('DELETE FROM traces WHERE id = ?', id);
    }
    return { at, deleted };
  }

  /**
   * The events the deleted records were built from stay ingested: a client retrying one of them
   * after the deletion does not bring the record back. Their logs hold their ids.
   */
  private keepEventIds(table: 'traces' | 'observations' | 'scores', which: string, param: string): void {
    this.sql.run(
      `INSERT INTO ingested_events (id, created_at)
       SELECT e.value ->> 'id', strftime('%Y-%m-%dT%H:%M:%fZ', 'now') FROM ${table} r, json_each(r.events, '$.events') e
       WHERE r.${which} AND r.events IS NOT NULL AND e.value ->> 'id' IS NOT NULL
       ON CONFLICT (id) DO NOTHING`,
      param,
    );
  }

  /** A page of the traces list (newest first unless `order` says otherwise). */
  list(filter: TraceFilter, order: TraceOrder | null, page: { limit: number; offset: number }): TraceRecord[] {
    const { sql, params } = listQuery('record', filter, order, page);
    return this.sql.rows<{ record: string }>(sql, ...params).map(parseRecord<TraceRecord>);
  }

  /** The ids of `list`'s traces, in its order. */
  listIds(filter: TraceFilter, order: TraceOrder | null, page: { limit: number; offset: number }): string[] {
    const { sql, params } = listQuery('id', filter, order, page);
    return this.sql.valueRows(sql, ...params).map((values) => values[0] as string);
  }

  /** The traces of these ids that are stored, in the ids' order. */
  records(ids: readonly string[]): TraceRecord[] {
    return rowsOfIds<{ id: string; record: string }, TraceRecord>(this.sql, 'SELECT id, record FROM traces WHERE id IN (SELECT value FROM json_each(?))', ids, (row) => row.id, parseRecord<TraceRecord>);
  }

  /** The stored sizes of `records(ids)`, a trace not stored counting 0 (see RowSizes). */
  recordSizes(ids: readonly string[]): RowSizes {
    return sizesOfIds(this.sql, 'SELECT id, octet_length(record) FROM traces WHERE id IN (SELECT value FROM json_each(?))', ids);
  }

  /** How many traces match (all of them without a filter). */
  count(filter: TraceFilter = {}): number {
    const rows = traceRows(filter);
    const { sql, params } = where(TRACE_FILTER, filter);
    return this.sql.row<{ n: number }>(`${rows.sql} SELECT COUNT(*) AS n FROM traces t ${sql}`, ...rows.params, ...params)?.n ?? 0;
  }

  /**
   * Observation and score ids, latency and cost of each trace, of the rows `filter` lets the list
   * show; only the parts asked for (a long trace's ids alone take a while to read).
   */
  stats(ids: readonly string[], filter: TraceFilter = {}, parts: { ids: boolean; metrics: boolean } = { ids: true, metrics: true }): Map<string, TraceStats> {
    const rows = traceRows(filter);
    const stats = new Map<string, TraceStats>(ids.map((id) => [id, { observationIds: [], scoreIds: [], latencyMs: 0, totalCost: 0 }]));
    for (const id of ids) {
      const entry = stats.get(id)!;
      const row = !parts.metrics ? undefined : this.sql.row<{ first: string | null; last: string | null; cost: number | null }>(
        `${rows.sql} SELECT MIN(MIN(start_time), COALESCE(MIN(end_time), MIN(start_time))) AS first,
                MAX(MAX(start_time), COALESCE(MAX(end_time), MAX(start_time))) AS last, SUM(total_cost) AS cost
         FROM trace_observations WHERE trace_id = ?`,
        ...rows.params,
        id,
      );
      if (row?.first && row.last) entry.latencyMs = Date.parse(row.last) - Date.parse(row.first);
      entry.totalCost = row?.cost ?? 0;
      if (!parts.ids) continue;
      entry.observationIds = this.sql.rows<{ id: string }>(`${rows.sql} SELECT id FROM trace_observations WHERE trace_id = ?`, ...rows.params, id).map((r) => r.id);
      entry.scoreIds = this.sql.rows<{ id: string }>(`${rows.sql} SELECT id FROM trace_scores WHERE trace_id = ?`, ...rows.params, id).map((r) => r.id);
    }
    return stats;
  }

  /**
   * Up to `limit` of a trace's observations that `filter` lets the list show, after `after`, in
   * the order `stats` reads them (its index: start time, then rowid), for stats read in slices.
   */
  statsRowsAfter(traceId: string, filter: TraceFilter, after: StatsCursor | undefined, limit: number, ids: boolean): StatsRow[] {
    const { sql: and, params } = environmentConditions(filter);
    const columns = `t.rowid AS rowid, ${ids ? 't.id AS id, ' : ''}t.start_time AS startTime, t.end_time AS endTime, t.total_cost AS totalCost`;
    const from = after ? ' AND (t.start_time, t.rowid) > (?, ?)' : '';
    return this.sql.rows<StatsRow>(
      `SELECT ${columns} FROM observations t WHERE t.trace_id = ?${from}${and} ORDER BY t.start_time, t.rowid LIMIT ?`,
      traceId,
      ...(after ? [after.startTime, after.rowid] : []),
      ...params,
      limit,
    );
  }

  /** Up to `limit` ids of a trace's listed scores after the row `afterRowid`, in the order `stats` reads them. */
  scoreIdsAfter(traceId: string, filter: TraceFilter, afterRowid: number, limit: number): Array<{ rowid: number; id: string }> {
    const { sql: and, params } = environmentConditions(filter);
    return this.sql.rows(
      `SELECT t.rowid AS rowid, t.id AS id FROM scores t WHERE t.trace_id = ? AND t.rowid > ? AND ${LISTED_SCORE}${and} ORDER BY t.rowid LIMIT ?`,
      traceId,
      afterRowid,
      ...params,
      limit,
    );
  }
}
