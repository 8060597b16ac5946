// Recorded traces, observations and scores. Ingestion writes whole records (it merges an update
// into what `get` returned, then `put`s the result); the read API queries them.
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../records.js';
import type { Statements } from './sqlite.js';

const parseTrace = (row: { record: string }): TraceRecord => JSON.parse(row.record) as TraceRecord;
const parseObservation = (row: { record: string }): ObservationRecord => JSON.parse(row.record) as ObservationRecord;
const parseScore = (row: { record: string }): ScoreRecord => JSON.parse(row.record) as ScoreRecord;

export class TraceStore {
  constructor(private readonly sql: Statements) {}

  get(id: string): TraceRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM traces WHERE id = ?', id);
    return row && parseTrace(row);
  }

  /** Stores a trace, replacing the stored one with the same id. */
  put(trace: TraceRecord): void {
    this.sql.run(
      `INSERT INTO traces (id, timestamp, name, user_id, session_id, release, version, environment, created_at, updated_at, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET timestamp = excluded.timestamp, name = excluded.name, user_id = excluded.user_id,
         session_id = excluded.session_id, release = excluded.release, version = excluded.version,
         environment = excluded.environment, created_at = excluded.created_at, updated_at = excluded.updated_at, record = excluded.record`,
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
    );
  }

  /**
   * Deletes traces with their observations and scores, as the service's trace deletion does.
   * Returns how many of the ids were stored traces.
   */
  delete(ids: readonly string[]): number {
    let deleted = 0;
    for (const id of new Set(ids)) {
      deleted += this.sql.run('DELETE FROM traces WHERE id = ?', id);
      this.sql.run('DELETE FROM observations WHERE trace_id = ?', id);
      this.sql.run('DELETE FROM scores WHERE trace_id = ?', id);
    }
    return deleted;
  }

  count(): number {
    return this.sql.row<{ n: number }>('SELECT COUNT(*) AS n FROM traces')?.n ?? 0;
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

  /** Stores an observation, replacing the stored one with the same id. */
  put(observation: ObservationRecord): void {
    const usage = observation.usageDetails;
    const cost = observation.costDetails;
    this.sql.run(
      `INSERT INTO observations (id, trace_id, parent_observation_id, type, name, environment, level, version, start_time, end_time,
         completion_start_time, provided_model_name, internal_model_id, prompt_name, prompt_version, input_tokens, output_tokens,
         total_tokens, input_cost, output_cost, total_cost, latency_ms, time_to_first_token_ms, created_at, updated_at, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET trace_id = excluded.trace_id, parent_observation_id = excluded.parent_observation_id,
         type = excluded.type, name = excluded.name, environment = excluded.environment, level = excluded.level,
         version = excluded.version, start_time = excluded.start_time, end_time = excluded.end_time,
         completion_start_time = excluded.completion_start_time, provided_model_name = excluded.provided_model_name,
         internal_model_id = excluded.internal_model_id, prompt_name = excluded.prompt_name, prompt_version = excluded.prompt_version,
         input_tokens = excluded.input_tokens, output_tokens = excluded.output_tokens, total_tokens = excluded.total_tokens,
         input_cost = excluded.input_cost, output_cost = excluded.output_cost, total_cost = excluded.total_cost,
         latency_ms = excluded.latency_ms, time_to_first_token_ms = excluded.time_to_first_token_ms,
         created_at = excluded.created_at, updated_at = excluded.updated_at, record = excluded.record`,
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
    );
  }

  count(): number {
    return this.sql.row<{ n: number }>('SELECT COUNT(*) AS n FROM observations')?.n ?? 0;
  }
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

  /** Stores a score, replacing the stored one with the same id (scores upsert on id). */
  put(score: ScoreRecord): void {
    this.sql.run(
      `INSERT INTO scores (id, timestamp, name, trace_id, observation_id, session_id, environment, record)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET timestamp = excluded.timestamp, name = excluded.name, trace_id = excluded.trace_id,
         observation_id = excluded.observation_id, session_id = excluded.session_id, environment = excluded.environment,
         record = excluded.record`,
      score.id,
      score.timestamp,
      score.name,
      score.traceId,
      score.observationId,
      score.sessionId,
      score.environment,
      JSON.stringify(score),
    );
  }
}

/** Ids of ingested events, for de-duplication of retried batches. */
export class EventStore {
  constructor(private readonly sql: Statements) {}

  has(id: string): boolean {
    return this.sql.row('SELECT 1 AS x FROM ingested_events WHERE id = ?', id) !== undefined;
  }

  /** Records an event id as ingested; true when it was new. */
  record(id: string, at: string): boolean {
    return this.sql.run('INSERT INTO ingested_events (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', id, at) > 0;
  }
}
