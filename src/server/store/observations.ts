// Recorded observations, one row each (observation-row.ts: the record's fields once each, the
// columns lists filter, sort and aggregate on among them: the sums of input and output tokens and
// costs as the service's metrics and filters count them, latency, time to first token, and
// xxHash32 of the trace id, the v2 list's order).
import type { MetricsGroup, MetricsQuery, MetricsRow } from '../../core/metrics/index.js';
import type { ObservationRecord } from '../records.js';
import type { ColumnFilter } from './filter-columns.js';
import { appearanceOrder, metricsGroups, observationMetricsSql } from './observation-metrics.js';
import { JOINED_TRACE_COLUMNS, type JoinedTraceColumns, joinedTraceFields } from './joined-trace.js';
import type { Statements } from './sqlite.js';
import { type FilterSpec, where } from './where.js';
import { ALL_TEXTS, OBSERVATION_COLUMNS, OBSERVATION_SELECT, observationFromRow, observationParams, type ObservationRow, type ObservationTexts, observationTextsFromValues, observationTextsSelect, type TextPick, textsSize } from './observation-row.js';
import { eventsText, parseEvents, type WithEvents } from './with-events.js';
import { xxHash32 } from './xxhash32.js';

/** The bytes of a row's JSON texts, from the row's header (SQLite does not read the texts for it). */
const ROW_SIZE = textsSize(ALL_TEXTS);

/**
 * The stored sizes of the rows a read would give, read on demand from the rows' headers (not their
 * texts): all together with their count, or one by one.
 */
export interface RowSizes {
  total(): { bytes: number; count: number };
  each(): number[];
}

/**
 * The rows of `ids` that are stored, in the ids' order: `query` reads them with the ids as its one
 * parameter (JSON), and `idOf` says whose each row is.
 */
