// An OTLP/protobuf body decoded a part at a time, so that an export of many spans never holds
// the event loop for its whole decode. The wire format gives every message's length: the
// request's resource spans, their scope spans and the scopes' spans are found by walking the
// fields, each resource and scope is decoded without its list (the fields it holds besides), and
// the spans about PROTOBUF_PART_BYTES at a time. The generator yields between parts.
//
// The value is the one decoder's over the whole body (`toObject` with `longs: String`), which
// reads a message field as length-delimited whatever its wire type says. A body whose lists are
// not plainly length-delimited, or whose lengths overrun, is left to that decoder in one go
// (`undefined`): no client sends such a body. Only a malformed message inside (its own fields
// running past its length, which the whole decode reads on through) may come out otherwise:
// decoded alone, it fails.
import type { Type } from 'protobufjs/light.js';

/** About how many bytes of spans one part decodes. */
const PROTOBUF_PART_BYTES = 256 * 1024;

const OPTIONS = { longs: String };

/** The message types the parts are decoded with. */
export interface SpanTypes {
  resourceSpans: Type;
  scopeSpans: Type;
  span: Type;
}

/** A message's fields: the ranges of the list's entries, and the bytes of every other field. */
interface Fields {
  list: Array<[number, number]>;
  rest: Buffer[];
}

/**
 * The request's `resourceSpans`; or, with more than `maxSpans` spans, their number, before any is
 * decoded; or undefined when the body is not plain enough to walk. Throws what the decoder throws.
 */
export function* decodeProtobufInParts(body: Buffer, types: SpanTypes, partBytes = PROTOBUF_PART_BYTES, maxSpans = Infinity): Generator<void, { value: unknown } | { spans: number } | undefined, undefined> {
  // ExportTraceServiceRequest: resource_spans = 1.
  const request = fields(body, 0, body.length, 1);
  if (!request) return undefined;
  const walked: Array<{ rest: Buffer[]; scopes: Array<{ rest: Buffer[]; spans: Array<[number, number]> }> }> = [];
  let spanCount = 0;
  for (const [start, end] of request.list) {
    // ResourceSpans and ScopeSpans: the list is field 2; resource or scope 1 and schema_url 3.
    const resource = fields(body, start, end, 2, [1, 3]);
    if (!resource) return undefined;
    const scopes = [];
    for (const [scopeStart, scopeEnd] of resource.list) {
      const scope = fields(body, scopeStart, scopeEnd, 2, [1, 3]);
      if (!scope) return undefined;
      scopes.push({ rest: scope.rest, spans: scope.list });
      spanCount += scope.list.length;
    }
    walked.push({ rest: resource.rest, scopes });
  }
  if (spanCount > maxSpans) return { spans: spanCount };
  if (walked.length === 0) return { value: undefined };
  const resourceSpans: unknown[] = [];
  let work = 0;
  for (const resource of walked) {
    const decoded = types.resourceSpans.toObject(types.resourceSpans.decode(Buffer.concat(resource.rest)), OPTIONS);
    if (resource.scopes.length > 0) decoded.scopeSpans = [];
    for (const scope of resource.scopes) {
      const decodedScope = types.scopeSpans.toObject(types.scopeSpans.decode(Buffer.concat(scope.rest)), OPTIONS);
      if (scope.spans.length > 0) {
        const spans: unknown[] = (decodedScope.spans = []);
        for (const [spanStart, spanEnd] of scope.spans) {
          spans.push(types.span.toObject(types.span.decode(body.subarray(spanStart, spanEnd)), OPTIONS));
          work += spanEnd - spanStart;
          if (work >= partBytes) {
            work = 0;
            yield;
          }
        }
      }
      (decoded.scopeSpans as unknown[]).push(decodedScope);
    }
    resourceSpans.push(decoded);
  }
  return { value: resourceSpans };
}

/**
 * The fields of the message in `start`..`end`, the entries of field `list` apart; undefined if it
 * is not plain: a field the decoder reads as length-delimited (`list`, and `delimited`) sent as
 * another wire type, a group, or a tag or length the decoder would read otherwise.
 */
function fields(body: Buffer, start: number, end: number, list: number, delimited: readonly number[] = []): Fields | undefined {
  const out: Fields = { list: [], rest: [] };
  let at = start;
  while (at < end) {
    const fieldStart = at;
    const tag = uint32(body, at, end);
    if (!tag) return undefined;
    at = tag.next;
    const wireType = tag.value & 7;
    const field = tag.value >>> 3;
    if ((field === list || delimited.includes(field)) && wireType !== 2) return undefined;
    if (wireType === 0) {
      at = skipVarint(body, at, end);
    } else if (wireType === 1) at += 8;
    else if (wireType === 5) at += 4;
    else if (wireType === 2) {
      const length = uint32(body, at, end);
      if (!length) return undefined;
      at = length.next + length.value;
      if (field === list && at <= end) {
        out.list.push([length.next, at]);
        continue;
      }
    } else return undefined;
    if (at > end) return undefined;
    out.rest.push(body.subarray(fieldStart, at));
  }
  return out;
}

/** A varint of at most 5 bytes below 2^32, as the decoder reads tags and lengths; undefined otherwise. */
function uint32(body: Buffer, at: number, end: number): { value: number; next: number } | undefined {
  let value = 0;
  for (let i = at, shift = 0; i < end && shift < 35; i++, shift += 7) {
    const byte = body[i]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value < 2 ** 32 ? { value, next: i + 1 } : undefined;
  }
  return undefined;
}

/** The offset after the varint at `at` (at most 10 bytes), or past `end` when it does not end in time. */
function skipVarint(body: Buffer, at: number, end: number): number {
  for (let i = at; i < end && i < at + 10; i++) if (body[i]! < 0x80) return i + 1;
  return end + 1;
}
