// One score from its score-create events (IngestionService.processScoreEventList and
// validateAndInflateScore). Events the worker would drop after the 207 (an ANNOTATION score
// without a config, a config the project does not have) are dropped here too: the request
// still reports them as accepted.
import type { ScoreDataType, ScoreRecord, ScoreSource } from '../records.js';
import { mergeRecords, metadataRecord, type Partial, eventMetadata, storedMetadata } from './merge.js';
import { byTime } from './order.js';
import { DEFAULT_ENVIRONMENT, type ScoreEvent } from './schemas.js';

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
    updatedAt: now,
  };
}

export function buildScore(id: string, events: readonly ScoreEvent[], stored: ScoreRecord | undefined, projectId: string, now: Date): ScoreRecord | undefined {
  const nowIso = now.toISOString();
  const partials = byTime(events).flatMap((event): Partial[] => { const p = inflate(event, id, projectId, nowIso); return p ? [p] : []; });
  if (partials.length === 0 && !stored) return undefined;
  if (partials.length === 0) return stored;
  const merged = mergeRecords(stored ? [{ ...stored, metadata: eventMetadata(stored.metadata) }, ...partials] : partials, IMMUTABLE);
  const str = (key: string): string | null => (merged[key] as string | null | undefined) ?? null;
  return {
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
    authorUserId: stored?.authorUserId ?? null,
    createdAt: stored?.createdAt ?? nowIso,
    updatedAt: nowIso,
  };
}
