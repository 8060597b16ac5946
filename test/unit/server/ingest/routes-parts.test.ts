// A large ingestion request is written a part at a time (each part in a transaction of its own,
// with the event loop's turn between): what it stores and answers are those of one go, on both
// routes, and sending it again changes nothing.
import protobuf from 'protobufjs/light.js';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { OTLP_TRACE_DESCRIPTOR } from '../../../../src/server/ingest/otel/otlp-schema.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { Store } from '../../../../src/server/store/index.js';
import { basicAuth } from '../../../helpers/server-api.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

/** 12 traces, each updated twice, with 6 generations created then updated, scores, a bad event and a log. */
function batch(): unknown[] {
  const events: unknown[] = [];
  for (let t = 0; t < 12; t++) {
    events.push({ id: `t-${t}-a`, type: 'trace-create', timestamp: iso(T0 + t), body: { id: `trace-${t}`, name: 'chat', userId: `u-${t % 3}`, metadata: { step: 1 } } });
    for (let g = 0; g < 6; g++) {
      const id = `gen-${t}-${g}`;
      events.push({ id: `${id}-c`, type: 'generation-create', timestamp: iso(T0 + t * 100 + g), body: { id, traceId: `trace-${t}`, name: 'call', model: 'gpt-4o', startTime: iso(T0 + t * 100 + g), input: [{ role: 'user', content: `q ${t} ${g}` }] } });
      events.push({ id: `${id}-u`, type: 'generation-update', timestamp: iso(T0 + t * 100 + g + 1), body: { id, traceId: `trace-${t}`, output: `a ${t} ${g}`, usageDetails: { input: 10 + g, output: 5 }, endTime: iso(T0 + t * 100 + g + 500) } });
    }
    events.push({ id: `t-${t}-b`, type: 'trace-create', timestamp: iso(T0 + t + 50), body: { id: `trace-${t}`, metadata: { step: 2 }, tags: ['x'] } });
    events.push({ id: `s-${t}`, type: 'score-create', timestamp: iso(T0 + t), body: { id: `score-${t}`, traceId: `trace-${t}`, name: 'quality', value: t / 10 } });
  }
  events.push({ id: 'bad', type: 'generation-create', timestamp: 'not a time', body: {} });
  events.push({ id: 'log', type: 'sdk-log', timestamp: iso(T0), body: { log: 'hello' } });
  // An event sent twice in the same request.
  events.push({ id: 't-0-a', type: 'trace-create', timestamp: iso(T0), body: { id: 'trace-0', name: 'chat', userId: 'u-0', metadata: { step: 1 } } });
  return events;
}

/** An OTLP/JSON export: 6 traces of a root span and 10 children (`children`), one child sent twice, each span's input `inputBytes` long. */
function otlp(children = 10, inputBytes = 0): { resourceSpans: Array<{ resource: unknown; scopeSpans: Array<{ scope: unknown; spans: unknown[] }> }> } {
  const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
  const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const resourceSpans = [];
  for (let t = 0; t < 6; t++) {
    const traceId = hex(t + 1, 32);
    const spans = [];
    for (let s = 0; s < children + 1; s++) {
      const start = BigInt(T0 + t * 1000 + s) * 1_000_000n;
      const input = inputBytes > 0 ? [attr('langfuse.observation.input', `${s} ${'x'.repeat(inputBytes)}`)] : [];
      spans.push({ traceId, spanId: hex(t * 1000 + s + 1, 16), ...(s > 0 ? { parentSpanId: hex(t * 1000 + 1, 16) } : {}), name: `span-${s}`, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 1_000_000n), attributes: [attr('user.id', `u-${t}`), ...(s > 0 ? [attr('langfuse.observation.type', 'generation'), attr('gen_ai.request.model', 'gpt-4o')] : []), ...input] });
    }
    spans.push({ ...spans[3]!, attributes: [...spans[3]!.attributes, attr('langfuse.observation.output', 'later')] });
    resourceSpans.push({ resource: { attributes: [attr('service.name', 'app')] }, scopeSpans: [{ scope: { name: 'langfuse-sdk' }, spans }] });
  }
  return { resourceSpans };
}

const servers: Record<string, RunningServer> = {};
beforeAll(async () => {
  for (const mode of ['dual', 'events_only'] as const) {
    servers[`${mode}-parts`] = await startServer({ port: 0, ephemeral: true, writeMode: mode, now: () => NOW, ingestPartEvents: 7 });
    servers[`${mode}-whole`] = await startServer({ port: 0, ephemeral: true, writeMode: mode, now: () => NOW });
  }
  for (const name of ['json', 'protobuf', 'small']) servers[name] = await startServer({ port: 0, ephemeral: true, writeMode: 'events_only', now: () => NOW });
});
afterAll(async () => {
  for (const server of Object.values(servers)) await server.close();
});
afterEach(() => vi.restoreAllMocks());

