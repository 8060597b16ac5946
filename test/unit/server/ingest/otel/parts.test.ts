// OTLP bodies decoded a part at a time give what one decode of the whole body gives: JSON.parse's
// value and failures (and jsonDepth's depth) for OTLP/JSON, the protobuf decoder's value for
// OTLP/protobuf, over seeded random bodies cut into parts of a few bytes; and an export of too
// many spans refused once they are counted, before they are decoded.
import protobuf from 'protobufjs/light.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from '../../../../../src/server/http/body.js';
import { decodeInParts, decodeOtlpBody } from '../../../../../src/server/ingest/otel/decode.js';
import { parseJsonInParts } from '../../../../../src/server/ingest/otel/json-parts.js';
import { OTLP_TRACE_DESCRIPTOR } from '../../../../../src/server/ingest/otel/otlp-schema.js';
import { decodeProtobufInParts } from '../../../../../src/server/ingest/otel/protobuf-parts.js';

afterEach(() => vi.restoreAllMocks());

/** A generator's value, and how many times it yielded. */
function run<T>(steps: Generator<void, T, undefined>): { value: T; yields: number } {
  let yields = 0;
  let step = steps.next();
  while (!step.done) {
    yields++;
    step = steps.next();
  }
  return { value: step.value, yields };
}

