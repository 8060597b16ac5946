// The UI's pages read the public API through the API port's dispatch: a large trace comes in
// slices (chunked, no length) rather than built whole, with the same content an in-process call
// builds; errors are answered as the API answers them; writes stay limited to models and prompts.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../../src/server/index.js';
import { Store } from '../../../../src/server/store/index.js';
import { forward, type InternalApi, internalApi } from '../../../../src/server/ui/internal-api.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

async function serve(): Promise<{ base: string; api: InternalApi }> {
  const now = () => new Date('2026-11-27T12:00:00.000Z');
  const { store } = Store.open({ now });
  const api = internalApi(ROUTES, { store, now, apiVersion: '4.35.0', writeMode: 'dual' });
  const start = Date.parse('2026-11-20T00:00:00.000Z');
  const batch: unknown[] = [{ id: 't', type: 'trace-create', timestamp: new Date(start).toISOString(), body: { id: 'long', name: 'agent' } }];
  for (let i = 0; i < 600; i++) {
    const startTime = new Date(start + i).toISOString();
    batch.push({ id: `e-${i}`, type: 'generation-create', timestamp: startTime, body: { id: `obs-${i}`, traceId: 'long', startTime, model: 'gpt-4o', usageDetails: { input: 10, output: 5 } } });
  }
  for (let at = 0; at < batch.length; at += 500) {
    const reply = api.call('POST', '/api/public/ingestion', undefined, { batch: batch.slice(at, at + 500) });
    expect((reply.body as { errors: unknown[] }).errors).toEqual([]);
  }
  const server: Server = createServer((req, res) => void forward(api, req, res, new URL(req.url ?? '/', 'http://x')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => {
    server.close();
    store.close();
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, api };
}

describe("the UI's reads of the public API", () => {
  it('answer a large trace in slices, with what an in-process call answers whole', async () => {
    const { base, api } = await serve();
    const response = await fetch(`${base}/api/public/traces/long`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const streamed = (await response.json()) as { observations: Array<{ id: string }>; totalCost: number };
    expect(streamed.observations).toHaveLength(600);
    expect(streamed.totalCost).toBeGreaterThan(0);
    expect(streamed).toEqual(api.call('GET', '/api/public/traces/long').body);
  });

  it('answer errors as the route does, and a small answer whole', async () => {
    const { base } = await serve();
    const missing = await fetch(`${base}/api/public/traces/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ message: 'Trace nope not found within authorized project' });
    expect((await fetch(`${base}/api/public/nothing-here`)).status).toBe(404);
    const models = await fetch(`${base}/api/public/models?limit=1`);
    expect(models.status).toBe(200);
    expect(models.headers.get('content-length')).not.toBeNull();
  });

  it('change only models and prompts', async () => {
    const { base } = await serve();
    const refused = await fetch(`${base}/api/public/scores`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ traceId: 'long', name: 'x', value: 1 }) });
    expect(refused.status).toBe(405);
    const created = await fetch(`${base}/api/public/models`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ modelName: 'mine', matchPattern: '(?i)^mine$', unit: 'TOKENS', inputPrice: 0.000001 }),
    });
    expect(created.status).toBe(200);
  });
});
