// A trace's page reads its observations a page at a time: in start-time order, at most 1,000 a
// page, with the count, latency and cost on the first page and a cursor to the next; each page
// is written in slices (chunked, no length), never built whole.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../../../src/server/index.js';
import { ObservationStore, Store } from '../../../../src/server/store/index.js';
import { internalApi } from '../../../../src/server/ui/internal-api.js';
import { uiRoutes } from '../../../../src/server/ui/ui-api.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

const COUNT = 2_345;

async function serve(): Promise<string> {
  const now = () => new Date('2026-11-27T12:00:00.000Z');
  const { store } = Store.open({ now });
  const api = internalApi(ROUTES, { store, now, apiVersion: '4.35.0', writeMode: 'dual' });
  const base = Date.parse('2026-11-20T00:00:00.000Z');
  const batch: unknown[] = [{ id: 't', type: 'trace-create', timestamp: new Date(base).toISOString(), body: { id: 'long', name: 'agent' } }];
  // Written newest first, and two at each millisecond: the order is the server's, not the input's.
  for (let i = COUNT - 1; i >= 0; i--) {
    const startTime = new Date(base + Math.floor(i / 2)).toISOString();
    batch.push({ id: `e-${i}`, type: 'span-create', timestamp: startTime, body: { id: `obs-${String(i).padStart(5, '0')}`, traceId: 'long', startTime, name: 'step' } });
  }
  // A trace of a few large observations (about 1.5 MB of input each).
  for (let i = 0; i < 6; i++) {
    const startTime = new Date(base + i).toISOString();
    batch.push({ id: `big-${i}`, type: 'span-create', timestamp: startTime, body: { id: `big-${i}`, traceId: 'large', startTime, input: 'x'.repeat(1_500_000) } });
  }
  batch.push({ id: 'other', type: 'span-create', timestamp: new Date(base).toISOString(), body: { id: 'elsewhere', traceId: 'short', startTime: new Date(base).toISOString() } });
  for (let at = 0; at < batch.length; at += 500) {
    const reply = api.call('POST', '/api/public/ingestion', undefined, { batch: batch.slice(at, at + 500) });
    expect((reply.body as { errors: unknown[] }).errors).toEqual([]);
  }
  const handle = uiRoutes(api);
  const server: Server = createServer((req, res) => void handle(req, res, new URL(req.url ?? '/', 'http://x')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => {
    server.close();
    store.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/ui/api/traces/observations`;
}

interface Page {
  data: Array<{ id: string; traceId: string; startTime: string }>;
  nextCursor: string | null;
  total?: number;
  latency?: number;
  totalCost?: number;
}

describe('the observations of a trace for its page', () => {
  it('come in pages of at most 1,000 by start time, the count with the first, each written in slices', async () => {
    const url = await serve();
    const pages: Page[] = [];
    let cursor: string | null = null;
    do {
      const response: Response = await fetch(`${url}?traceId=long&limit=5000${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-length')).toBeNull();
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      const page = (await response.json()) as Page;
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages.map((page) => page.data.length)).toEqual([1000, 1000, 345]);
    expect(pages.map((page) => page.total)).toEqual([COUNT, undefined, undefined]);
    // The trace's figures come with the first page: from its first start to its last.
    expect(pages.map((page) => page.latency)).toEqual([Math.floor((COUNT - 1) / 2) / 1000, undefined, undefined]);
    expect(pages[0]!.totalCost).toBe(0);
    const ids = pages.flatMap((page) => page.data.map((o) => o.id));
    expect(ids).toEqual(Array.from({ length: COUNT }, (_, i) => `obs-${String(i).padStart(5, '0')}`));
    expect(pages.flatMap((page) => page.data).every((o) => o.traceId === 'long')).toBe(true);
  });

  it('takes a smaller page, and ends with no cursor when the last page is full', async () => {
    const url = await serve();
    const first = (await (await fetch(`${url}?traceId=short&limit=1`)).json()) as Page;
    expect(first).toMatchObject({ data: [{ id: 'elsewhere' }], nextCursor: null, total: 1 });
    const small = (await (await fetch(`${url}?traceId=long&limit=3`)).json()) as Page;
    expect(small.data.map((o) => o.id)).toEqual(['obs-00000', 'obs-00001', 'obs-00002']);
    const next = (await (await fetch(`${url}?traceId=long&limit=3&cursor=${small.nextCursor}`)).json()) as Page;
    expect(next.data.map((o) => o.id)).toEqual(['obs-00003', 'obs-00004', 'obs-00005']);
    const none = (await (await fetch(`${url}?traceId=missing`)).json()) as Page;
    expect(none).toEqual({ data: [], nextCursor: null, total: 0, latency: 0, totalCost: 0 });
  });

  it('reads large observations a few at a time, in slices of at most 4 MB of stored text', async () => {
    const url = await serve();
    const reads = vi.spyOn(ObservationStore.prototype, 'ofTraceAfter');
    const page = (await (await fetch(`${url}?traceId=large`)).json()) as { data: Array<{ id: string; input: string }>; nextCursor: string | null };
    // Six of 1.5 MB: two a slice, so three slices.
    expect(reads.mock.calls.map((call) => call[2])).toEqual([2, 2, 2]);
    reads.mockRestore();
    expect(page.data.map((o) => o.id)).toEqual(['big-0', 'big-1', 'big-2', 'big-3', 'big-4', 'big-5']);
    expect(page.data.every((o) => o.input.length === 1_500_000)).toBe(true);
    expect(page.nextCursor).toBeNull();
  });

  it('refuses a request without a trace or with a cursor it did not give', async () => {
    const url = await serve();
    expect((await fetch(url)).status).toBe(400);
    const refused = await fetch(`${url}?traceId=long&cursor=not-ours`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ message: 'cursor: not one this server gave' });
  });
});
