// The UI's export streams every row of the filter, page after page, in each format, and waits
// for a slow reader instead of buffering.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../../../src/server/index.js';
import { ObservationStore, Store } from '../../../../src/server/store/index.js';
import { EXPORTED_LISTS, exportList } from '../../../../src/server/ui/export.js';
import { internalApi } from '../../../../src/server/ui/internal-api.js';

const cleanup: Array<() => void> = [];
afterEach(() => {
  for (const fn of cleanup.splice(0)) fn();
});

const TRACES = 260;

async function serveExport(large = false): Promise<string> {
  const now = () => new Date('2026-11-27T12:00:00.000Z');
  const { store } = Store.open({ now });
  const api = internalApi(ROUTES, { store, now, apiVersion: '4.35.0', writeMode: 'dual' });
  const batch = [];
  for (let i = 0; i < TRACES; i++) {
    const timestamp = new Date(Date.parse('2026-11-20T00:00:00.000Z') + i * 1000).toISOString();
    batch.push({ id: `t-${i}`, type: 'trace-create', timestamp, body: { id: `trace-${i}`, timestamp, name: 'job', userId: i % 2 ? 'odd' : 'even' } });
    for (let k = 0; k < 5; k++) {
      batch.push({ id: `g-${i}-${k}`, type: 'generation-create', timestamp, body: { id: `obs-${i}-${k}`, traceId: `trace-${i}`, startTime: timestamp, name: 'call', model: 'gpt-4o', usageDetails: { input: 10, output: 5 }, input: 'a,"b"\nc' } });
    }
  }
  // With `large`, a trace of large generations (about 1.5 MB of input each).
  for (let k = 0; large && k < 6; k++) {
    const timestamp = new Date(Date.parse('2026-11-10T00:00:00.000Z') + k * 1000).toISOString();
    batch.push({ id: `l-${k}`, type: 'generation-create', timestamp, body: { id: `large-${k}`, traceId: 'large', startTime: timestamp, name: 'call', input: 'x'.repeat(1_500_000) } });
  }
  for (let at = 0; at < batch.length; at += 500) {
    const reply = api.call('POST', '/api/public/ingestion', undefined, { batch: batch.slice(at, at + 500) });
    expect((reply.body as { errors: unknown[] }).errors).toEqual([]);
  }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [kind = '', format] = [url.pathname.slice(1), url.searchParams.get('format')];
    url.searchParams.delete('format');
    void exportList(api, res, kind, EXPORTED_LISTS[kind]!, url.searchParams, format as 'csv' | 'json' | 'jsonl');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup.push(() => {
    server.close();
    store.close();
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('the UI export', () => {
  it('writes every trace and observation of the filter in each format', async () => {
    const base = await serveExport();
    const traces = (await (await fetch(`${base}/traces?format=jsonl`)).text()).trim().split('\n').map((line) => JSON.parse(line) as { id: string; totalTokens: number });
    expect(traces).toHaveLength(TRACES);
    expect(new Set(traces.map((t) => t.id)).size).toBe(TRACES);
    expect(traces.every((t) => t.totalTokens === 75)).toBe(true);
    const even = JSON.parse(await (await fetch(`${base}/traces?format=json&userId=even`)).text()) as Array<{ id: string }>;
    expect(even).toHaveLength(TRACES / 2);
    const observations = (await (await fetch(`${base}/observations?format=jsonl`)).text()).trim().split('\n').map((line) => JSON.parse(line) as { id: string; input: string });
    expect(observations).toHaveLength(TRACES * 5);
    expect(new Set(observations.map((o) => o.id)).size).toBe(TRACES * 5);
    expect(observations[0]!.input).toBe('a,"b"\nc');
    const csv = await (await fetch(`${base}/observations?format=csv&traceId=trace-7`)).text();
    expect(csv.split('\n')[0]).toBe(EXPORTED_LISTS.observations!.columns.join(','));
    expect(csv).toContain('"a,""b""\nc"');
    expect(JSON.parse(await (await fetch(`${base}/observations?format=json&traceId=none`)).text())).toEqual([]);
  });

  it('gives a reader that pauses the whole export', async () => {
    const base = await serveExport();
    const response = await fetch(`${base}/observations?format=jsonl`);
    const reader = response.body!.getReader();
    let bytes = 0;
    const first = await reader.read();
    bytes += first.value?.length ?? 0;
    // Nothing is read for a while: the server must hold back rather than fail.
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    const all = await (await fetch(`${base}/observations?format=jsonl`)).text();
    expect(bytes).toBe(Buffer.byteLength(all));
  });

  it('reads large observations a few at a time, as pages of at most 4 MB of stored text', async () => {
    const base = await serveExport(true);
    const pages = vi.spyOn(ObservationStore.prototype, 'pageRows');
    const text = await (await fetch(`${base}/observations?format=jsonl&traceId=large`)).text();
    expect(pages.mock.calls.map((call) => call[2])).toEqual([2, 2, 2]);
    pages.mockRestore();
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as { id: string; input: string });
    expect(lines.map((o) => o.id)).toEqual(['large-5', 'large-4', 'large-3', 'large-2', 'large-1', 'large-0']);
    expect(lines.every((o) => o.input === 'x'.repeat(1_500_000))).toBe(true);
  });
});
