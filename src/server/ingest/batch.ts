// POST /api/public/ingestion as a pure function (processEventBatch on the web side and the
// worker's IngestionService behind it, run synchronously): validate each event, answer per event,
// group the accepted ones by the trace, observation or score they describe, and fold each group
// into the stored record. Events already applied by an earlier request are acknowledged again
// and skipped, so a client that retries a batch changes nothing.
import { buildObservation, type EventSource, type ObservationContext } from './observations.js';
import { sortBatch } from './order.js';
import { type IngestionEvent, ingestionEvent, type ObservationEvent, type ScoreEvent, type TraceEvent } from './schemas.js';
import { buildScore } from './scores.js';
import { buildTrace } from './traces.js';
import { loggedIds } from './event-log.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../records.js';
import type { BatchResult, EventError, IngestAuth, IngestLookups, IngestOptions, IngestWrites, Stored } from './types.js';
import { randomUUID } from 'node:crypto';

type EntityKind = 'trace' | 'observation' | 'score';

function kindOf(type: IngestionEvent['type']): EntityKind | undefined {
  if (type === 'trace-create') return 'trace';
  if (type === 'score-create') return 'score';
  if (type === 'sdk-log' || type === 'dataset-run-item-create') return undefined;
  return 'observation';
}

function isAuthorized(event: IngestionEvent, auth: IngestAuth): boolean {
  if (event.type === 'sdk-log') return true;
  if (event.type === 'score-create') return auth.accessLevel === 'scores' || auth.accessLevel === 'project';
  return auth.accessLevel === 'project';
}

function rawId(event: unknown): string {
  if (typeof event === 'object' && event !== null && 'id' in event) return typeof event.id === 'string' ? event.id : 'unknown';
  return 'unknown';
}

export interface ValidatedBatch {
  /** Accepted events in the server's processing order (sdk-log events left out, as the server does). */
  events: IngestionEvent[];
  errors: EventError[];
}

/** Events checked so far (see checkEvents): the accepted ones in the order given, and the two kinds of error. */
export interface CheckedEvents {
  accepted: IngestionEvent[];
  validationErrors: EventError[];
  scopeErrors: EventError[];
}

/** Validation and scope check of every event, with the server's per-event error bodies. */
export function validateEvents(input: readonly unknown[], auth: IngestAuth): ValidatedBatch {
  return checkedBatch(checkEvents(input, auth));
}

/** The batch of events checked (in one go or a part at a time): the accepted ones in the server's processing order. */
export function checkedBatch({ accepted, validationErrors, scopeErrors }: CheckedEvents): ValidatedBatch {
  return { events: sortBatch(accepted), errors: [...validationErrors, ...scopeErrors] };
}

/** Validation and scope check of events, added to `into` (a large batch is checked a part at a time). */
export function checkEvents(input: readonly unknown[], auth: IngestAuth, into: CheckedEvents = { accepted: [], validationErrors: [], scopeErrors: [] }): CheckedEvents {
  const { accepted, validationErrors, scopeErrors } = into;
  for (const raw of input) {
    let parsed: ReturnType<typeof ingestionEvent.safeParse>;
    try {
      parsed = ingestionEvent.safeParse(raw);
    } catch (error) {
      // Nesting deep enough to exhaust the stack; the HTTP layer's depth limit normally stops it first.
      if (!(error instanceof RangeError)) throw error;
      validationErrors.push({ id: rawId(raw), status: 400, message: 'Invalid request data', error: 'Input nested too deeply' });
      continue;
    }
    if (!parsed.success) {
      validationErrors.push({ id: rawId(raw), status: 400, message: 'Invalid request data', error: parsed.error.message });
      continue;
    }
    if (!isAuthorized(parsed.data, auth)) {
      scopeErrors.push({ id: parsed.data.id, status: 401, message: 'Authentication error', error: 'Access Scope Denied' });
      continue;
    }
    if (parsed.data.type !== 'sdk-log') accepted.push(parsed.data);
  }
  return into;
}

export interface Group {
  kind: EntityKind;
  id: string;
  events: IngestionEvent[];
}

