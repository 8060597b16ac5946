// The ingestion routes: POST /api/public/ingestion (batch) and POST /api/public/otel/v1/traces
// (OTLP over HTTP). Each runs the pure pipeline over lookups into the request's transaction and
// writes what it returns in that same transaction, so a request is stored whole or not at all.
// The service processes both asynchronously; here the data is readable when the answer arrives.
// The write mode changes one thing here: events_only takes only score and log events on the batch
// route (events-only.ts). OTLP is taken alike in every mode.
import type { ModelDefinition } from '../../core/models/types.js';
import { engineCounter } from '../../tokenizer/index.js';
import { projectDefinitions } from '../handlers/models.js';
import { type BodyBudget, bodiesBusy } from '../http/body.js';
import { gunzipBody } from '../http/inflate.js';
import type { HandlerContext, Route, ServerReply, ServerRequest } from '../http/router.js';
import type { ObservationRecord } from '../records.js';
import type { Tx, WithEvents } from '../store/index.js';
import { processBatch } from './batch.js';
import { asEventLog } from './event-log.js';
import { splitForEventsOnly } from './events-only.js';
import { noteModelUse } from './model-use.js';
import { packObservationLog, unpackObservationLog } from './log-pack.js';
import { checkSpans, decodeOtlpBody, processOtel, rejectionMessage } from './otel/index.js';
import { batchRequest } from './schemas.js';
import type { BatchResponse, IngestAuth, IngestLookups, IngestWrites, Stored } from './types.js';

/**
 * The most an OTLP body may inflate to when sent with gzip: the route's own limit, so that a
 * compressed body carries no more than an uncompressed one may.
 */
export const OTLP_MAX_INFLATED_BYTES = 32 * 1024 * 1024;

/**
 * The most spans one OTLP export may carry. Requests are processed whole and synchronously, and a
 * 32 MB protobuf body holds a million tiny spans: minutes of work and gigabytes of memory for one
 * request. Exporters send far fewer per request (the SDKs' batch processors 512, the Collector's
 * batch processor 8,192 by default).
 */
export const OTLP_MAX_SPANS = 20_000;

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

function ingestBatch(request: ServerRequest, tx: Tx, context: HandlerContext): ServerReply {
  const parsed = batchRequest.safeParse(request.body);
  if (!parsed.success) return { status: 400, body: { message: 'Invalid request data', errors: parsed.error.issues.map((issue) => issue.message) } };
  if (context.writeMode !== 'events_only') return { status: 207, body: ingestEvents(parsed.data.batch, tx, authOf(request, context), context.now()) };
  const { accepted, rejected } = splitForEventsOnly(parsed.data.batch);
  const response = ingestEvents(accepted, tx, authOf(request, context), context.now());
  return { status: 207, body: { successes: response.successes, errors: [...response.errors, ...rejected] } };
}

function header(request: ServerRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * A gzip body is inflated before the request's transaction, on the thread pool and within the
 * limit (the service inflates it in its route, without one). The handler then sees the body as
 * if it had been sent plain.
 */
async function inflateOtel(request: ServerRequest, budget: BodyBudget | undefined): Promise<ServerReply | undefined> {
  if (!header(request, 'content-encoding')?.includes('gzip')) return undefined;
  const inflated = await gunzipBody(request.rawBody, OTLP_MAX_INFLATED_BYTES, budget);
  if (inflated.ok) {
    request.rawBody = inflated.body;
    request.headers = { ...request.headers, 'content-encoding': undefined };
    return undefined;
  }
  if (inflated.reason === 'busy') throw bodiesBusy();
  if (inflated.reason === 'too-large') return { status: 413, body: { error: `Decompressed request body exceeds ${OTLP_MAX_INFLATED_BYTES} bytes` } };
  return { status: 400, body: { error: 'Failed to decompress request body' } };
}

function ingestOtel(request: ServerRequest, tx: Tx, context: HandlerContext): ServerReply {
  const contentType = header(request, 'content-type');
  const decoded = decodeOtlpBody(request.rawBody, contentType, header(request, 'content-encoding'), { maxInflatedBytes: OTLP_MAX_INFLATED_BYTES });
  if (!decoded.ok) return { status: decoded.status, body: { error: decoded.error } };
  // An OTLP/protobuf client expects an ExportTraceServiceResponse in protobuf: empty is a valid one.
  const ok: ServerReply = contentType?.toLowerCase().includes('application/x-protobuf') ? { status: 200 } : { status: 200, body: {} };
  const spans = decoded.resourceSpans as { length?: unknown } | null | undefined;
  if (!spans || spans.length === 0) return ok;
  const check = checkSpans(spans);
  const rejection = rejectionMessage(check);
  if (rejection) return { status: 400, body: { error: rejection } };
  const maxSpans = context.maxSpansPerExport ?? OTLP_MAX_SPANS;
  if (check.totalSpans > maxSpans) {
    return {
      status: 413,
      body: {
        error: `The export has ${check.totalSpans} spans; llmobs server takes at most ${maxSpans} per request, and none of these was ingested. Send smaller batches (OTEL_BSP_MAX_EXPORT_BATCH_SIZE in the SDKs, send_batch_max_size in the Collector).`,
      },
    };
  }
  const version = header(request, 'x-langfuse-ingestion-version') ?? header(request, 'x_langfuse_ingestion_version');
  if (version) {
    const parsed = parseInt(version, 10);
    if (Number.isNaN(parsed) || parsed > 4) return { status: 400, body: { error: `Unsupported x-langfuse-ingestion-version: "${version}". Maximum supported: "4".` } };
  }
  const now = context.now();
  let result: ReturnType<typeof processOtel>;
  try {
    result = processOtel(spans, authOf(request, context), lookupsFor(tx), { now, count: engineCounter });
  } catch (error) {
    // Attribute values nested deeply enough (protobuf allows it) to exhaust the stack.
    if (error instanceof RangeError) return { status: 400, body: { error: 'Invalid OTLP trace export: attribute values are nested too deeply' } };
    throw error;
  }
  write(tx, result.writes, now);
  return ok;
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
    prepare: inflateOtel,
    groupCommit: true,
    methods: { POST: ingestOtel },
  },
];
