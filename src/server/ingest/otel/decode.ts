// The body of POST /api/public/otel/v1/traces as resourceSpans: gzip first when the content
// encoding says so, then OTLP/JSON or OTLP/protobuf by content type, with the Langfuse route's
// 400 answers. Protobuf is decoded with protobufjs over the OTLP schema, loaded on first use.
// Synchronous: it runs inside the request's store transaction, like every handler.
import { createRequire } from 'node:module';
import { gunzipSync } from 'node:zlib';
import { jsonDepth, MAX_JSON_DEPTH } from '../../http/body.js';
import { OTLP_TRACE_DESCRIPTOR } from './otlp-schema.js';

export type DecodedBody = { ok: true; resourceSpans: unknown } | { ok: false; status: 400 | 413; error: string };

export interface DecodeLimits {
  /** The most bytes a gzip body may inflate to. */
  maxInflatedBytes: number;
}

interface TraceRequestType {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: { longs: StringConstructor }): { resourceSpans?: unknown };
}

let requestType: TraceRequestType | undefined;

function traceRequestType(): TraceRequestType {
  if (!requestType) {
    const protobuf = createRequire(import.meta.url)('protobufjs/light.js') as typeof import('protobufjs/light.js');
    const root = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR as unknown as Parameters<typeof protobuf.Root.fromJSON>[0]);
    requestType = root.lookupType('otlp.ExportTraceServiceRequest') as unknown as TraceRequestType;
  }
  return requestType;
}

export function decodeOtlpBody(body: Buffer, contentType: string | undefined, contentEncoding: string | undefined, limits: DecodeLimits): DecodedBody {
  if (contentEncoding?.includes('gzip')) {
    try {
      body = gunzipSync(body, { maxOutputLength: limits.maxInflatedBytes });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
        return { ok: false, status: 413, error: `Decompressed request body exceeds ${limits.maxInflatedBytes} bytes` };
      }
      return { ok: false, status: 400, error: 'Failed to decompress request body' };
    }
  }
  const type = contentType?.toLowerCase();
  if (!type || (!type.includes('application/json') && !type.includes('application/x-protobuf'))) {
    return { ok: false, status: 400, error: 'Invalid content type' };
  }
  let resourceSpans: unknown;
  if (type.includes('application/x-protobuf')) {
    try {
      const request = traceRequestType();
      // As OTLP/JSON does, 64-bit integers come out as decimal strings; ids stay bytes.
      resourceSpans = request.toObject(request.decode(body), { longs: String }).resourceSpans;
    } catch {
      return { ok: false, status: 400, error: 'Failed to parse OTel Protobuf Trace' };
    }
  }
  if (type.includes('application/json')) {
    const text = body.toString('utf8');
    // Nothing that deep is OTLP; refused before the parse and the walk over it could overflow.
    const depth = jsonDepth(text);
    if (depth > MAX_JSON_DEPTH) return { ok: false, status: 400, error: `JSON body is nested ${depth} levels deep; at most ${MAX_JSON_DEPTH} are accepted` };
    try {
      resourceSpans = (JSON.parse(text) as { resourceSpans?: unknown }).resourceSpans;
    } catch {
      return { ok: false, status: 400, error: 'Failed to parse OTel JSON Trace' };
    }
  }
  return { ok: true, resourceSpans };
}
