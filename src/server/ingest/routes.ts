// The ingestion routes: POST /api/public/ingestion (batch) and POST /api/public/otel/v1/traces
// (OTLP over HTTP). Each runs the pure pipeline over lookups into a transaction and writes what it
// returns in that same transaction. A large request is checked (OTLP: converted) and applied a
// part at a time (the records of about INGEST_PART_EVENTS events each, a record's events never
// split), each part in a transaction of its own with the event loop's turn between, so that no
// request holds the server for long; the answer comes once every part is written. A request that fails part way may have
// stored its first parts, as the service, which applies each event on its own, may: sending it
// again applies the rest (batch events already applied are skipped by their ids).
// The service processes both asynchronously; here the data is readable when the answer arrives.
// The write mode changes one thing here: events_only takes only score and log events on the batch
// route (events-only.ts). OTLP is taken alike in every mode.
import type { ModelDefinition } from '../../core/models/types.js';
import { engineCounter } from '../../tokenizer/index.js';
import { projectDefinitions } from '../handlers/models.js';
import { type BodyBudget, bodiesBusy } from '../http/body.js';
import { gunzipBody } from '../http/inflate.js';
import { HttpError } from '../http/errors.js';
import { breathe, ownTurn } from '../http/json-stream.js';
import { DeferredReply, type HandlerContext, type Route, type ServerReply, type ServerRequest } from '../http/router.js';
import type { ObservationRecord } from '../records.js';
import type { Tx, WithEvents } from '../store/index.js';
import { applyEvents, type CheckedEvents, checkedBatch, checkEvents, type Group, groupByEntity, processBatch } from './batch.js';
import { asEventLog } from './event-log.js';
import { splitForEventsOnly } from './events-only.js';
import { noteModelUse } from './model-use.js';
import { packObservationLog, unpackObservationLog } from './log-pack.js';
import { applyOtelSpans, applyOtelTraces, checkSpans, decodeOtlpBody, OtelConversion, type RawEvent, rejectionMessage, spansById } from './otel/index.js';
import { type DecodedBody, decodeInParts, inflateFailure, tooManySpans } from './otel/decode.js';
import { batchRequest } from './schemas.js';
import type { BatchResponse, IngestAuth, IngestLookups, IngestWrites, Stored } from './types.js';

/**
 * The most an OTLP body may inflate to when sent with gzip: the route's own limit, so that a
 * compressed body carries no more than an uncompressed one may.
 */
export const OTLP_MAX_INFLATED_BYTES = 32 * 1024 * 1024;

/**
 * The most spans one OTLP export may carry. A request's spans are all decoded before any is
 * written, and a 32 MB protobuf body holds a million tiny spans: gigabytes of memory for one
 * request. Exporters send far fewer per request (the SDKs' batch processors 512, the Collector's
 * batch processor 8,192 by default).
 */
export const OTLP_MAX_SPANS = 20_000;

/** Events whose records one transaction of a large ingestion request writes (HandlerContext.ingestPartEvents). */
export const INGEST_PART_EVENTS = 500;

/** Items in parts of about `most` events each (an item, a record's events, is never split). */
function inParts<T>(items: readonly T[], events: (item: T) => number, most: number): T[][] {
  const parts: T[][] = [];
  let part: T[] = [];
  let count = 0;
  for (const item of items) {
    if (part.length > 0 && count + events(item) > most) {
      parts.push(part);
      part = [];
      count = 0;
    }
    part.push(item);
    count += events(item);
  }
  if (part.length > 0) parts.push(part);
  return parts;
}

/**
 * Applies the first part in the request's transaction and, when there are more, each of the
 * others in a write of its own after the event loop's turn; answers `reply` once all are written.
 * Every part in the request's transaction for a caller in the same process.
 * What `apply` throws rolls its part back and is the answer.
 */
function applyInParts<T>(parts: readonly T[][], tx: Tx, context: HandlerContext, apply: (tx: Tx, part: readonly T[]) => void, reply: ServerReply): ServerReply | DeferredReply {
  // A caller in the same process (the web UI) takes the answer whole, in its transaction.
  if (context.inProcess) {
    for (const part of parts) apply(tx, part);
    return reply;
  }
  if (parts.length > 0) apply(tx, parts[0]!);
  if (parts.length <= 1) return reply;
  return new DeferredReply(async () => {
    await writeInTurns(parts.slice(1), context, apply);
    return reply;
  });
}

/** Each part in a write of its own, after the event loop's turn. */
async function writeInTurns<T>(parts: readonly T[][], context: HandlerContext, apply: (tx: Tx, part: readonly T[]) => void): Promise<void> {
  for (const part of parts) {
    await breathe();
    context.store.write((partTx) => apply(partTx, part));
  }
}

