// The ingestion routes over HTTP on the real server: answers, auth, limits, and what lands in
// the store (read back by opening the data directory after the server closed).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { MAX_JSON_DEPTH } from '../../../../src/server/http/body.js';
import { Store } from '../../../../src/server/store/index.js';

let server: RunningServer;
let dataDir: string;
const basic = () => `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`;

async function post(path: string, body: string | Buffer, headers: Record<string, string> = {}) {
  const response = await fetch(server.url + path, { method: 'POST', headers: { authorization: basic(), 'content-type': 'application/json', ...headers }, body });
  const text = await response.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  return { status: response.status, body: parsed, headers: response.headers };
}

const now = new Date().toISOString();
const event = (id: string, type: string, body: Record<string, unknown>) => ({ id, type, timestamp: now, body });

function otlp(traceId: string, spanId: string, attributes: Array<{ key: string; value: unknown }>) {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'app' } }] },
        scopeSpans: [{ scope: { name: 'app' }, spans: [{ traceId, spanId, name: 'llm', startTimeUnixNano: '1772366400000000000', endTimeUnixNano: '1772366401000000000', attributes }] }],
      },
    ],
  };
}

const varint = (n: number): number[] => {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n >>>= 7;
  }
  out.push(n);
  return out;
};
const field = (tag: number, bytes: number[]): number[] => [tag, ...varint(bytes.length), ...bytes];

/** An export whose one attribute value is an array nested `levels` deep (OTLP field numbers). */
function nestedProtobuf(levels: number): Buffer {
  // Built outside in, in one pass: AnyValue.arrayValue (0x2a) holding ArrayValue.values (0x0a).
  const anyLength: number[] = [0];
  const arrayLength: number[] = [0];
  for (let i = 1; i <= levels; i++) {
    arrayLength[i] = 1 + varint(anyLength[i - 1]!).length + anyLength[i - 1]!;
    anyLength[i] = 1 + varint(arrayLength[i]!).length + arrayLength[i]!;
  }
  const value: number[] = [];
  for (let i = levels; i >= 1; i--) value.push(0x2a, ...varint(arrayLength[i]!), 0x0a, ...varint(anyLength[i - 1]!));
  const keyValue = [...field(0x0a, [0x6b]), ...field(0x12, value)];
  const span = [...field(0x0a, new Array(16).fill(1)), ...field(0x12, new Array(8).fill(2)), ...field(0x4a, keyValue)];
  return Buffer.from(field(0x0a, field(0x12, field(0x12, span))));
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'llmobs-ingest-routes-'));
  // The batch route as v3 clients use it (every event type), read back with the v1 routes: legacy
  // mode. What the other modes change is in events-only.test.ts and handlers/removed-routes.test.ts.
  server = await startServer({ port: 0, dataDir, writeMode: 'legacy' });
});

afterAll(async () => {
  await server?.close();
});

describe('POST /api/public/ingestion', () => {
  it('answers 207 with per-event results', async () => {
    const answer = await post(
      '/api/public/ingestion',
      JSON.stringify({
        batch: [
          event('e1', 'trace-create', { id: 'route-trace', name: 'checkout' }),
          event('e2', 'generation-create', { id: 'route-gen', traceId: 'route-trace', model: 'gpt-4o', usageDetails: { input: 1000, output: 100 } }),
          event('e3', 'generation-create', { id: 'bad', promptVersion: 1 }),
        ],
      }),
    );
    expect(answer.status).toBe(207);
    expect(answer.body.successes).toEqual([
      { id: 'e1', status: 201 },
      { id: 'e2', status: 201 },
    ]);
    expect(answer.body.errors).toEqual([{ id: 'e3', status: 400, message: 'Invalid request data', error: expect.stringContaining('"code": "custom"') }]);
  });

  it('one generation whose input is JSON text nested too deeply fails its count, not the whole batch', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const answer = await post(
      '/api/public/ingestion',
      JSON.stringify({
        batch: [
          event('deep-1', 'generation-create', { id: 'deep-gen', traceId: 'deep-trace', model: 'gpt-4o', input: deep }),
          event('deep-2', 'generation-create', { id: 'fine-gen', traceId: 'deep-trace', model: 'gpt-4o', input: 'hello there' }),
        ],
      }),
    );
    expect(answer.status).toBe(207);
    expect(answer.body).toEqual({ successes: [{ id: 'deep-1', status: 201 }, { id: 'deep-2', status: 201 }], errors: [] });
    const read = async (id: string) => (await fetch(`${server.url}/api/public/observations/${id}`, { headers: { authorization: basic() } })).json() as Promise<any>;
    expect((await read('deep-gen')).usageDetails).toEqual({});
    expect((await read('fine-gen')).usageDetails).toMatchObject({ input: 2 });
  });

  it('answers 400 when batch is not an array', async () => {
    const answer = await post('/api/public/ingestion', JSON.stringify({ batch: {} }));
    expect(answer).toMatchObject({ status: 400, body: { message: 'Invalid request data', errors: ['Invalid input: expected array, received object'] } });
  });

  it('refuses a request without valid credentials, and lets a public key alone send scores', async () => {
    const none = await fetch(`${server.url}/api/public/ingestion`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"batch":[]}' });
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ message: 'No authorization header', error: 'UnauthorizedError' });
    const scoped = await post(
      '/api/public/ingestion',
      JSON.stringify({ batch: [event('s1', 'score-create', { id: 'route-score', name: 'ok', value: 1, traceId: 'route-trace' }), event('t1', 'trace-create', { id: 'x' })] }),
      { authorization: `Bearer ${server.keys.publicKey}` },
    );
    expect(scoped.body).toEqual({ successes: [{ id: 's1', status: 201 }], errors: [{ id: 't1', status: 401, message: 'Authentication error', error: 'Access Scope Denied' }] });
  });

  it('refuses bodies over 4.5 MB', async () => {
    const big = JSON.stringify({ batch: [event('big', 'trace-create', { id: 'big', input: 'x'.repeat(5 * 1024 * 1024) })] });
    const answer = await post('/api/public/ingestion', big);
    expect(answer.status).toBe(413);
  });
});