/** mulberry32 */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('OTLP/JSON in parts', () => {
  /** JSON text written by hand: random white space, keys escaped now and then, keys given twice. */
  function writer(next: () => number) {
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const space = () => (next() < 0.7 ? '' : pick([' ', '\n', '\t ', '\r\n  ']));
    const escaped = (key: string) => [...key].map((c) => (next() < 0.3 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c)).join('');
    const key = (name: string) => `"${next() < 0.15 ? escaped(name) : name}"`;
    const text = () => JSON.stringify(pick(['', 'hello', 'a "quoted" [word]', 'back\\slash\\', '{not: [json', 'ünïcödé 日本 🎉', '\\"]}', ',']));
    const scalar = () => pick([text(), '0', '-12.5e3', 'true', 'false', 'null']);
    const value = (depth: number): string => {
      const roll = next();
      if (depth > 4 || roll < 0.4) return scalar();
      if (roll < 0.7) return `[${space()}${Array.from({ length: Math.floor(next() * 4) }, () => value(depth + 1)).join(`${space()},${space()}`)}${space()}]`;
      return object(Array.from({ length: Math.floor(next() * 4) }, () => [pick(['a', 'spans', 'scopeSpans', 'value', 'resourceSpans']), value(depth + 1)]));
    };
    const object = (members: Array<[string, string]>) => `{${space()}${members.map(([k, v]) => `${key(k)}${space()}:${space()}${v}`).join(`${space()},${space()}`)}${space()}}`;
    const list = (make: () => string, most: number) => `[${space()}${Array.from({ length: Math.floor(next() * most) }, make).join(`${space()},${space()}`)}${space()}]`;
    /** Members of an object on the path: its list under `name` (sometimes twice, or not an array), and others. */
    const members = (name: string, make: () => string): Array<[string, string]> => {
      const out: Array<[string, string]> = [];
      for (let n = Math.floor(next() * 3); n > 0; n--) out.push([pick(['attributes', 'name', 'schemaUrl', 'scope']), value(2)]);
      const times = next() < 0.1 ? 2 : next() < 0.05 ? 0 : 1;
      for (let n = 0; n < times; n++) out.splice(Math.floor(next() * (out.length + 1)), 0, [name, next() < 0.05 ? scalar() : make()]);
      return out;
    };
    const span = () => (next() < 0.1 ? value(3) : object([['name', text()], ['attributes', value(1)], ['spanId', text()]]));
    const scope = () => (next() < 0.05 ? scalar() : object(members('spans', () => list(span, 12))));
    const resource = () => (next() < 0.05 ? scalar() : object(members('scopeSpans', () => list(scope, 4))));
    return () => `${space()}${next() < 0.03 ? value(0) : object(members('resourceSpans', () => list(resource, 4)))}${space()}`;
  }

  /** What one parse of the whole text gives, in the terms of parseJsonInParts. */
  function whole(text: string) {
    const depth = jsonDepth(text);
    if (depth > MAX_JSON_DEPTH) return { ok: false, depth };
    try {
      return { ok: true, value: JSON.stringify(JSON.parse(text)) };
    } catch {
      return { ok: false };
    }
  }

  function inParts(text: string, partBytes: number) {
    const { value, yields } = run(parseJsonInParts(Buffer.from(text), partBytes));
    return { outcome: value.ok ? { ok: true, value: JSON.stringify(value.value) } : value, yields };
  }

  it('gives JSON.parse’s value, keys in the same order, over 2,000 random bodies', () => {
    const next = random(7);
    const write = writer(next);
    let cut = 0;
    let valid = 0;
    for (let n = 0; n < 2_000; n++) {
      const text = write();
      const expected = whole(text);
      if (expected.ok) valid++;
      for (const partBytes of [1, 5, 64, 1 << 20]) {
        const { outcome, yields } = inParts(text, partBytes);
        expect(outcome, `${text} in parts of ${partBytes}`).toEqual(expected);
        if (partBytes === 1 && yields > 1) cut++;
      }
    }
    expect(valid).toBeGreaterThan(1_900);
    expect(cut).toBeGreaterThan(1_500);
  });

  it('fails where JSON.parse fails, and measures the depth as jsonDepth does, over 4,000 broken bodies', () => {
    const next = random(11);
    const write = writer(next);
    const chars = ['{', '}', '[', ']', ',', ':', '"', '\\', ' ', '0', 'x', 'u'];
    let failed = 0;
    for (let n = 0; n < 4_000; n++) {
      let text = write();
      for (let k = 1 + Math.floor(next() * 2); k > 0; k--) {
        const at = Math.floor(next() * (text.length + 1));
        const roll = next();
        if (roll < 0.4) text = text.slice(0, at) + text.slice(at + 1);
        else if (roll < 0.9) text = text.slice(0, at) + chars[Math.floor(next() * chars.length)] + text.slice(at);
        else text = text.slice(0, at);
      }
      // As the body arrives: a cut in a surrogate pair is a replacement character in UTF-8.
      text = Buffer.from(text).toString('utf8');
      const expected = whole(text);
      if (!expected.ok) failed++;
      for (const partBytes of [1, 3, 1 << 20]) expect(inParts(text, partBytes).outcome, `${text} in parts of ${partBytes}`).toEqual(expected);
    }
    expect(failed).toBeGreaterThan(2_000);
  });

  it('refuses a body nested too deeply before it parses any part', () => {
    const deep = `${'['.repeat(600)}${']'.repeat(600)}`;
    const text = `{"resourceSpans":[{"scopeSpans":[{"spans":[{"a":${deep}}, {"b":1}]}]}]}`;
    expect(jsonDepth(text)).toBe(607);
    expect(inParts(text, 4).outcome).toEqual({ ok: false, depth: 607 });
    expect(decodeOtlpBody(Buffer.from(text), 'application/json', undefined, { maxInflatedBytes: 1e9 })).toEqual({
      ok: false,
      status: 400,
      error: `JSON body is nested 607 levels deep; at most ${MAX_JSON_DEPTH} are accepted`,
    });
  });

  it('cuts an export of many spans into parts of about the size asked', () => {
    const spans = Array.from({ length: 2_000 }, (_, i) => ({ spanId: i.toString(16).padStart(16, '0'), name: `span ${i}`, attributes: [{ key: 'k', value: { stringValue: 'x'.repeat(i % 50) } }] }));
    const body = { resourceSpans: [{ resource: {}, scopeSpans: [{ scope: { name: 's' }, spans: spans.slice(0, 1_500) }, { spans: spans.slice(1_500) }] }] };
    const text = JSON.stringify(body);
    const { outcome, yields } = inParts(text, 10_000);
    expect(outcome).toEqual({ ok: true, value: text });
    // The scan's slices, the rest's parse, and then a turn after each part of 10,000 bytes.
    expect(yields).toBeGreaterThanOrEqual(Math.floor(text.length / 10_000));
    expect(yields).toBeLessThan(text.length / 10_000 + text.length / 40_000 + 4);
  });
});