function lookupsFor(tx: Tx): IngestLookups {
  let definitions: readonly ModelDefinition[] | undefined;
  const stored = <R>(found: Map<string, WithEvents<R>>): Map<string, Stored<R>> => {
    const out = new Map<string, Stored<R>>();
    for (const [id, { record, events }] of found) out.set(id, { record, log: asEventLog(events) });
    return out;
  };
  return {
    storedTraces: (ids) => stored(tx.traces.withEvents(ids)),
    storedObservations: (ids) => {
      const out = new Map<string, Stored<ObservationRecord>>();
      for (const [id, { record, events }] of tx.observations.withEvents(ids)) out.set(id, { record, log: unpackObservationLog(events, record) });
      return out;
    },
    storedScores: (ids) => stored(tx.scores.withEvents(ids)),
    seenEvents: (ids) => tx.events.seen(ids),
    prompt: (name, version) => {
      const prompt = tx.prompts.get(name, version);
      return prompt && { id: prompt.id, name: prompt.name, version: prompt.version };
    },
    definitions: () => (definitions ??= projectDefinitions(tx)),
  };
}

function write(tx: Tx, writes: IngestWrites, now: Date): void {
  for (const { record, log } of writes.traces) tx.traces.put(record, log);
  for (const { record, log } of writes.observations) tx.observations.put(record, packObservationLog(log, record));
  for (const { record, log } of writes.scores) tx.scores.put(record, log);
  noteModelUse(tx, writes.observations);
  tx.events.record(writes.eventIds, now.toISOString());
}

export function authOf(request: ServerRequest, context: HandlerContext): IngestAuth {
  // An organization key never reaches here: the pipeline refuses it on every project route.
  return { projectId: context.store.project.id, accessLevel: request.accessLevel === 'scores' ? 'scores' : 'project' };
}

/**
 * Runs events through the batch pipeline and writes the result in the request's transaction: the
 * ingestion route, and the routes the service implements as one ingestion event
 * (POST /api/public/scores).
 */
export function ingestEvents(events: readonly unknown[], tx: Tx, auth: IngestAuth, now: Date): BatchResponse {
  const result = processBatch(events, auth, lookupsFor(tx), { now, count: engineCounter });
  write(tx, result.writes, now);
  return result.response;
}

function ingestBatch(request: ServerRequest, tx: Tx, context: HandlerContext): ServerReply | DeferredReply {
  const parsed = batchRequest.safeParse(request.body);
  if (!parsed.success) return { status: 400, body: { message: 'Invalid request data', errors: parsed.error.issues.map((issue) => issue.message) } };
  const { accepted, rejected } = context.writeMode === 'events_only' ? splitForEventsOnly(parsed.data.batch) : { accepted: parsed.data.batch, rejected: [] };
  const auth = authOf(request, context);
  const now = context.now();
  const most = context.ingestPartEvents ?? INGEST_PART_EVENTS;
  // As processBatch answers, the events checked and the records written a part at a time.
  const answer = (checked: CheckedEvents) => {
    const { events, errors } = checkedBatch(checked);
    const response: BatchResponse = { successes: events.map((event) => ({ id: event.id, status: 201 })), errors: [...errors, ...rejected] };
    return { parts: inParts(groupByEntity(events), (group) => group.events.length, most), reply: { status: 207, body: response } };
  };
  const apply = (partTx: Tx, groups: readonly Group[]) => write(partTx, applyEvents(groups, auth, lookupsFor(partTx), { now, count: engineCounter }, { source: 'batch', dedup: true }), now);
  if (accepted.length <= most || context.inProcess) {
    const { parts, reply } = answer(checkEvents(accepted, auth));
    return applyInParts(parts, tx, context, apply, reply);
  }
  return new DeferredReply(async () => {
    let checked: CheckedEvents | undefined;
    for (let at = 0; at < accepted.length; at += most) {
      await breathe();
      checked = checkEvents(accepted.slice(at, at + most), auth, checked);
    }
    const { parts, reply } = answer(checked!);
    await writeInTurns(parts, context, apply);
    return reply;
  });
}