describe('POST /api/public/otel/v1/traces', () => {
  it('takes OTLP/JSON, plain and gzip', async () => {
    const plain = await post('/api/public/otel/v1/traces', JSON.stringify(otlp('aaaa0000aaaa0000aaaa0000aaaa0000', 'bbbb0000bbbb0000', [{ key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } }])));
    expect(plain).toMatchObject({ status: 200, body: {} });
    const zipped = await post(
      '/api/public/otel/v1/traces',
      gzipSync(JSON.stringify(otlp('cccc0000cccc0000cccc0000cccc0000', 'dddd0000dddd0000', [{ key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o-mini' } }]))),
      { 'content-encoding': 'gzip' },
    );
    expect(zipped.status).toBe(200);
  });

  it('answers 413 for a gzip body that inflates past the limit, 400 for a corrupt one', async () => {
    // 65 KB that inflates to 64 MB: refused at 32 MB (gunzipBody, inflate.test.ts: off the event loop).
    const bomb = gzipSync(Buffer.from(`{"resourceSpans":[${' '.repeat(64 * 1024 * 1024)}]}`), { level: 9 });
    const answer = await post('/api/public/otel/v1/traces', bomb, { 'content-encoding': 'gzip' });
    expect(answer).toMatchObject({ status: 413, body: { error: `Decompressed request body exceeds ${32 * 1024 * 1024} bytes` } });
    const corrupt = await post('/api/public/otel/v1/traces', Buffer.concat([bomb.subarray(0, 1000), Buffer.from('not gzip')]), { 'content-encoding': 'gzip' });
    expect(corrupt).toMatchObject({ status: 400, body: { error: 'Failed to decompress request body' } });
    expect((await fetch(`${server.url}/api/public/health`)).status).toBe(200);
  });

  it('answers the service’s 400s', async () => {
    expect(await post('/api/public/otel/v1/traces', '{}', { 'content-type': 'text/plain' })).toMatchObject({ status: 400, body: { error: 'Invalid content type' } });
    expect(await post('/api/public/otel/v1/traces', '{nope')).toMatchObject({ status: 400, body: { error: 'Failed to parse OTel JSON Trace' } });
    const logs = await post('/api/public/otel/v1/traces', JSON.stringify({ resourceSpans: [{ scopeSpans: [{ scope: { name: 'logger' }, spans: [{ name: 'log line' }] }] }] }));
    expect(logs.status).toBe(400);
    expect(logs.body.error).toContain('1 of 1 span(s) cannot be processed (traceId:absent, spanId:absent)');
    expect(await post('/api/public/otel/v1/traces', JSON.stringify({ resourceSpans: [] }))).toMatchObject({ status: 200, body: {} });
  });

  it('refuses exports nested deep enough to exhaust the stack, without a 500', async () => {
    const levels = MAX_JSON_DEPTH + 100;
    const deepJson = '{"resourceSpans":[' + '['.repeat(levels) + ']'.repeat(levels) + ']}';
    expect(await post('/api/public/otel/v1/traces', deepJson)).toMatchObject({ status: 400, body: { error: `JSON body is nested ${levels + 2} levels deep; at most ${MAX_JSON_DEPTH} are accepted` } });
    const deepProtobuf = await post('/api/public/otel/v1/traces', nestedProtobuf(50_000), { 'content-type': 'application/x-protobuf' });
    expect(deepProtobuf.status).toBe(400);
    expect(deepProtobuf.body.error).toMatch(/^(Failed to parse OTel Protobuf Trace|Invalid OTLP trace export: attribute values are nested too deeply)$/);
  });

  it('refuses an export with more spans than the limit, whole, with a 413 that says how to send less', async () => {
    const small = await startServer({ port: 0, ephemeral: true, maxSpansPerExport: 3 });
    try {
      const auth = `Basic ${Buffer.from(`${small.keys.publicKey}:${small.keys.secretKey}`).toString('base64')}`;
      const spans = (n: number, traceId: string) => Array.from({ length: n }, (_, i) => ({ traceId, spanId: `${i}`.padStart(16, '0'), name: 's', startTimeUnixNano: '1772366400000000000', endTimeUnixNano: '1772366401000000000' }));
      const send = (n: number, traceId: string) =>
        fetch(`${small.url}/api/public/otel/v1/traces`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: spans(n, traceId) }] }] }) });
      const over = await send(4, 'e'.repeat(32));
      expect(over.status).toBe(413);
      expect(((await over.json()) as { error: string }).error).toMatch(/^The export has 4 spans; llmobs server takes at most 3 per request, and none of these was ingested\. Send smaller batches/);
      expect((await fetch(`${small.url}/api/public/traces/${'e'.repeat(32)}`, { headers: { authorization: auth } })).status).toBe(404);
      expect((await send(3, 'f'.repeat(32))).status).toBe(200);
    } finally {
      await small.close();
    }
  });

  it('refuses a public key alone', async () => {
    const answer = await post('/api/public/otel/v1/traces', '{}', { authorization: `Bearer ${server.keys.publicKey}` });
    expect(answer).toMatchObject({ status: 403, body: { message: 'Access denied - insufficient permissions for this endpoint' } });
  });
});

