// The rows of the v1 metrics views (src/core/metrics/v1-views.ts, v1-scores-view.ts): each base
// row of the range [from, to] (both ends included, as the v1 query's filters are), with what its
// relation tables hold in that range, read only for the relations the query joins. The traces
// view gets its observations as aggregates, as its measures read them.
import { type MetricsAnswerRow, type MetricsQuery, queryRange, runMetricsQuery, type V1ObservationEntity, type V1ScoreEntity, type V1TraceEntity, v1Declaration, v1Relations } from '../../core/metrics/index.js';
import type { TraceRecord } from '../records.js';
import { OBSERVATION_SELECT, observationFromRow, type ObservationRow } from './observation-row.js';
import { JOINED_TRACE_COLUMNS, type JoinedTraceColumns, joinedTraceFields } from './joined-trace.js';
import { SCORE_METRICS_COLUMNS, type ScoreMetricsColumns, scoreMetricsRow } from './scores.js';
import type { Statements } from './sqlite.js';
import { parseRecord } from './with-events.js';

export class MetricsV1Store {
  constructor(private readonly sql: Statements) {}

  private projectId = () => this.sql.row<{ id: string }>('SELECT id FROM project LIMIT 1')?.id;

  /** Traces whose timestamp is in range, with their observations' aggregates and scores' count in range. */
  *traces(from: string, to: string, relations: ReadonlySet<string>): Generator<V1TraceEntity> {
    const observations = relations.has('observations');
    const scores = relations.has('scores');
    const rows = this.sql
      .get(
        `SELECT t.record, a.n, a.first_start, a.last_end, a.tokens, a.cost, s.n AS scores
         FROM traces t
         LEFT JOIN (SELECT trace_id, COUNT(*) AS n, MIN(start_time) AS first_start, MAX(end_time) AS last_end, SUM(total_tokens) AS tokens, SUM(total_cost) AS cost
                    FROM observations WHERE ? AND trace_id IS NOT NULL AND start_time >= ? AND start_time <= ? GROUP BY trace_id) a ON a.trace_id = t.id
         LEFT JOIN (SELECT trace_id, COUNT(*) AS n FROM scores WHERE ? AND trace_id IS NOT NULL AND timestamp >= ? AND timestamp <= ? GROUP BY trace_id) s ON s.trace_id = t.id
         WHERE t.timestamp >= ? AND t.timestamp <= ?`,
      )
      .iterate(observations ? 1 : 0, from, to, scores ? 1 : 0, from, to, from, to) as Iterable<{
      record: string;
      n: number | null;
      first_start: string | null;
      last_end: string | null;
      tokens: number | null;
      cost: number | null;
      scores: number | null;
    }>;
    for (const row of rows) {
      const trace = parseRecord<TraceRecord>(row);
      yield {
        trace: { ...trace, tags: trace.tags ?? [], metadata: trace.metadata ?? {} },
        observations: { count: row.n ?? 0, firstStart: row.first_start, lastEnd: row.last_end, totalTokens: row.tokens ?? 0, totalCost: row.cost },
        scores: row.scores ?? 0,
      };
    }
  }

  /** Observations that started in range, with their trace's fields when its timestamp is in range, and their scores' count in range. */
  *observations(from: string, to: string, relations: ReadonlySet<string>): Generator<V1ObservationEntity> {
    const rows = this.sql
      .get(
        `SELECT ${OBSERVATION_SELECT}, t.id AS joined_trace_id, ${JOINED_TRACE_COLUMNS},
                CASE WHEN ? THEN (SELECT COUNT(*) FROM scores s WHERE s.observation_id = o.id AND s.timestamp >= ? AND s.timestamp <= ?) ELSE 0 END AS scores
         FROM observations o LEFT JOIN traces t ON t.id = o.trace_id AND t.timestamp >= ? AND t.timestamp <= ?
         WHERE o.start_time >= ? AND o.start_time <= ?`,
      )
      .iterate(relations.has('scores') ? 1 : 0, from, to, from, to, from, to) as Iterable<ObservationRow & JoinedTraceColumns & { joined_trace_id: string | null; scores: number }>;
    const projectId = this.projectId();
    for (const row of rows) {
      yield {
        observation: observationFromRow(row, projectId),
        traceJoined: row.joined_trace_id !== null,
        ...joinedTraceFields(row),
        scores: row.scores,
      };
    }
  }

  /** Scores whose timestamp is in range, with their trace's and observation's fields when those are in range. */
  *scores(from: string, to: string): Generator<V1ScoreEntity> {
    const rows = this.sql
      .get(
        `SELECT ${SCORE_METRICS_COLUMNS}
         FROM scores s
         LEFT JOIN traces t ON t.id = s.trace_id AND t.timestamp >= ? AND t.timestamp <= ?
         LEFT JOIN observations o ON o.id = s.observation_id AND o.start_time >= ? AND o.start_time <= ?
         WHERE s.timestamp >= ? AND s.timestamp <= ?`,
      )
      .iterate(from, to, from, to, from, to) as Iterable<ScoreMetricsColumns>;
    for (const row of rows) yield scoreMetricsRow(row);
  }
}

/**
 * The answer of a v1 metrics query (parsed with version v1) from the store, on the event loop
 * (handlers/metrics-v1.ts) or on the read thread (read-worker.ts): the engine over the rows of
 * its view. Throws MetricsResourceError for an answer too large to give.
 */
export function metricsV1Answer(query: MetricsQuery, store: MetricsV1Store): MetricsAnswerRow[] {
  const { from, to } = queryRange(query);
  const relations = v1Relations(v1Declaration(query.view), query);
  const rows = query.view === 'traces' ? store.traces(from, to, relations) : query.view === 'observations' ? store.observations(from, to, relations) : store.scores(from, to);
  return runMetricsQuery(query, rows, 'v1');
}
