// One score from its score-create events (IngestionService.processScoreEventList and
// validateAndInflateScore): the stored record, then every event of the id in time order (this
// request's and the earlier ones kept in its event log), merged. Events the worker would drop
// after the 207 (an ANNOTATION score without a config, a config the project does not have) are
// dropped here too: the request still reports them as accepted. POST /api/public/scores sends its
// score through here as one score-create event, as the service does.
import type { ScoreDataType, ScoreRecord, ScoreSource } from '../records.js';
import { byTime, freshItems, loggedItems, toLogged } from './event-log.js';
import { metadataRecord } from '../../core/metadata.js';
import { mergeRecords, type Partial, eventMetadata, storedMetadata } from './merge.js';
import { DEFAULT_ENVIRONMENT, type ScoreEvent } from './schemas.js';
import type { Stored } from './types.js';

const IMMUTABLE = new Set(['id', 'projectId', 'timestamp', 'traceId', 'createdAt', 'environment']);

/** The name the server gives every CORRECTION score. */
export const CORRECTION_NAME = 'output';

function inflate(event: ScoreEvent, id: string, projectId: string, now: string): Partial | undefined {
  const body = event.body;
  if (body.source === 'ANNOTATION' && !body.configId && body.dataType !== 'CORRECTION') return undefined;
  // No score configs exist on this server, so a score that names one is dropped as unknown.
  if (body.configId) return undefined;
  let dataType: ScoreDataType;
  let value: number | null;
  let stringValue: string | null;
  let name = body.name;
  if (typeof body.value === 'number') {
    dataType = body.dataType === 'BOOLEAN' ? 'BOOLEAN' : 'NUMERIC';
    value = body.value;
    stringValue = dataType === 'BOOLEAN' ? (body.value === 1 ? 'True' : 'False') : null;
  } else {
    dataType = body.dataType === 'CORRECTION' || body.dataType === 'TEXT' ? body.dataType : 'CATEGORICAL';
    value = null;
    stringValue = body.value;
    if (dataType === 'CORRECTION') {
      // Corrections belong to a trace or an observation only.
      if (body.sessionId || body.datasetRunId) return undefined;
      name = CORRECTION_NAME;
    }
  }
  return {
    id,
    projectId,
    environment: body.environment,
    timestamp: new Date(event.timestamp).toISOString(),
    name,
    value,
    stringValue,
    dataType,
    source: body.source,
    traceId: body.traceId,
    observationId: body.observationId,
    sessionId: body.sessionId,
    datasetRunId: body.datasetRunId,
    comment: body.comment,
    metadata: body.metadata ? metadataRecord(body.metadata) : {},
    configId: body.configId,
    queueId: body.queueId ?? null,
    executionTraceId: body.executionTraceId,
    updatedAt: now,
  };
}

/** The score after this request's events, or undefined when there is nothing to store. */
export function buildScore(id: string, events: readonly ScoreEvent[], stored: Stored<ScoreRecord> | undefined, projectId: string, now: Date): Stored<ScoreRecord> | undefined {
  const nowIso = now.toISOString();
  // Only events that pass are kept: one that fails fails again each time the id is merged.
  const kept = events.filter((event) => inflate(event, id, projectId, nowIso) !== undefined);
  if (kept.length === 0) return undefined;
  const record = stored?.record;
  const sorted = byTime([...loggedItems<ScoreEvent>(stored?.log, id), ...freshItems(kept)]);
  const partials = sorted.map((item) => inflate(item.event, id, projectId, nowIso)!);
  const merged = mergeRecords(record ? [{ ...record, metadata: eventMetadata(record.metadata) }, ...partials] : partials, IMMUTABLE);
  const str = (key: string): string | null => (merged[key] as string | null | undefined) ?? null;
  const score: ScoreRecord = {
    id,
    projectId,
    timestamp: merged['timestamp'] as string,
    name: merged['name'] as string,
    value: (merged['value'] as number | null | undefined) ?? null,
    stringValue: str('stringValue'),
    dataType: merged['dataType'] as ScoreDataType,
    source: merged['source'] as ScoreSource,
    traceId: str('traceId'),
    observationId: str('observationId'),
    sessionId: str('sessionId'),
    datasetRunId: str('datasetRunId'),
    comment: str('comment'),
    metadata: storedMetadata(merged['metadata']),
    environment: (merged['environment'] as string | undefined) ?? DEFAULT_ENVIRONMENT,
    configId: str('configId'),
    queueId: str('queueId'),
    authorUserId: record?.authorUserId ?? null,
    executionTraceId: str('executionTraceId'),
    createdAt: record?.createdAt ?? nowIso,
    updatedAt: nowIso,
  };
  return { record: score, log: { events: [...(stored?.log?.events ?? []), ...kept.map(toLogged)] } };
}