async function post(server: RunningServer, path: string, body: unknown, type = 'application/json'): Promise<{ status: number; text: string }> {
  const sent = type === 'application/json' ? JSON.stringify(body) : (body as Buffer);
  const answer = await fetch(`${server.url}${path}`, { method: 'POST', headers: { authorization: basicAuth(server), 'content-type': type }, body: sent });
  return { status: answer.status, text: await answer.text() };
}

/** What a server holds, as its read routes give it (those its write mode has), without its own project. */
async function held(server: RunningServer, mode: 'dual' | 'events_only' = 'dual'): Promise<string> {
  const read = async (path: string) => {
    const answer = await fetch(`${server.url}${path}`, { headers: { authorization: basicAuth(server) } });
    expect(answer.status, path).toBe(200);
    return JSON.parse(await answer.text(), (key, value: unknown) => (key === 'projectId' || key === 'htmlPath' ? undefined : value)) as unknown;
  };
  const paths = [
    '/api/public/v2/observations?limit=1000&fields=core,basic,time,io,metadata,model,usage,prompt,metrics,trace_context',
    ...(mode === 'dual' ? ['/api/public/traces?limit=100&fields=core,io,scores,observations,metrics'] : []),
    '/api/public/v3/scores?limit=100&fields=core,details,subject',
  ];
  const answers = [];
  for (const path of paths) answers.push(await read(path));
  return JSON.stringify(answers);
}

describe('a large ingestion request written a part at a time', () => {
  it('answers and stores on the batch route what one go does, and a retry changes nothing', async () => {
    const writes = vi.spyOn(Store.prototype, 'write');
    const parts = await post(servers['dual-parts']!, '/api/public/ingestion', { batch: batch() });
    expect(writes.mock.calls.length).toBeGreaterThan(20);
    writes.mockClear();
    const whole = await post(servers['dual-whole']!, '/api/public/ingestion', { batch: batch() });
    expect(writes).not.toHaveBeenCalled();
    expect(parts.status).toBe(207);
    expect(parts.text).toBe(whole.text);
    expect(JSON.parse(parts.text).errors.map((e: { id: string }) => e.id)).toEqual(['bad']);
    const stored = await held(servers['dual-parts']!);
    expect(stored).toBe(await held(servers['dual-whole']!));
    expect(stored).toContain('"output":"a 11 5"');
    const again = await post(servers['dual-parts']!, '/api/public/ingestion', { batch: batch() });
    expect(again.text).toBe(parts.text);
    expect(await held(servers['dual-parts']!)).toBe(stored);
  });

  it('stores on the OTLP route what one go does', async () => {
    const writes = vi.spyOn(Store.prototype, 'write');
    const parts = await post(servers['events_only-parts']!, '/api/public/otel/v1/traces', otlp());
    expect(writes.mock.calls.length).toBeGreaterThan(8);
    const whole = await post(servers['events_only-whole']!, '/api/public/otel/v1/traces', otlp());
    expect([parts.status, whole.status]).toEqual([200, 200]);
    const stored = await held(servers['events_only-parts']!, 'events_only');
    expect(stored).toBe(await held(servers['events_only-whole']!, 'events_only'));
    expect(stored).toContain('"output":"later"');
  });

  it('decodes a large OTLP export a part at a time, as JSON and as protobuf, and stores what small exports do', async () => {
    const spans = otlp(140, 1_500);
    const json = JSON.stringify(spans);
    // More than one part of each: 1 MB of JSON, 256 kB of protobuf.
    expect(json.length).toBeGreaterThan(1.2 * 1024 * 1024);
    const request = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR as never).lookupType('otlp.ExportTraceServiceRequest');
    const withBytes = JSON.parse(json, (key, value: unknown) => (['traceId', 'spanId', 'parentSpanId'].includes(key) ? Buffer.from(value as string, 'hex') : value));
    const encoded = Buffer.from(request.encode(request.fromObject(withBytes)).finish());
    expect((await post(servers.json!, '/api/public/otel/v1/traces', spans)).status).toBe(200);
    expect((await post(servers.protobuf!, '/api/public/otel/v1/traces', encoded, 'application/x-protobuf')).status).toBe(200);
    for (const resource of spans.resourceSpans) {
      const scope = resource.scopeSpans[0]!;
      for (let at = 0; at < scope.spans.length; at += 50) {
        const small = { resourceSpans: [{ ...resource, scopeSpans: [{ ...scope, spans: scope.spans.slice(at, at + 50) }] }] };
        expect((await post(servers.small!, '/api/public/otel/v1/traces', small)).status).toBe(200);
      }
    }
    const stored = await held(servers.small!, 'events_only');
    expect(stored).toContain('"input":"140 xxx');
    expect(await held(servers.json!, 'events_only')).toBe(stored);
    expect(await held(servers.protobuf!, 'events_only')).toBe(stored);
  });
});
