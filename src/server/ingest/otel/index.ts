// POST /api/public/otel/v1/traces as a pure function over decoded resourceSpans. As on the
// server: trace events go through the batch pipeline (grouped per trace and merged), each span's
// observation event is parsed with the ingestion schema (a span that fails it is dropped without
// a word, as the worker drops it) and merged alone with what is stored for its id.
import { randomUUID } from 'node:crypto';
import { applyEvents, groupByEntity, validateEvents } from '../batch.js';
import { buildObservation, type ObservationContext } from '../observations.js';
import { ingestionEvent, type ObservationEvent } from '../schemas.js';
import type { IngestAuth, IngestLookups, IngestOptions, IngestWrites, Stored } from '../types.js';
import type { ObservationRecord } from '../../records.js';
import { spansToEvents } from './events.js';

export { checkSpans, rejectionMessage } from './validate.js';
export { decodeOtlpBody } from './decode.js';

export interface OtelResult {
  writes: IngestWrites;
  /** Spans whose observation failed the ingestion schema and was dropped. */
  droppedSpans: number;
}

export function processOtel(resourceSpans: unknown, auth: IngestAuth, lookups: IngestLookups, options: IngestOptions): OtelResult {
  const newId = options.newId ?? randomUUID;
  const traceSeen = new Map<string, boolean>();
  const raw = spansToEvents(resourceSpans, {
    traceSeen: (id) => {
      let seen = traceSeen.get(id);
      if (seen === undefined) traceSeen.set(id, (seen = lookups.storedTraces([id]).has(id)));
      return seen;
    },
    now: options.now,
    newId,
  });

  const traceEvents = validateEvents(
    raw.filter((e) => e.type === 'trace-create'),
    auth,
  ).events;
  const writes = applyEvents(groupByEntity(traceEvents), auth, lookups, options, { source: 'batch', dedup: false });

  const ctx: ObservationContext = { projectId: auth.projectId, lookups, options, newId, source: 'otel', now: options.now.toISOString() };
  const spans: ObservationEvent[] = [];
  let droppedSpans = 0;
  for (const event of raw) {
    if (event.type === 'trace-create') continue;
    const parsed = ingestionEvent.safeParse(event);
    if (parsed.success) spans.push(parsed.data as ObservationEvent);
    else droppedSpans++;
  }
  const idOf = (span: ObservationEvent) => (span.body as { id: string }).id;
  const stored = lookups.storedObservations([...new Set(spans.map(idOf))]);
  const written = new Map<string, Stored<ObservationRecord>>();
  for (const span of spans) {
    const id = idOf(span);
    written.set(id, buildObservation(id, [span], written.get(id) ?? stored.get(id), ctx));
  }
  writes.observations = [...written.values()];
  return { writes, droppedSpans };
}
