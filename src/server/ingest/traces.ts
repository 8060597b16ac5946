// One trace from its trace-create events (IngestionService.processTraceEventList): the stored
// record, then one partial record per event in time order (this request's and every earlier one
// of the id, kept in its event log), merged. Each event is an upsert: a later one replaces what
// it sets, `public` falls back to false when an event leaves it out, and tags only ever grow (the
// sorted union of all of them).
import type { TraceRecord } from '../records.js';
import { byTime, freshItems, lastTruthy, loggedItems, toLogged, withoutRepeated } from './event-log.js';
import { metadataRecord } from '../../core/metadata.js';
import { eventMetadata, mergeRecords, type Partial, storedMetadata } from './merge.js';
import { DEFAULT_ENVIRONMENT, type TraceEvent } from './schemas.js';
import type { Stored } from './types.js';

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

export function buildTrace(id: string, events: readonly TraceEvent[], stored: Stored<TraceRecord> | undefined, projectId: string, now: Date): Stored<TraceRecord> {
  const record = stored?.record;
  const sorted = byTime([...loggedItems<TraceEvent>(stored?.log, id), ...freshItems(events)]);
  const nowIso = now.toISOString();
  const partials = sorted.map((item) => partialOf(item.event, id, projectId, nowIso));
  const merged = mergeRecords(record ? [{ ...record, metadata: eventMetadata(record.metadata) }, ...partials] : partials, IMMUTABLE, { tags: true });
  const str = (key: string): string | null => (merged[key] as string | null | undefined) ?? null;
  const trace: TraceRecord = {
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
    input: lastTruthy(sorted, 'input', record?.input, record?.input),
    output: lastTruthy(sorted, 'output', record?.output, record?.output),
    createdAt: record?.createdAt ?? nowIso,
    updatedAt: nowIso,
  };
  return { record: trace, log: { events: withoutRepeated([...(stored?.log?.events ?? []), ...events.map(toLogged)]) } };
}