export function rowsOfIds<R, T>(sql: Statements, query: string, ids: readonly string[], idOf: (row: R) => string, make: (row: R) => T): T[] {
  if (ids.length === 0) return [];
  const byId = new Map(sql.rows<R>(query, JSON.stringify(ids)).map((row) => [idOf(row), row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row === undefined ? [] : [make(row)];
  });
}

/**
 * The stored sizes of the rows of `ids`, in the ids' order, an id not stored counting 0 (see
 * RowSizes): `query` reads each one's id and size with the ids as its one parameter (JSON).
 */
export function sizesOfIds(sql: Statements, query: string, ids: readonly string[]): RowSizes {
  const each = () => {
    const sizes = new Map(sql.valueRows(query, JSON.stringify(ids)).map(([id, size]) => [id as string, size as number]));
    return ids.map((id) => sizes.get(id) ?? 0);
  };
  return { total: () => ({ bytes: each().reduce((sum, size) => sum + size, 0), count: ids.length }), each };
}

const UPSERT = `INSERT INTO observations (${OBSERVATION_COLUMNS.join(', ')}, events)
  VALUES (${OBSERVATION_COLUMNS.map(() => '?').join(', ')}, ?)
  ON CONFLICT (id) DO UPDATE SET ${[...OBSERVATION_COLUMNS, 'events'].filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ')}`;

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

// A trace's field picks the trace ids first, through the traces' own indexes.
const ofTrace = { key: 'o.trace_id', table: 'traces' };

const OBSERVATION_FILTER: FilterSpec<ObservationFilter> = {
  type: { sql: 'o.type', compare: '=' },
  name: { sql: 'o.name', compare: '=' },
  level: { sql: 'o.level', compare: '=' },
  traceId: { sql: 'o.trace_id', compare: '=' },
  version: { sql: 'o.version', compare: '=' },
  parentObservationId: { sql: 'o.parent_observation_id', compare: '=' },
  isRoot: { sql: 'o.parent_observation_id', compare: 'is null' },
  environments: { sql: 'o.environment', compare: 'in' },
  userId: { sql: 'user_id', compare: '=', through: ofTrace },
  sessionId: { sql: 'session_id', compare: '=', through: ofTrace },
  fromStartTime: { sql: 'o.start_time', compare: '>=' },
  toStartTime: { sql: 'o.start_time', compare: '<' },
};

/** Where a page of the v2 list ends: the last row's sort key (startTime, traceId: ordered by its xxHash32, id), all descending. */
export interface ObservationCursor {
  startTime: string;
  traceId: string;
  id: string;
}

/** A row of the v2 list: the record without its large parts, and those as stored JSON text. */
export interface ObservationPageRow {
  record: ObservationRecord;
  texts: ObservationTexts;
}

/**
 * What follows `SELECT … FROM observations o` in a read of rows, written once so that the sizes
 * of a read's rows (RowSizes) are those of the same rows.
 */
interface RowsQuery {
  rest: string;
  params: unknown[];
}

/**
 * The v2 list's rows: by startTime, xxHash32(traceId) and id, all descending, after `cursor`, and
 * with `bound` not after that row (`pageBound`).
 */
function pageQuery(filter: ObservationFilter, cursor: ObservationCursor | undefined, limit: number, bound?: ObservationCursor): RowsQuery {
  const after = cursor ? [{ sql: '(o.start_time, o.trace_hash, o.id) < (?, ?, ?)', params: [cursor.startTime, xxHash32(cursor.traceId), cursor.id] }] : [];
  const upTo = bound ? [{ sql: '(o.start_time, o.trace_hash, o.id) >= (?, ?, ?)', params: [bound.startTime, xxHash32(bound.traceId), bound.id] }] : [];
  const { sql, params } = where(OBSERVATION_FILTER, filter, ...after, ...upTo);
  return { rest: `${sql} ORDER BY o.start_time DESC, o.trace_hash DESC, o.id DESC LIMIT ?`, params: [...params, limit] };
}

/** The v1 list's rows: newest start first, by page. */
function listQuery(filter: ObservationFilter, page: { limit: number; offset: number }): RowsQuery {
  const { sql, params } = where(OBSERVATION_FILTER, filter);
  return { rest: `${sql} ORDER BY o.start_time DESC, o.id DESC LIMIT ? OFFSET ?`, params: [...params, page.limit, page.offset] };
}

/** A trace's rows after `after`, by start time and id. */
function ofTraceQuery(traceId: string, after: { startTime: string; id: string } | undefined, limit: number): RowsQuery {
  return after
    ? { rest: 'WHERE o.trace_id = ? AND (o.start_time, o.id) > (?, ?) ORDER BY o.start_time, o.id LIMIT ?', params: [traceId, after.startTime, after.id, limit] }
    : { rest: 'WHERE o.trace_id = ? ORDER BY o.start_time, o.id LIMIT ?', params: [traceId, limit] };
}

/** One observation with what metrics group and filter by from its trace (a row of the metrics view). */
export interface ObservationForMetrics extends MetricsRow {
  observation: ObservationRecord;
  tags: string[];
}

export class ObservationStore {
  constructor(private readonly sql: Statements) {}

  private project: string | undefined;

  /** The store's project: records of it are kept without their project id. */
  private projectId(): string | undefined {
    this.project ??= this.sql.row<{ id: string }>('SELECT id FROM project LIMIT 1')?.id;
    return this.project;
  }

  private record = (row: ObservationRow): ObservationRecord => observationFromRow(row, this.projectId());

  get(id: string): ObservationRecord | undefined {
    const row = this.sql.row<ObservationRow>(`SELECT ${OBSERVATION_SELECT} FROM observations o WHERE o.id = ?`, id);
    return row && this.record(row);
  }

  /** The observations of a trace, by start time. */
  ofTrace(traceId: string): ObservationRecord[] {
    return this.sql.rows<ObservationRow>(`SELECT ${OBSERVATION_SELECT} FROM observations o WHERE o.trace_id = ? ORDER BY o.start_time, o.id`, traceId).map(this.record);
  }

  /**
   * Up to `limit` observations of a trace after `after` (its last one's start time and id), in
   * the order of `ofTrace`: a long trace read in slices.
   */
  ofTraceAfter(traceId: string, after: { startTime: string; id: string } | undefined, limit: number): ObservationRecord[] {
    const { rest, params } = ofTraceQuery(traceId, after, limit);
    return this.sql.rows<ObservationRow>(`SELECT ${OBSERVATION_SELECT} FROM observations o ${rest}`, ...params).map(this.record);
  }

  /**
   * The start and end times, environment, total cost and tokens of up to `limit` observations of a trace after
   * `after`, in the order of `ofTrace`: a long trace's sums read in slices.
   */
  timesOfTraceAfter(
    traceId: string,
    after: { startTime: string; id: string } | undefined,
    limit: number,
  ): Array<{ id: string; startTime: string; endTime: string | null; environment: string; totalCost: number | null; totalTokens: number }> {
    const columns = 'SELECT id, start_time AS startTime, end_time AS endTime, environment, total_cost AS totalCost, total_tokens AS totalTokens FROM observations';
    return after
      ? this.sql.rows(`${columns} WHERE trace_id = ? AND (start_time, id) > (?, ?) ORDER BY start_time, id LIMIT ?`, traceId, after.startTime, after.id, limit)
      : this.sql.rows(`${columns} WHERE trace_id = ? ORDER BY start_time, id LIMIT ?`, traceId, limit);
  }

  /** The observations of these ids that are stored, with their events. */
  withEvents(ids: readonly string[]): Map<string, WithEvents<ObservationRecord>> {
    const found = new Map<string, WithEvents<ObservationRecord>>();
    if (ids.length === 0) return found;
    const rows = this.sql.rows<ObservationRow & { events: string | null }>(
      `SELECT ${OBSERVATION_SELECT}, o.events FROM observations o WHERE o.id IN (SELECT value FROM json_each(?))`,
      JSON.stringify(ids),
    );
    for (const row of rows) found.set(row['id'] as string, { record: this.record(row), events: parseEvents(row.events) });
    return found;
  }

  /** Stores an observation and the events it was built from, replacing the stored one with the same id. */
  put(observation: ObservationRecord, events: unknown = null): void {
    this.sql.run(UPSERT, ...observationParams(observation, this.projectId()), eventsText(events));
  }

  /** A page of the v1 list, newest start first. */
  list(filter: ObservationFilter, page: { limit: number; offset: number }): ObservationRecord[] {
    const { rest, params } = listQuery(filter, page);
    return this.sql.rows<ObservationRow>(`SELECT ${OBSERVATION_SELECT} FROM observations o ${rest}`, ...params).map(this.record);
  }

  /** The ids of a page of the v1 list, in its order (what `list` would read). */
  listIds(filter: ObservationFilter, page: { limit: number; offset: number }): string[] {
    const { rest, params } = listQuery(filter, page);
    return this.sql.valueRows(`SELECT o.id FROM observations o ${rest}`, ...params).map((row) => row[0] as string);
  }

  /** The observations of these ids that are stored, in the ids' order. */
  byIds(ids: readonly string[]): ObservationRecord[] {
    return rowsOfIds<ObservationRow, ObservationRecord>(this.sql, `SELECT ${OBSERVATION_SELECT} FROM observations o WHERE o.id IN (SELECT value FROM json_each(?))`, ids, (row) => row['id'] as string, this.record);
  }

  /** The sizes of `byIds(ids)`' rows, in the ids' order (an id not stored counting 0; see RowSizes). */
  idSizes(ids: readonly string[]): RowSizes {
    return sizesOfIds(this.sql, `SELECT o.id, ${ROW_SIZE} FROM observations o WHERE o.id IN (SELECT value FROM json_each(?))`, ids);
  }

  count(filter: ObservationFilter = {}): number {
    const { sql, params } = where(OBSERVATION_FILTER, filter);
    return this.sql.row<{ n: number }>(`SELECT COUNT(*) AS n FROM observations o ${sql}`, ...params)?.n ?? 0;
  }

  /**
   * Up to `limit` observations after `cursor`, ordered by startTime, xxHash32(traceId) and id, all
   * descending (the v2 list, as the service orders it; '' stands for no trace).
   */
  page(filter: ObservationFilter, cursor: ObservationCursor | undefined, limit: number): ObservationRecord[] {
    const { rest, params } = pageQuery(filter, cursor, limit);
    return this.sql.rows<ObservationRow>(`SELECT ${OBSERVATION_SELECT} FROM observations o ${rest}`, ...params).map(this.record);
  }

  /**
   * `page`, with the large parts of each record as JSON text (see ObservationPageRow): those
   * `pick` holds; the others are not read.
   */
  pageRows(filter: ObservationFilter, cursor: ObservationCursor | undefined, limit: number, pick: TextPick = ALL_TEXTS, bound?: ObservationCursor): ObservationPageRow[] {
    const projectId = this.projectId();
    const { rest, params } = pageQuery(filter, cursor, limit, bound);
    return this.sql.valueRows(`SELECT ${observationTextsSelect(pick)} FROM observations o ${rest}`, ...params).map((values) => observationTextsFromValues(values, projectId, pick));
  }

  /** The sizes of `pageRows`' rows (see RowSizes), so that a page of large observations can be read a few at a time. */
  pageSizes(filter: ObservationFilter, cursor: ObservationCursor | undefined, limit: number, pick: TextPick = ALL_TEXTS, bound?: ObservationCursor): RowSizes {
    return this.sizes(pageQuery(filter, cursor, limit, bound), textsSize(pick));
  }

  /**
   * The row `rows` rows after `cursor` in the v2 list's order within the filter's time range
   * alone (the list's index: no row is read), or undefined when fewer remain: how far a read of
   * the page may scan. A filter the index does not serve may match few rows, and its page is then
   * read a part at a time instead of in one scan of every row.
   */
  pageBound(filter: ObservationFilter, cursor: ObservationCursor | undefined, rows: number): ObservationCursor | undefined {
    const { rest, params } = pageQuery({ fromStartTime: filter.fromStartTime, toStartTime: filter.toStartTime }, cursor, 1);
    const row = this.sql.valueRows(`SELECT o.start_time, o.trace_id, o.id FROM observations o ${rest} OFFSET ?`, ...params, rows - 1)[0] as [string, string | null, string] | undefined;
    return row && { startTime: row[0], traceId: row[1] ?? '', id: row[2] };
  }

  /** The sizes of `list`'s rows. */
  listSizes(filter: ObservationFilter, page: { limit: number; offset: number }): RowSizes {
    return this.sizes(listQuery(filter, page));
  }

  /** The sizes of `ofTraceAfter`'s rows. */
  ofTraceSizes(traceId: string, after: { startTime: string; id: string } | undefined, limit: number): RowSizes {
    return this.sizes(ofTraceQuery(traceId, after, limit));
  }

  private sizes({ rest, params }: RowsQuery, size = ROW_SIZE): RowSizes {
    const sizes = `SELECT ${size} AS size FROM observations o ${rest}`;
    return {
      total: () => {
        const [bytes, count] = this.sql.valueRows(`SELECT total(size), count(*) FROM (${sizes})`, ...params)[0] as [number, number];
        return { bytes, count };
      },
      each: () => this.sql.valueRows(sizes, ...params).map((values) => values[0] as number),
    };
  }

  /**
   * A metrics query over the `observations` view aggregated in SQL, as groups for the engine to
   * finish (finishMetricsQuery); undefined when the engine must read the rows (forMetrics).
   */
  metrics(query: MetricsQuery, from: string, to: string): MetricsGroup[] | undefined {
    const built = observationMetricsSql(query, from, to);
    if (!built) return undefined;
    // An aggregate without GROUP BY answers one row even without rows: the engine makes the
    // service's row from no groups (finishMetricsQuery), with its values over no rows.
    const rows = this.sql.rows<Record<string, unknown>>(built.sql, ...built.params).filter((row) => Number(row['n']) > 0);
    appearanceOrder(built, rows, (time) => this.sql.rows(built.tie, ...built.params, time));
    return metricsGroups(query, built, rows);
  }

  /** The observations that started in [from, to), with their trace's fields, one at a time. */
  *forMetrics(from: string, to: string): Generator<ObservationForMetrics> {
    const rows = this.sql
      .get(
        `SELECT ${OBSERVATION_SELECT}, ${JOINED_TRACE_COLUMNS}
         FROM observations o LEFT JOIN traces t ON t.id = o.trace_id
         WHERE o.start_time >= ? AND o.start_time < ?`,
      )
      .iterate(from, to) as Iterable<ObservationRow & JoinedTraceColumns>;
    for (const row of rows) {
      yield {
        observation: this.record(row),
        ...joinedTraceFields(row),
      };
    }
  }
}
