// The body of POST /api/public/otel/v1/traces as resourceSpans: gzip first when the content
// encoding says so, then OTLP/JSON or OTLP/protobuf by content type, with the Langfuse route's
// 400 answers. Protobuf is decoded with protobufjs over the OTLP schema, loaded on first use.
// The server decodes a part at a time before the handler runs (decodeInParts); a caller in the
// same process decodes in one call (decodeOtlpBody).
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import type { Type } from 'protobufjs/light.js';
import { MAX_JSON_DEPTH } from '../../http/body.js';
import { parseJsonInParts } from './json-parts.js';
import { OTLP_TRACE_DESCRIPTOR } from './otlp-schema.js';
import { decodeProtobufInParts, type SpanTypes } from './protobuf-parts.js';

export type DecodedBody = { ok: true; resourceSpans: unknown } | { ok: false; status: 400 | 413; error: string };

export interface DecodeLimits {
  /** The most bytes a gzip body may inflate to. */
  maxInflatedBytes: number;
}

interface OtlpTypes extends SpanTypes {
  request: Type;
}

let types: OtlpTypes | undefined;

function otlpTypes(): OtlpTypes {
  if (!types) {
    const protobuf = createRequire(import.meta.url)('protobufjs/light.js') as typeof import('protobufjs/light.js');
    const root = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR as unknown as Parameters<typeof protobuf.Root.fromJSON>[0]);
    types = {
      request: root.lookupType('otlp.ExportTraceServiceRequest'),
      resourceSpans: root.lookupType('otlp.ResourceSpans'),
      scopeSpans: root.lookupType('otlp.ScopeSpans'),
      span: root.lookupType('otlp.Span'),
    };
  }
  return types;
}

/** The answer to a gzip body that inflates to more than `limit` bytes, or that is not gzip. */
export function inflateFailure(reason: 'too-large' | 'corrupt', limit: number): DecodedBody & { ok: false } {
  if (reason === 'too-large') return { ok: false, status: 413, error: `Decompressed request body exceeds ${limit} bytes` };
  return { ok: false, status: 400, error: 'Failed to decompress request body' };
}

/** The body whole: gzip inflated (within the limit), then decoded in one call of `decodeInParts`. */
export function decodeOtlpBody(body: Buffer, contentType: string | undefined, contentEncoding: string | undefined, limits: DecodeLimits): DecodedBody {
  if (contentEncoding?.includes('gzip')) {
    try {
      body = gunzipSync(body, { maxOutputLength: limits.maxInflatedBytes });
    } catch (error) {
      return inflateFailure((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'corrupt', limits.maxInflatedBytes);
    }
  }
  const steps = decodeInParts(body, contentType);
  let step = steps.next();
  while (!step.done) step = steps.next();
  return step.value;
}

/** The 413 answer's text for an export of `spans` spans, more than `most`. */
export function tooManySpans(spans: number, most: number): string {
  return `The export has ${spans} spans; llmobs server takes at most ${most} per request, and none of these was ingested. Send smaller batches (OTEL_BSP_MAX_EXPORT_BATCH_SIZE in the SDKs, send_batch_max_size in the Collector).`;
}

/**
 * A body already inflated, decoded a part at a time (json-parts.ts, protobuf-parts.ts): the
 * generator yields between parts, and returns what one decode of the whole body gives. An
 * export of more than `maxSpans` spans is answered 413 once they are counted, before any is
 * decoded (a JSON body counts the objects in its `spans` arrays).
 */
export function* decodeInParts(body: Buffer, contentType: string | undefined, maxSpans = Infinity): Generator<void, DecodedBody, undefined> {
  const type = contentType?.toLowerCase();
  if (!type || (!type.includes('application/json') && !type.includes('application/x-protobuf'))) {
    return { ok: false, status: 400, error: 'Invalid content type' };
  }
  let resourceSpans: unknown;
  if (type.includes('application/x-protobuf')) {
    try {
      const { request, ...spanTypes } = otlpTypes();
      const walked = yield* decodeProtobufInParts(body, spanTypes, undefined, maxSpans);
      if (walked && 'spans' in walked) return { ok: false, status: 413, error: tooManySpans(walked.spans, maxSpans) };
      // As OTLP/JSON does, 64-bit integers come out as decimal strings; ids stay bytes.
      resourceSpans = walked ? walked.value : request.toObject(request.decode(body), { longs: String }).resourceSpans;
    } catch {
      return { ok: false, status: 400, error: 'Failed to parse OTel Protobuf Trace' };
    }
  }
  if (type.includes('application/json')) {
    // Nothing that deep is OTLP; refused before the parse and the walk over it could overflow.
    const parsed = yield* parseJsonInParts(body, undefined, maxSpans);
    if (!parsed.ok && parsed.depth !== undefined) return { ok: false, status: 400, error: `JSON body is nested ${parsed.depth} levels deep; at most ${MAX_JSON_DEPTH} are accepted` };
    if (!parsed.ok && parsed.spans !== undefined) return { ok: false, status: 413, error: tooManySpans(parsed.spans, maxSpans) };
    // `null` has no resourceSpans to read either.
    if (!parsed.ok || parsed.value === null) return { ok: false, status: 400, error: 'Failed to parse OTel JSON Trace' };
    resourceSpans = (parsed.value as { resourceSpans?: unknown }).resourceSpans;
  }
  return { ok: true, resourceSpans };
}
