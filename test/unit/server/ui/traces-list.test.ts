// The UI's traces list pages by cursor: every trace once, newest first, however many share a
// timestamp, with the list's filters applied; its latency and cost, summed a slice at a time, are
// the list route's.
import { afterEach, describe, expect, it } from 'vitest';
import { ROUTES } from '../../../../src/server/index.js';
import { Store } from '../../../../src/server/store/index.js';
import { internalApi } from '../../../../src/server/ui/internal-api.js';
import { listTraces } from '../../../../src/server/ui/traces-list.js';

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function apiWithTraces(timestamps: string[]) {
  const now = () => new Date('2026-11-27T12:00:00.000Z');
  const { store } = Store.open({ now });
  opened.push(store);
  const api = internalApi(ROUTES, { store, now, apiVersion: '4.35.0', writeMode: 'dual' });
  const batch = timestamps.map((timestamp, i) => ({
    id: `event-${i}`,
    type: 'trace-create',
    timestamp,
    body: { id: `trace-${String(i).padStart(3, '0')}`, timestamp, name: 'job', userId: i % 2 === 0 ? 'even' : 'odd' },
  }));
  const reply = api.call('POST', '/api/public/ingestion', undefined, { batch });
  expect(reply.status).toBe(207);
  expect((reply.body as { errors: unknown[] }).errors).toEqual([]);
  return api;
}

async function allPages(api: ReturnType<typeof internalApi>, params: Record<string, string>): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let guard = 0; guard < 100; guard++) {
    const page = await listTraces(api, new URLSearchParams({ ...params, ...(cursor ? { cursor } : {}) }));
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    const body = page.body as { data: Array<{ id: string; timestamp: string }>; nextCursor: string | null };
    ids.push(...body.data.map((row) => row.id));
    cursor = body.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error('paging did not end');
}

describe('the UI traces list', () => {
  it('pages through every trace once, newest first, with ties on the timestamp', async () => {
    // 40 traces: runs of 1 to 9 on the same millisecond.
    const timestamps: string[] = [];
    let t = Date.parse('2026-11-20T00:00:00.000Z');
    for (let run = 1; timestamps.length < 40; run = (run % 9) + 1, t += 1000) {
      for (let i = 0; i < run && timestamps.length < 40; i++) timestamps.push(new Date(t).toISOString());
    }
    const api = apiWithTraces(timestamps);
    for (const limit of [1, 4, 7, 50]) {
      const ids = await allPages(api, { limit: String(limit) });
      expect(new Set(ids).size, `limit ${limit}`).toBe(40);
      const times = ids.map((id) => timestamps[Number(id.slice(6))]!);
      expect(times, `limit ${limit}`).toEqual([...times].sort().reverse());
    }
  });

  it('pages through more traces on one millisecond than a page of the list route holds', async () => {
    const timestamps = [
      '2026-11-20T00:00:02.000Z',
      ...Array.from({ length: 230 }, () => '2026-11-20T00:00:01.000Z'),
      '2026-11-20T00:00:00.000Z',
    ];
    const api = apiWithTraces(timestamps);
    for (const limit of [7, 50, 100]) {
      const ids = await allPages(api, { limit: String(limit) });
      expect(ids, `limit ${limit}`).toHaveLength(232);
      expect(new Set(ids).size, `limit ${limit}`).toBe(232);
      expect([ids[0], ids.at(-1)], `limit ${limit}`).toEqual(['trace-000', 'trace-231']);
    }
  });

  it('keeps the filter on every page', async () => {
    const timestamps = Array.from({ length: 12 }, (_, i) => new Date(Date.parse('2026-11-20T00:00:00.000Z') + Math.floor(i / 3) * 1000).toISOString());
    const api = apiWithTraces(timestamps);
    const ids = await allPages(api, { limit: '2', userId: 'even' });
    expect(ids.sort()).toEqual(['trace-000', 'trace-002', 'trace-004', 'trace-006', 'trace-008', 'trace-010']);
  });

  it('refuses a cursor it did not give', async () => {
    const api = apiWithTraces([]);
    expect((await listTraces(api, new URLSearchParams({ cursor: 'bm9wZQ' }))).status).toBe(400);
  });
});

describe("the UI's traces list figures", () => {
  it("are the list route's latency and cost, with tokens, for long and short traces and under an environment filter", async () => {
    const api = apiWithTraces([]);
    const base = Date.parse('2026-11-20T00:00:00.000Z');
    const at = (ms: number) => new Date(base + ms).toISOString();
    const batch: unknown[] = [];
    // One trace longer than a slice of sums, one short, one without observations; two environments.
    for (const [trace, count] of [['long', 4_500], ['short', 3], ['empty', 0]] as const) {
      batch.push({ id: `t-${trace}`, type: 'trace-create', timestamp: at(0), body: { id: trace, timestamp: at(0), name: 'job', environment: trace === 'long' ? 'staging' : 'default' } });
      for (let i = 0; i < count; i++) {
        const environment = i % 3 === 0 ? 'staging' : 'default';
        batch.push({
          id: `${trace}-${i}`,
          type: 'generation-create',
          timestamp: at(i),
          body: { id: `${trace}-obs-${i}`, traceId: trace, environment, startTime: at(i * 7), ...(i % 5 === 0 ? {} : { endTime: at(i * 7 + 13) }), model: 'gpt-4o', usageDetails: { input: 10 + i, output: 5 }, costDetails: { total: 0.001 * (i % 4) } },
        });
      }
    }
    for (let from = 0; from < batch.length; from += 1000) {
      const reply = api.call('POST', '/api/public/ingestion', undefined, { batch: batch.slice(from, from + 1000) });
      expect((reply.body as { errors: unknown[] }).errors).toEqual([]);
    }
    for (const environment of [undefined, 'staging']) {
      const query = new URLSearchParams(environment ? { environment } : {});
      const page = await listTraces(api, query);
      expect(page.ok).toBe(true);
      const rows = (page.body as { data: Array<{ id: string; latency: number; totalCost: number; totalTokens: number }> }).data;
      const reference = new URLSearchParams({ fields: 'core,metrics', ...(environment ? { environment } : {}) });
      const route = (api.call('GET', '/api/public/traces', reference).body as { data: Array<{ id: string; latency: number; totalCost: number }> }).data;
      expect(rows.map((row) => row.id).sort()).toEqual(environment ? ['long'] : ['empty', 'long', 'short']);
      expect(route.map((row) => row.id).sort()).toEqual(rows.map((row) => row.id).sort());
      for (const row of rows) {
        const expected = route.find((r) => r.id === row.id)!;
        expect(row.latency).toBeCloseTo(expected.latency, 9);
        expect(row.totalCost).toBeCloseTo(expected.totalCost, 9);
      }
      const observations = (api.call('GET', '/api/public/observations', new URLSearchParams({ traceId: 'long', limit: '100', page: '1' })).body as { meta: { totalItems: number } }).meta.totalItems;
      expect(observations).toBe(4_500);
      const long = rows.find((row) => row.id === 'long');
      expect(long!.totalTokens).toBe(Array.from({ length: 4_500 }, (_, i) => i).filter((i) => !environment || i % 3 === 0).reduce((sum, i) => sum + 15 + i, 0));
    }
  });
});