describe('a retried batch', () => {
  const batch = () =>
    JSON.stringify({
      batch: [
        event('retry-e1', 'trace-create', { id: 'retry-trace', name: 'first' }),
        event('retry-e2', 'span-create', { id: 'retry-span', traceId: 'retry-trace', name: 'first' }),
      ],
    });
  const get = (path: string) => fetch(server.url + path, { headers: { authorization: basic() } });

  it('applies its events once, also after a later update and after the trace was deleted', async () => {
    expect((await post('/api/public/ingestion', batch())).status).toBe(207);
    await post('/api/public/ingestion', JSON.stringify({ batch: [event('retry-e3', 'span-update', { id: 'retry-span', name: 'renamed' })] }));
    const again = await post('/api/public/ingestion', batch());
    expect(again.body.successes.map((s: { id: string }) => s.id)).toEqual(['retry-e1', 'retry-e2']);
    expect(((await (await get('/api/public/observations/retry-span')).json()) as { name: string }).name).toBe('renamed');

    const deleted = await fetch(`${server.url}/api/public/traces/retry-trace`, { method: 'DELETE', headers: { authorization: basic() } });
    expect(deleted.status).toBe(200);
    expect((await post('/api/public/ingestion', batch())).status).toBe(207);
    expect((await get('/api/public/traces/retry-trace')).status).toBe(404);
    expect((await get('/api/public/observations/retry-span')).status).toBe(404);
    // A new event for the deleted ids is applied.
    await post('/api/public/ingestion', JSON.stringify({ batch: [event('retry-e4', 'trace-create', { id: 'retry-trace', name: 'again' })] }));
    expect(((await (await get('/api/public/traces/retry-trace')).json()) as { name: string }).name).toBe('again');
  });
});

describe('what was stored', () => {
  it('keeps the records in the data directory, priced', async () => {
    await server.close();
    const { store } = Store.open({ dataDir, now: () => new Date() });
    try {
      const { trace, generation, otelGeneration, score } = store.read((tx) => ({
        trace: tx.traces.get('route-trace'),
        generation: tx.observations.get('route-gen'),
        otelGeneration: tx.observations.get('bbbb0000bbbb0000'),
        score: tx.scores.get('route-score'),
      }));
      expect(trace).toMatchObject({ name: 'checkout' });
      expect(generation).toMatchObject({ traceId: 'route-trace', usageDetails: { input: 1000, output: 100, total: 1100 }, costDetails: { input: 0.0025, output: 0.001, total: 0.0035 }, totalCost: 0.0035 });
      expect(otelGeneration).toMatchObject({ type: 'GENERATION', providedModelName: 'gpt-4o', traceId: 'aaaa0000aaaa0000aaaa0000aaaa0000' });
      expect(score).toMatchObject({ value: 1, dataType: 'NUMERIC' });
      // Event ids live in the log of the record they built, not in the table of ingested ids.
      const logged = store.read((tx) => tx.observations.withEvents(['route-gen']).get('route-gen')!.events) as { events: Array<{ id?: string }> };
      expect(logged.events.map((e) => e.id)).toEqual(['e2']);
      expect(store.read((tx) => tx.events.has('e2'))).toBe(false);
    } finally {
      store.close();
    }
  });
});