describe('an export of too many spans', () => {
  const spans = (n: number) => Array.from({ length: n }, (_, i) => ({ spanId: `${i}`, attributes: [{ key: 'k', value: { kvlistValue: { values: [] } } }] }));
  const json = (n: number) => JSON.stringify({ resourceSpans: [{ resource: { attributes: [{ key: 'a', value: {} }] }, scopeSpans: [{ spans: spans(n) }, { spans: [1, 'two', ['an array']] }] }] });

  it('is counted in the scan of a JSON body, its spans arrays’ objects and nothing else, before anything is parsed', () => {
    expect(run(parseJsonInParts(Buffer.from(json(5)), 64, 4)).value).toEqual({ ok: false, spans: 5 });
    expect(run(parseJsonInParts(Buffer.from(json(5)), 64, 5)).value).toEqual({ ok: true, value: JSON.parse(json(5)) });
    // Counted only once the body is known to be well formed and not too deep.
    expect(run(parseJsonInParts(Buffer.from(json(5).slice(0, -1)), 64, 4)).value).toEqual({ ok: false });
  });

  it('is counted in the walk of a protobuf body, before any span is decoded, and answered 413', () => {
    const root = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR as never);
    const request = root.lookupType('otlp.ExportTraceServiceRequest');
    const types = { resourceSpans: root.lookupType('otlp.ResourceSpans'), scopeSpans: root.lookupType('otlp.ScopeSpans'), span: root.lookupType('otlp.Span') };
    const body = Buffer.from(request.encode(request.fromObject({ resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'a' }, { name: 'b' }] }, { spans: [{ name: 'c' }] }] }, { scopeSpans: [{ spans: [{ name: 'd' }] }] }] })).finish());
    const decode = vi.spyOn(types.span, 'decode');
    expect(run(decodeProtobufInParts(body, types, 1, 3)).value).toEqual({ spans: 4 });
    expect(decode).not.toHaveBeenCalled();
    expect(run(decodeProtobufInParts(body, types, 1, 4)).value).toMatchObject({ value: [{}, {}] });
    expect(decode).toHaveBeenCalledTimes(4);
    const answer = run(decodeInParts(body, 'application/x-protobuf', 3)).value;
    expect(answer).toMatchObject({ ok: false, status: 413 });
    expect(!answer.ok && answer.error).toMatch(/^The export has 4 spans; llmobs server takes at most 3 per request, and none of these was ingested\. Send smaller batches/);
    expect(run(decodeInParts(Buffer.from(json(5)), 'application/json', 4)).value).toMatchObject({ ok: false, status: 413 });
  });
});