function header(request: ServerRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The body is read before the request's transaction: a gzip body inflated on the thread pool and
 * within the limit (the service inflates it in its route, without one), then decoded a part at a
 * time with the event loop's turn between (otel/decode.ts). The handler takes the decoded body
 * from `decodedBodies`; its failures are answered here, as the handler would.
 */
async function readOtel(request: ServerRequest, budget: BodyBudget | undefined, context: HandlerContext): Promise<ServerReply | undefined> {
  if (header(request, 'content-encoding')?.includes('gzip')) {
    const inflated = await gunzipBody(request.rawBody, OTLP_MAX_INFLATED_BYTES, budget);
    if (!inflated.ok) {
      if (inflated.reason === 'busy') throw bodiesBusy();
      return failureReply(inflateFailure(inflated.reason, OTLP_MAX_INFLATED_BYTES));
    }
    request.rawBody = inflated.body;
    request.headers = { ...request.headers, 'content-encoding': undefined };
  }
  // An export of too many spans is refused once they are counted, before they are decoded.
  const steps = decodeInParts(request.rawBody, header(request, 'content-type'), maxSpansOf(context));
  await ownTurn();
  let step = steps.next();
  while (!step.done) {
    await breathe();
    step = steps.next();
  }
  if (!step.value.ok) return failureReply(step.value);
  decodedBodies.set(request, step.value);
  return undefined;
}

/** A body the route refuses, as the route answers it. */
const failureReply = (failed: DecodedBody & { ok: false }): ServerReply => ({ status: failed.status, body: { error: failed.error } });

const maxSpansOf = (context: HandlerContext): number => context.maxSpansPerExport ?? OTLP_MAX_SPANS;

/** The OTLP bodies `readOtel` decoded, for their handler. */
const decodedBodies = new WeakMap<ServerRequest, DecodedBody>();

function ingestOtel(request: ServerRequest, tx: Tx, context: HandlerContext): ServerReply | DeferredReply {
  const contentType = header(request, 'content-type');
  // Decoded already by the route's `prepare` (readOtel), or here for a caller in the same process.
  const decoded = decodedBodies.get(request) ?? decodeOtlpBody(request.rawBody, contentType, header(request, 'content-encoding'), { maxInflatedBytes: OTLP_MAX_INFLATED_BYTES });
  if (!decoded.ok) return failureReply(decoded);
  // An OTLP/protobuf client expects an ExportTraceServiceResponse in protobuf: empty is a valid one.
  const ok: ServerReply = contentType?.toLowerCase().includes('application/x-protobuf') ? { status: 200 } : { status: 200, body: {} };
  const spans = decoded.resourceSpans as { length?: unknown } | null | undefined;
  if (!spans || spans.length === 0) return ok;
  const check = checkSpans(spans);
  const rejection = rejectionMessage(check);
  if (rejection) return { status: 400, body: { error: rejection } };
  const maxSpans = maxSpansOf(context);
  if (check.totalSpans > maxSpans) return { status: 413, body: { error: tooManySpans(check.totalSpans, maxSpans) } };
  const version = header(request, 'x-langfuse-ingestion-version') ?? header(request, 'x_langfuse_ingestion_version');
  if (version) {
    const parsed = parseInt(version, 10);
    if (Number.isNaN(parsed) || parsed > 4) return { status: 400, body: { error: `Unsupported x-langfuse-ingestion-version: "${version}". Maximum supported: "4".` } };
  }
  const now = context.now();
  const auth = authOf(request, context);
  const options = { now, count: engineCounter };
  const most = context.ingestPartEvents ?? INGEST_PART_EVENTS;
  // The spans are converted to events a part at a time too (reading only which traces are
  // stored); nothing is written until every span is.
  const conversion = new OtelConversion(spans, auth, options);
  const convert = (readTx: Tx, spanCount: number) => orTooDeep(() => conversion.step(lookupsFor(readTx), spanCount));
  // Then the trace events, then each observation id's spans, a part at a time.
  type Part = { kind: 'traces'; groups: Group[] } | { kind: 'spans'; spans: RawEvent[] };
  const partsOf = (): Part[][] => {
    const events = conversion.events();
    return inParts<Part>(
      [...events.traceGroups.map((group): Part => ({ kind: 'traces', groups: [group] })), ...spansById(events.spans).map((same): Part => ({ kind: 'spans', spans: same }))],
      (part) => (part.kind === 'traces' ? part.groups[0]!.events.length : part.spans.length),
      most,
    );
  };
  const apply = (partTx: Tx, part: readonly Part[]) =>
    orTooDeep(() => {
      const lookups = lookupsFor(partTx);
      const writes = applyOtelTraces(part.flatMap((p) => (p.kind === 'traces' ? p.groups : [])), auth, lookups, options);
      writes.observations = applyOtelSpans(part.flatMap((p) => (p.kind === 'spans' ? p.spans : [])), auth, lookups, options).observations;
      write(partTx, writes, now);
    });
  if (convert(tx, context.inProcess ? Infinity : most)) return applyInParts(partsOf(), tx, context, apply, ok);
  return new DeferredReply(async () => {
    do await breathe();
    while (!context.store.read((readTx) => convert(readTx, most)));
    await writeInTurns(partsOf(), context, apply);
    return ok;
  });
}

/** Attribute values nested deeply enough (protobuf allows it) to exhaust the stack. */
const TOO_DEEP = new HttpError(400, { error: 'Invalid OTLP trace export: attribute values are nested too deeply' });

/** `fn`'s result, with a stack exhausted by nested attribute values answered as TOO_DEEP. */
function orTooDeep<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    if (error instanceof RangeError) throw TOO_DEEP;
    throw error;
  }
}

export const ingestRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/ingestion$/,
    // Auth failures answer {message, error: "UnauthorizedError"}, as the prompt routes do.
    auth: 'prompts',
    // Bearer <public key> may send score-create and sdk-log events; the rest get per-event 401s.
    allowScoresKey: true,
    bodyLimit: '4.5mb',
    groupCommit: true,
    methods: { POST: ingestBatch },
  },
  {
    pattern: /^\/api\/public\/otel\/v1\/traces$/,
    auth: 'project',
    // The service reads the body itself (no body parser, no size limit); this server bounds it.
    bodyParser: 'raw',
    bodyLimit: '32mb',
    prepare: readOtel,
    groupCommit: true,
    methods: { POST: ingestOtel },
  },
];