/** Events by the record they describe, in processing order; events without a body id are not stored. */
export function groupByEntity(events: readonly IngestionEvent[]): Group[] {
  const groups = new Map<string, Group>();
  for (const event of events) {
    const kind = kindOf(event.type);
    const id = (event.body as { id?: string | null }).id;
    if (!kind || !id) continue;
    const key = `${kind}-${id}`;
    let group = groups.get(key);
    if (!group) {
      group = { kind, id, events: [] };
      groups.set(key, group);
    }
    group.events.push(event);
  }
  return [...groups.values()];
}

export interface ApplyOptions {
  source: EventSource;
  /** Skip events an earlier request applied, and report the ids applied now (batch events). */
  dedup: boolean;
}

/**
 * Folds grouped events into records. Within one request every event of a group applies; with
 * `dedup`, an event applied by an earlier request is skipped: one its record's log holds, or one
 * the store recorded as ingested. What is stored is looked up once per kind of record for the
 * whole request.
 *
 * Applied events are found in the logs of the records they describe, so only the ids of events
 * that no written log holds are recorded apart: event ids are random, and a table of them takes
 * one write at a random place per event, the larger part of the store's cost per generation.
 */
export function applyEvents(groups: readonly Group[], auth: IngestAuth, lookups: IngestLookups, options: IngestOptions, apply: ApplyOptions): IngestWrites {
  const writes: IngestWrites = { traces: [], observations: [], scores: [], eventIds: [] };
  const idsOf = (kind: EntityKind) => groups.filter((group) => group.kind === kind).map((group) => group.id);
  const traces = lookups.storedTraces(idsOf('trace'));
  const observations = lookups.storedObservations(idsOf('observation'));
  const scores = lookups.storedScores(idsOf('score'));
  const storedOf = (group: Group) => (group.kind === 'trace' ? traces : group.kind === 'observation' ? observations : scores).get(group.id);
  const recorded = apply.dedup ? lookups.seenEvents(groups.flatMap((group) => group.events.map((event) => event.id))) : new Set<string>();
  const applied: string[] = [];
  const logged = new Set<string>();
  const dropped: string[] = [];
  const ctx: ObservationContext = { projectId: auth.projectId, lookups, options, newId: options.newId ?? randomUUID, source: apply.source, now: options.now.toISOString() };
  for (const group of groups) {
    let fresh = group.events;
    if (apply.dedup) {
      const inLog = new Set(loggedIds(storedOf(group)?.log));
      if (recorded.size > 0 || inLog.size > 0) fresh = group.events.filter((event) => !recorded.has(event.id) && !inLog.has(event.id));
    }
    if (fresh.length === 0) continue;
    if (apply.dedup) for (const event of fresh) applied.push(event.id);
    let written: Stored<unknown> | undefined;
    if (group.kind === 'trace') {
      written = buildTrace(group.id, fresh as TraceEvent[], traces.get(group.id), auth.projectId, options.now);
      writes.traces.push(written as Stored<TraceRecord>);
    } else if (group.kind === 'observation') {
      written = buildObservation(group.id, fresh as ObservationEvent[], observations.get(group.id), ctx);
      writes.observations.push(written as Stored<ObservationRecord>);
    } else {
      written = buildScore(group.id, fresh as ScoreEvent[], scores.get(group.id), auth.projectId, options.now);
      if (written) writes.scores.push(written as Stored<ScoreRecord>);
    }
    const kept = new Set(loggedIds(written?.log));
    if (apply.dedup) for (const id of kept) logged.add(id);
    // Events a trace's stored log held that the written one no longer does (repeated updates,
    // see withoutRepeated) stay known as ingested.
    if (group.kind === 'trace') for (const id of loggedIds(storedOf(group)?.log)) if (!kept.has(id)) dropped.push(id);
  }
  writes.eventIds = [...new Set([...applied.filter((id) => !logged.has(id)), ...dropped])];
  return writes;
}

/** POST /api/public/ingestion: the 207 body and what to write, for one request's `batch` array. */
export function processBatch(input: readonly unknown[], auth: IngestAuth, lookups: IngestLookups, options: IngestOptions): BatchResult {
  if (input.length === 0) return { response: { successes: [], errors: [] }, writes: { traces: [], observations: [], scores: [], eventIds: [] } };
  const { events, errors } = validateEvents(input, auth);
  const writes = applyEvents(groupByEntity(events), auth, lookups, options, { source: 'batch', dedup: true });
  return { response: { successes: events.map((event) => ({ id: event.id, status: 201 })), errors }, writes };
}

