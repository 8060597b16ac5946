// Scores of the v3 API as rows of Langfuse's scores export (repositories/scores.ts,
// buildScoresForBlobStorageExportQuery): its sixteen columns in its order. The v3 API names what
// a score is about in `subject` (a trace, an observation with its trace, a session or an
// experiment run), which gives trace_id, observation_id, session_id and dataset_run_id. A numeric
// score's value is `value`, a boolean one 1 or 0; a categorical or text score has its text in
// string_value and no value (the v3 API does not give the number ClickHouse keeps beside it).
import { clickhouseTime } from './rows.js';

export const SCORE_COLUMNS = ['id', 'timestamp', 'project_id', 'environment', 'trace_id', 'observation_id', 'session_id', 'dataset_run_id', 'name', 'value', 'source', 'comment', 'data_type', 'string_value', 'created_at', 'updated_at'] as const;

/** The v3 field groups a score row needs. */
export const SCORE_FIELDS = 'core,details,subject';

export function scoreRow(item: Record<string, unknown>): Record<string, unknown> {
  const subject = (typeof item.subject === 'object' && item.subject !== null ? item.subject : {}) as { kind?: unknown; id?: unknown; traceId?: unknown };
  const about = (kind: string) => (subject.kind === kind && typeof subject.id === 'string' ? subject.id : null);
  const value = item.value;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: item.id ?? null,
    timestamp: clickhouseTime(item.timestamp ?? null),
    project_id: item.projectId ?? null,
    environment: item.environment ?? null,
    trace_id: about('trace') ?? text(subject.traceId),
    observation_id: about('observation'),
    session_id: about('session'),
    dataset_run_id: about('experiment'),
    name: item.name ?? null,
    value: typeof value === 'number' ? value : typeof value === 'boolean' ? (value ? 1 : 0) : null,
    source: item.source ?? null,
    comment: item.comment ?? null,
    data_type: item.dataType ?? null,
    string_value: text(value),
    created_at: clickhouseTime(item.createdAt ?? null),
    updated_at: clickhouseTime(item.updatedAt ?? null),
  };
}
