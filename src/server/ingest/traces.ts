// One trace from its trace-create events (IngestionService.processTraceEventList): the stored
// record, then one partial record per event in time order (this request's and every earlier one
// of the id, kept in its event log), merged. Each event is an upsert: a later one replaces what
// it sets, `public` falls back to false when an event leaves it out, and tags only ever grow (the
// sorted union of all of them).
import type { TraceRecord } from '../records.js';
import { byTime, freshItems, lastTruthy, loggedItems, toLogged } from './event-log.js';
import { metadataRecord } from '../../core/metadata.js';
import { eventMetadata, isPlainObject, mergeRecords, type Partial, storedMetadata } from './merge.js';
import { DEFAULT_ENVIRONMENT, type TraceEvent } from './schemas.js';
import type { LoggedEvent, Stored } from './types.js';

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
  return { record: trace, log: { events: withoutOverwritten([...(stored?.log?.events ?? []), ...events.map(toLogged)]) } };
}

// A trace's log keeps the events a later merge may need. Every merge starts from the stored
// record, which has fixed the immutable fields (the timestamp among them) and holds every tag and
// metadata key the log ever brought; an event whose every other contribution a later event sets
// again cannot change such a merge, whatever comes between, so it is left out. An SDK that puts
// the user and session on every span sends a trace update per span: without this, the log of a
// long trace grew by one event per span, and every request merged it whole.

/** Trace fields an event replaces when it sets them (the immutable ones, `public`, set by every event, and tags, only ever added, aside). */
const REPLACED = ['name', 'userId', 'sessionId', 'release', 'version'] as const;

/**
 * Whether a metadata value merged later leaves nothing of an earlier one, whatever lies between
 * (deepMerge): a value that is not an object or array replaces anything; an object covers an
 * object whose every key it covers. Undefined merges nothing, so it is covered.
 */
function covers(later: unknown, earlier: unknown): boolean {
  if (earlier === undefined) return true;
  if (typeof later !== 'object' || later === null) return later !== undefined;
  if (!isPlainObject(later) || !isPlainObject(earlier)) return false;
  return Object.keys(earlier).every((key) => covers(later[key], earlier[key]));
}

/** Whether merging `later` after `earlier` sets again all that `earlier` contributes (see above). */
function overwrites(later: LoggedEvent, earlier: LoggedEvent): boolean {
  if (later.type !== earlier.type || ((earlier.io ?? 0) & ~(later.io ?? 0)) !== 0) return false;
  if (REPLACED.some((field) => earlier.body[field] !== undefined && later.body[field] === undefined)) return false;
  return covers(metadataRecord(later.body['metadata']), metadataRecord(earlier.body['metadata']));
}

/**
 * The log without the events that a later one overwrites: the same event sent again later, or
 * the next event in merge order setting again all that one sets. In the order they arrived.
 */
export function withoutOverwritten(events: readonly LoggedEvent[]): LoggedEvent[] {
  if (events.length < 2) return [...events];
  const order = byTime(events.map((event, index) => ({ event, index })));
  const seen = new Set<string>();
  const dropped = new Set<number>();
  let next: LoggedEvent | undefined;
  for (let i = order.length - 1; i >= 0; i--) {
    const { event, index } = order[i]!;
    const { timestamp: _timestamp, ...body } = event.body;
    const key = JSON.stringify([event.type, event.io ?? 0, body]);
    if (seen.has(key) || (next !== undefined && overwrites(next, event))) dropped.add(index);
    else {
      seen.add(key);
      next = event;
    }
  }
  return dropped.size === 0 ? [...events] : events.filter((_, index) => !dropped.has(index));
}
