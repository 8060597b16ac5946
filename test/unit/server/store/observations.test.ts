// Paging the v2 observations list by cursor when start times tie: the service orders rows by
// (startTime, xxHash32(traceId), id), all descending, and its cursor carries that key. Pages must
// add up to the whole list, without a row twice or a row skipped, whatever the page size.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { xxHash32 } from '../../../../src/server/store/xxhash32.js';
import { apiCaller } from '../../../helpers/server-api.js';

let server: RunningServer;
const call = apiCaller(() => server);

const TIMES = ['2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00.001Z', '2026-03-01T10:00:05.000Z'];
const TRACES = ['alpha', 'beta', 'gamma', 'delta', null];

interface Row {
  id: string;
  traceId: string | null;
  startTime: string;
}
const rows: Row[] = [];

beforeAll(async () => {
  // Spans over the batch route, paged with the v2 list: dual mode.
  server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
  const batch: unknown[] = [];
  for (let i = 0; i < 40; i++) {
    // Ids whose text order differs from their insertion order, times and traces in many ties.
    const row: Row = { id: `obs-${(i * 17) % 40}`.padEnd(8, 'x'), traceId: TRACES[i % TRACES.length]!, startTime: TIMES[i % TIMES.length]! };
    rows.push(row);
    batch.push({ id: `event-${i}`, type: 'span-create', timestamp: row.startTime, body: { id: row.id, ...(row.traceId ? { traceId: row.traceId } : {}), startTime: row.startTime, name: 'tie' } });
  }
  const answer = await call('POST', '/api/public/ingestion', { batch });
  expect(answer.body.errors).toEqual([]);
});

afterAll(async () => {
  await server.close();
});

async function walk(limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const answer = await call('GET', `/api/public/v2/observations?limit=${limit}&fields=core${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(answer.status).toBe(200);
    ids.push(...answer.body.data.map((o: { id: string }) => o.id));
    cursor = answer.body.meta.cursor;
    if (!cursor) return ids;
  }
  throw new Error('the cursor never ended');
}

describe('v2 observations: ties on start time', () => {
  it('orders by start time, then xxHash32 of the trace id, then id, all descending, as the service does', async () => {
    // Observations sent without a trace get a random one from the server: read what was stored.
    const stored = (await call('GET', '/api/public/v2/observations?limit=1000&fields=core')).body.data as Row[];
    expect(stored.map((o) => o.id).sort()).toEqual(rows.map((r) => r.id).sort());
    const expected = [...stored]
      .sort((a, b) => {
        if (a.startTime !== b.startTime) return a.startTime < b.startTime ? 1 : -1;
        const ha = xxHash32(a.traceId ?? '');
        const hb = xxHash32(b.traceId ?? '');
        if (ha !== hb) return hb - ha;
        return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
      })
      .map((r) => r.id);
    expect(await walk(1000)).toEqual(expected);
    // The hash order of these trace ids is not their text order (delta and beta swap): a list in
    // text order would fail the comparison above.
    const named = ['alpha', 'beta', 'gamma', 'delta'];
    expect([...named].sort((a, b) => xxHash32(b) - xxHash32(a))).toEqual(['gamma', 'beta', 'delta', 'alpha']);
    expect([...named].sort().reverse()).toEqual(['gamma', 'delta', 'beta', 'alpha']);
  });

  it('gives every observation exactly once, in the same order, whatever the page size', async () => {
    const whole = await walk(1000);
    expect(new Set(whole).size).toBe(40);
    for (const limit of [1, 2, 3, 7, 39]) expect(await walk(limit)).toEqual(whole);
  });

  it('keeps its place when observations arrive between pages: newer ones are not on later pages, ones after the cursor are', async () => {
    const first = await call('GET', '/api/public/v2/observations?limit=10&fields=core');
    const cursor = first.body.meta.cursor as string;
    const last = first.body.data.at(-1) as { startTime: string };
    await call('POST', '/api/public/ingestion', {
      batch: [
        { id: 'late-1', type: 'span-create', timestamp: TIMES[2], body: { id: 'zz-newer', traceId: 'trace-z', startTime: '2026-03-01T11:00:00.000Z' } },
        { id: 'late-2', type: 'span-create', timestamp: TIMES[0], body: { id: 'aa-older', traceId: 'trace-z', startTime: '2026-03-01T09:00:00.000Z' } },
      ],
    });
    const rest: string[] = [];
    let next: string | undefined = cursor;
    while (next) {
      const page = await call('GET', `/api/public/v2/observations?limit=10&fields=core&cursor=${encodeURIComponent(next)}`);
      rest.push(...page.body.data.map((o: { id: string }) => o.id));
      next = page.body.meta.cursor;
    }
    expect(rest).not.toContain('zz-newer');
    expect(rest.at(-1)).toBe('aa-older');
    expect(new Set([...first.body.data.map((o: { id: string }) => o.id), ...rest]).size).toBe(41);
    expect(last.startTime).toBe(TIMES[2]);
  });
});
