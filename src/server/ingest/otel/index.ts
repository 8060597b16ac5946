// POST /api/public/otel/v1/traces as a pure function over decoded resourceSpans. As on the
// server: trace events go through the batch pipeline (grouped per trace and merged), each span's
// observation event is parsed with the ingestion schema (a span that fails it is dropped without
// a word, as the worker drops it) and merged alone with what is stored for its id.
import { randomUUID } from 'node:crypto';
import { applyEvents, type Group, groupByEntity, validateEvents } from '../batch.js';
import { buildObservation, type ObservationContext } from '../observations.js';
import { ingestionEvent, type ObservationEvent } from '../schemas.js';
import type { IngestAuth, IngestLookups, IngestOptions, IngestWrites, Stored } from '../types.js';
import type { ObservationRecord } from '../../records.js';
import { finishEvents, type RawEvent, spanEvents } from './events.js';

export { checkSpans, rejectionMessage } from './validate.js';
export { decodeOtlpBody } from './decode.js';
export type { RawEvent } from './events.js';

export interface OtelResult {
  writes: IngestWrites;
  /** Spans whose observation failed the ingestion schema and was dropped. */
  droppedSpans: number;
}

/** An export's events: the trace events grouped per trace, and each span's observation event. */
export interface OtelEvents {
  traceGroups: Group[];
  /** The spans' observation events in the export's order, not checked yet (applyOtelSpans checks them). */
  spans: RawEvent[];
}

/**
 * An export converted to events a number of spans at a time (`step`), each step with the lookups
 * of the transaction it runs in (they tell only which traces are stored); `events()` once done.
 */
export class OtelConversion {
  private lookups: IngestLookups | undefined;
  private readonly seen = new Map<string, boolean>();
  private readonly steps: Generator<RawEvent[], void, undefined>;
  private readonly raw: RawEvent[] = [];

  constructor(
    resourceSpans: unknown,
    private readonly auth: IngestAuth,
    options: IngestOptions,
  ) {
    const traceSeen = (id: string) => {
      let seen = this.seen.get(id);
      if (seen === undefined) this.seen.set(id, (seen = this.lookups!.storedTraces([id]).has(id)));
      return seen;
    };
    this.steps = spanEvents(resourceSpans, { traceSeen, now: options.now, newId: options.newId ?? randomUUID });
  }

  /** Converts up to `spans` more spans; true once every span is converted. */
  step(lookups: IngestLookups, spans: number): boolean {
    this.lookups = lookups;
    for (let i = 0; i < spans; i++) {
      const next = this.steps.next();
      if (next.done) return true;
      this.raw.push(...next.value);
    }
    return false;
  }

  /** The export's events, once every span is converted. */
  events(): OtelEvents {
    const raw = finishEvents(this.raw);
    const traceEvents = validateEvents(
      raw.filter((e) => e.type === 'trace-create'),
      this.auth,
    ).events;
    return { traceGroups: groupByEntity(traceEvents), spans: raw.filter((e) => e.type !== 'trace-create') };
  }
}

/** The events of an export in one go (looking up only which traces are stored). */
export function otelEvents(resourceSpans: unknown, auth: IngestAuth, lookups: IngestLookups, options: IngestOptions): OtelEvents {
  const conversion = new OtelConversion(resourceSpans, auth, options);
  conversion.step(lookups, Infinity);
  return conversion.events();
}

/** The trace events of an export applied: merged with what is stored, as batch events are. */
export function applyOtelTraces(groups: readonly Group[], auth: IngestAuth, lookups: IngestLookups, options: IngestOptions): IngestWrites {
  return applyEvents(groups, auth, lookups, options, { source: 'batch', dedup: false });
}

/** Spans by observation id, in the order each id first comes: each id's spans are merged in turn. */
export function spansById(spans: readonly RawEvent[]): RawEvent[][] {
  const byId = new Map<string, RawEvent[]>();
  for (const span of spans) {
    const id = String(span.body['id']);
    const same = byId.get(id);
    if (same) same.push(span);
    else byId.set(id, [span]);
  }
  return [...byId.values()];
}

/**
 * Spans' observations, each merged alone with what is stored for its id (and the same id's spans
 * before it). A span that fails the ingestion schema is dropped without a word, as the worker
 * drops it.
 */
export function applyOtelSpans(raw: readonly RawEvent[], auth: IngestAuth, lookups: IngestLookups, options: IngestOptions): { observations: Stored<ObservationRecord>[]; droppedSpans: number } {
  const spans: ObservationEvent[] = [];
  let droppedSpans = 0;
  for (const event of raw) {
    const parsed = ingestionEvent.safeParse(event);
    if (parsed.success) spans.push(parsed.data as ObservationEvent);
    else droppedSpans++;
  }
  const ctx: ObservationContext = { projectId: auth.projectId, lookups, options, newId: options.newId ?? randomUUID, source: 'otel', now: options.now.toISOString() };
  const idOf = (span: ObservationEvent) => (span.body as { id: string }).id;
  const stored = lookups.storedObservations([...new Set(spans.map(idOf))]);
  const written = new Map<string, Stored<ObservationRecord>>();
  for (const span of spans) {
    const id = idOf(span);
    written.set(id, buildObservation(id, [span], written.get(id) ?? stored.get(id), ctx));
  }
  return { observations: [...written.values()], droppedSpans };
}

/** The whole export in one go: its events, then the trace events and the spans applied. */
export function processOtel(resourceSpans: unknown, auth: IngestAuth, lookups: IngestLookups, options: IngestOptions): OtelResult {
  const { traceGroups, spans } = otelEvents(resourceSpans, auth, lookups, options);
  const writes = applyOtelTraces(traceGroups, auth, lookups, options);
  const { observations, droppedSpans } = applyOtelSpans(spans, auth, lookups, options);
  writes.observations = observations;
  return { writes, droppedSpans };
}