describe('OTLP/protobuf in parts', () => {
  const root = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR as never);
  const request = root.lookupType('otlp.ExportTraceServiceRequest');
  const types = { resourceSpans: root.lookupType('otlp.ResourceSpans'), scopeSpans: root.lookupType('otlp.ScopeSpans'), span: root.lookupType('otlp.Span') };
  const whole = (body: Buffer) => request.toObject(request.decode(body), { longs: String }).resourceSpans;

  /** A field of any wire type that no message here has (number 99): the decoder skips it. */
  function unknownField(next: () => number): Buffer {
    const writer = protobuf.Writer.create();
    const roll = next();
    if (roll < 0.25) writer.uint32((99 << 3) | 0).uint64(Math.floor(next() * 2 ** 40));
    else if (roll < 0.5) writer.uint32((99 << 3) | 1).fixed64(7);
    else if (roll < 0.75) writer.uint32((99 << 3) | 5).fixed32(7);
    else writer.uint32((99 << 3) | 2).bytes(Buffer.from('skipped'));
    return Buffer.from(writer.finish());
  }

  /** A message's fields, each encoded alone, with unknown fields among them now and then. */
  function message(type: protobuf.Type, value: Record<string, unknown>, next: () => number): Buffer {
    const parts: Buffer[] = [];
    for (const [name, field] of Object.entries(type.fields)) {
      const items = field.repeated ? ((value[name] as unknown[] | undefined) ?? []) : value[name] === undefined ? [] : [value[name]];
      for (const item of items) {
        if (next() < 0.15) parts.push(unknownField(next));
        if (field.resolvedType instanceof protobuf.Type) {
          const inner = name === 'scopeSpans' || name === 'resourceSpans' || name === 'spans' ? message(field.resolvedType, item as Record<string, unknown>, next) : Buffer.from(field.resolvedType.encode(field.resolvedType.fromObject(item as object)).finish());
          parts.push(Buffer.from(protobuf.Writer.create().uint32((field.id << 3) | 2).bytes(inner).finish()));
        } else {
          parts.push(Buffer.from(type.encode(type.fromObject({ [name]: item })).finish()));
        }
      }
    }
    if (next() < 0.15) parts.push(unknownField(next));
    // A message's fields may come in any order; the lists keep theirs.
    for (let i = parts.length - 1; i > 0; i--) {
      if (next() < 0.3) {
        const j = Math.floor(next() * (i + 1));
        [parts[i], parts[j]] = [parts[j]!, parts[i]!];
      }
    }
    return Buffer.concat(parts);
  }

  function randomRequest(next: () => number): Record<string, unknown> {
    const count = (most: number) => Math.floor(next() * most);
    const attributes = () => Array.from({ length: count(3) }, (_, i) => ({ key: `k${i}`, value: next() < 0.5 ? { stringValue: `v${count(100)}` } : { intValue: String(count(1e6)) } }));
    const span = () => ({
      traceId: Buffer.from([1, 2, 3, count(256)]),
      spanId: Buffer.from([count(256), 4]),
      name: `span ${count(100)}`,
      startTimeUnixNano: String(1_700_000_000_000_000_000n + BigInt(count(1e6))),
      attributes: attributes(),
      ...(next() < 0.3 ? { status: { code: 2, message: 'bad' } } : {}),
    });
    const scope = () => ({ ...(next() < 0.7 ? { scope: { name: `scope ${count(5)}`, version: '1' } } : {}), spans: Array.from({ length: count(8) }, span), ...(next() < 0.2 ? { schemaUrl: 'https://s' } : {}) });
    const resource = () => ({ ...(next() < 0.8 ? { resource: { attributes: attributes() } } : {}), scopeSpans: Array.from({ length: count(4) }, scope), ...(next() < 0.2 ? { schemaUrl: 'https://r' } : {}) });
    return { resourceSpans: Array.from({ length: count(4) }, resource) };
  }

  it('gives the decoder’s value over 1,000 random requests, fields in any order, unknown fields among them', () => {
    const next = random(3);
    let cut = 0;
    for (let n = 0; n < 1_000; n++) {
      const body = message(request, randomRequest(next), next);
      const expected = whole(body);
      for (const partBytes of [1, 40, 1 << 20]) {
        const { value, yields } = run(decodeProtobufInParts(body, types, partBytes));
        expect(value, `request ${n}`).toEqual({ value: expected });
        if (partBytes === 1 && yields > 1) cut++;
      }
    }
    expect(cut).toBeGreaterThan(500);
  });

  it('leaves to the decoder in one go a body whose lists are not plainly length-delimited', () => {
    const span = Buffer.from(types.span.encode(types.span.fromObject({ name: 'a' })).finish());
    const scope = Buffer.from(protobuf.Writer.create().uint32((2 << 3) | 2).bytes(span).finish());
    const resource = Buffer.from(protobuf.Writer.create().uint32((2 << 3) | 2).bytes(scope).finish());
    const plain = Buffer.from(protobuf.Writer.create().uint32((1 << 3) | 2).bytes(resource).finish());
    expect(run(decodeProtobufInParts(plain, types)).value).toEqual({ value: whole(plain) });
    // A group (wire type 3, ended by 4) that the decoder skips; a list entry sent as a varint.
    const group = Buffer.concat([Buffer.from([(9 << 3) | 3, 8, 1, (9 << 3) | 4]), plain]);
    expect(run(decodeProtobufInParts(group, types)).value).toBeUndefined();
    expect(decodeOtlpBody(group, 'application/x-protobuf', undefined, { maxInflatedBytes: 1e9 })).toEqual({ ok: true, resourceSpans: whole(group) });
    const varintEntry = Buffer.from([(1 << 3) | 0, 5]);
    expect(run(decodeProtobufInParts(varintEntry, types)).value).toBeUndefined();
    // A resource's schema_url (3) sent as a varint: the decoder reads it as a length all the same.
    const misread = Buffer.concat([Buffer.from([(3 << 3) | 0, 2]), resource]);
    const odd = Buffer.from(protobuf.Writer.create().uint32((1 << 3) | 2).bytes(misread).finish());
    expect(run(decodeProtobufInParts(odd, types)).value).toBeUndefined();
    // Cut short: the walk stops and the decoder fails on it.
    const short = plain.subarray(0, plain.length - 1);
    expect(run(decodeProtobufInParts(short, types)).value).toBeUndefined();
    expect(decodeOtlpBody(short, 'application/x-protobuf', undefined, { maxInflatedBytes: 1e9 })).toEqual({ ok: false, status: 400, error: 'Failed to parse OTel Protobuf Trace' });
  });

  it('ends on every body with bytes changed, with a value or a failure', () => {
    const next = random(5);
    for (let n = 0; n < 1_000; n++) {
      const body = Buffer.from(message(request, randomRequest(next), next));
      for (let k = 1 + Math.floor(next() * 3); k > 0 && body.length > 0; k--) body[Math.floor(next() * body.length)] = Math.floor(next() * 256);
      const decoded = run(decodeInParts(body, 'application/x-protobuf')).value;
      if (decoded.ok) expect(decoded.resourceSpans === undefined || Array.isArray(decoded.resourceSpans)).toBe(true);
      else expect(decoded).toEqual({ ok: false, status: 400, error: 'Failed to parse OTel Protobuf Trace' });
    }
  });
});
