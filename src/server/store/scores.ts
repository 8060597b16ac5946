// Recorded scores: upserted on id by ingestion and the scores API, listed by the v3 scores API
// (cursor-paged, newest first) and with their trace, and read for the metrics score views.
import type { MetricsScoreRow, V1ScoreEntity } from '../../core/metrics/index.js';
import type { ScoreRecord } from '../records.js';
import { JOINED_TRACE_COLUMNS, type JoinedTraceColumns, tagsOf } from './joined-trace.js';
import type { Statements } from './sqlite.js';
import { type FilterSpec, where } from './where.js';
import { eventsText, parseRecord, type WithEvents, withEvents } from './with-events.js';

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
  /** The experiment (dataset run) of the score: the v3 list's experimentId. */
  datasetRunIds?: readonly string[] | undefined;
  numericValues?: readonly number[] | undefined;
  stringValues?: readonly string[] | undefined;
  valueMin?: number | undefined;
  valueMax?: number | undefined;
  fromTimestamp?: string | undefined;
  toTimestamp?: string | undefined;
}

const SCORE_FILTER: FilterSpec<ScoreFilter> = {
  ids: { sql: 's.id', compare: 'in' },
  names: { sql: 's.name', compare: 'in' },
  sources: { sql: "json_extract(s.record, '$.source')", compare: 'in' },
  dataTypes: { sql: "json_extract(s.record, '$.dataType')", compare: 'in' },
  environments: { sql: 's.environment', compare: 'in' },
  configIds: { sql: "json_extract(s.record, '$.configId')", compare: 'in' },
  queueIds: { sql: "json_extract(s.record, '$.queueId')", compare: 'in' },
  authorUserIds: { sql: "json_extract(s.record, '$.authorUserId')", compare: 'in' },
  traceIds: { sql: 's.trace_id', compare: 'in' },
  sessionIds: { sql: 's.session_id', compare: 'in' },
  observationIds: { sql: 's.observation_id', compare: 'in' },
  datasetRunIds: { sql: "json_extract(s.record, '$.datasetRunId')", compare: 'in' },
  numericValues: { sql: "json_extract(s.record, '$.value')", compare: 'in' },
  stringValues: { sql: "json_extract(s.record, '$.stringValue')", compare: 'in' },
  valueMin: { sql: "json_extract(s.record, '$.value')", compare: '>=' },
  valueMax: { sql: "json_extract(s.record, '$.value')", compare: '<=' },
  fromTimestamp: { sql: 's.timestamp', compare: '>=' },
  toTimestamp: { sql: 's.timestamp', compare: '<' },
};

/** A place in the v3 list's order: a score's timestamp and id. */
export interface ScoreCursor {
  timestamp: string;
  id: string;
}

export class ScoreStore {
  constructor(private readonly sql: Statements) {}

  get(id: string): ScoreRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM scores WHERE id = ?', id);
    return row && parseRecord<ScoreRecord>(row);
  }

  /** The scores of a trace (its observations' included), newest first. */
  ofTrace(traceId: string): ScoreRecord[] {
    return this.sql.rows<{ record: string }>('SELECT record FROM scores WHERE trace_id = ? ORDER BY timestamp DESC, id DESC', traceId).map(parseRecord<ScoreRecord>);
  }

  /**
   * Up to `limit` scores after `cursor` (timestamp and id, both descending), matching `filter`,
   * and with `bound` not after that score (`pageBound`).
   */
  page(filter: ScoreFilter, cursor: ScoreCursor | undefined, limit: number, bound?: ScoreCursor): ScoreRecord[] {
    const after = cursor ? [{ sql: '(s.timestamp, s.id) < (?, ?)', params: [cursor.timestamp, cursor.id] }] : [];
    const upTo = bound ? [{ sql: '(s.timestamp, s.id) >= (?, ?)', params: [bound.timestamp, bound.id] }] : [];
    const { sql, params } = where(SCORE_FILTER, filter, ...after, ...upTo);
    return this.sql.rows<{ record: string }>(`SELECT s.record FROM scores s ${sql} ORDER BY s.timestamp DESC, s.id DESC LIMIT ?`, ...params, limit).map(parseRecord<ScoreRecord>);
  }

  /**
   * The score `rows` scores after `cursor` in the list's order within the filter's time range
   * alone (read from the index by time: no record is read), or undefined when fewer remain: how
   * far a read of a page may scan when the rest of the filter may match few scores.
   */
  pageBound(filter: ScoreFilter, cursor: ScoreCursor | undefined, rows: number): ScoreCursor | undefined {
    const after = cursor ? [{ sql: '(s.timestamp, s.id) < (?, ?)', params: [cursor.timestamp, cursor.id] }] : [];
    const { sql, params } = where(SCORE_FILTER, { fromTimestamp: filter.fromTimestamp, toTimestamp: filter.toTimestamp }, ...after);
    const row = this.sql.valueRows(`SELECT s.timestamp, s.id FROM scores s ${sql} ORDER BY s.timestamp DESC, s.id DESC LIMIT 1 OFFSET ?`, ...params, rows - 1)[0] as [string, string] | undefined;
    return row && { timestamp: row[0], id: row[1] };
  }

  /** The scores of these ids that are stored, with their events. */
  withEvents(ids: readonly string[]): Map<string, WithEvents<ScoreRecord>> {
    return withEvents(this.sql, 'scores', ids);
  }

  /** The scores whose timestamp is in [from, to), with their trace's and observation's fields (the rows of the metrics score views). */
  *forMetrics(from: string, to: string): Generator<MetricsScoreRow> {
    const rows = this.sql
      .get(
        `SELECT ${SCORE_METRICS_COLUMNS}
         FROM scores s
         LEFT JOIN traces t ON t.id = s.trace_id
         LEFT JOIN observations o ON o.id = s.observation_id AND o.trace_id = s.trace_id
         WHERE s.timestamp >= ? AND s.timestamp < ?`,
      )
      .iterate(from, to) as Iterable<ScoreMetricsColumns>;
    for (const row of rows) yield scoreMetricsRow(row);
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

/** What a row of the metrics score views is read from: the score, its trace's and its observation's fields. */
export const SCORE_METRICS_COLUMNS = `s.record, t.id AS trace_id, ${JOINED_TRACE_COLUMNS},
                o.id AS observation_id, o.name AS observation_name, o.provided_model_name, o.prompt_name, o.prompt_version`;

export interface ScoreMetricsColumns extends JoinedTraceColumns {
  record: string;
  trace_id: string | null;
  observation_id: string | null;
  observation_name: string | null;
  provided_model_name: string | null;
  prompt_name: string | null;
  prompt_version: number | null;
}

/** The row of a score view (v1's, whose traces have a session id, or v2's). */
export function scoreMetricsRow(row: ScoreMetricsColumns): V1ScoreEntity {
  return {
    score: parseRecord<ScoreRecord>(row),
    trace: row.trace_id === null ? null : { name: row.trace_name, userId: row.user_id, sessionId: row.session_id, tags: tagsOf(row.tags), release: row.release, version: row.trace_version },
    observation: row.observation_id === null ? null : { name: row.observation_name, providedModelName: row.provided_model_name, promptName: row.prompt_name, promptVersion: row.prompt_version },
  };
}
