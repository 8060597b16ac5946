// The UI's traces list pages by cursor: every trace once, newest first, however many share a
// timestamp, with the list's filters applied.
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
