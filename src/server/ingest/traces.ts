// One trace from its trace-create events (IngestionService.processTraceEventList): the stored
// record, then one partial record per event in time order, merged. Each event is an upsert: a
// later one replaces what it sets, `public` falls back to false when an event leaves it out, and
// tags only ever grow (the sorted union of all of them).
import type { TraceRecord } from '../records.js';
import { mergeRecords, metadataRecord, type Partial, eventMetadata, storedMetadata } from './merge.js';
import { byTime } from './order.js';
import { DEFAULT_ENVIRONMENT, type TraceEvent } from './schemas.js';

const IMMUTABLE = new Set(['id', 'projectId', 'timestamp', 'createdAt', 'environment']);

function partialOf(event: TraceEvent, id: string, projectId: string, now: string): Partial {
  const body = event.body;
  return {
    id,
    projectId,
    timestamp: new Date(body.timestamp ?? event.timestamp).toISOString(),
    name: body.name,
    userId: body.userId,
    metadata: body.metadata ? metadataRecord(body.metadata) : {},
    release: body.release,
    version: body.version,
    environment: body.environment,
    public: body.public ?? false,
    bookmarked: false,
    tags: body.tags ?? [],
    sessionId: body.sessionId,
    updatedAt: now,
  };
}

function lastTruthy(events: readonly TraceEvent[], field: 'input' | 'output', stored: unknown): unknown {
  for (let i = events.length - 1; i >= 0; i--) {
    const value: unknown = events[i]!.body[field];
    if (value) return value;
  }
  return stored ?? null;
}

export function buildTrace(id: string, events: readonly TraceEvent[], stored: TraceRecord | undefined, projectId: string, now: Date): TraceRecord {
  const sorted = byTime(events);
  const nowIso = now.toISOString();
  const partials = sorted.map((event) => partialOf(event, id, projectId, nowIso));
  const merged = mergeRecords(stored ? [{ ...stored, metadata: eventMetadata(stored.metadata) }, ...partials] : partials, IMMUTABLE, { tags: true });
  const str = (key: string): string | null => (merged[key] as string | null | undefined) ?? null;
  return {
    id,
    projectId,
    timestamp: merged['timestamp'] as string,
    name: str('name'),
    userId: str('userId'),
    sessionId: str('sessionId'),
    release: str('release'),
    version: str('version'),
    environment: (merged['environment'] as string | undefined) ?? DEFAULT_ENVIRONMENT,
    public: merged['public'] === true,
    bookmarked: merged['bookmarked'] === true,
    tags: (merged['tags'] as string[] | undefined) ?? [],
    metadata: storedMetadata(merged['metadata']),
    input: lastTruthy(sorted, 'input', stored?.input),
    output: lastTruthy(sorted, 'output', stored?.output),
    createdAt: stored?.createdAt ?? nowIso,
    updatedAt: nowIso,
  };
}
