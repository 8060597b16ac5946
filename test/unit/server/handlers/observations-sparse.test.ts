// The v2 list with a filter that its index does not serve (a name, a level...) reads a part of
// the list at a time, so that a filter matching few rows never scans every row in one go: the
// pages are those of one scan, their cursors too, over HTTP and in process alike.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROUTES, type RunningServer, startServer } from '../../../../src/server/index.js';
import { ingestEvents } from '../../../../src/server/ingest/routes.js';
import { ObservationStore, Store } from '../../../../src/server/store/index.js';
import { internalApi } from '../../../../src/server/ui/internal-api.js';
import { basicAuth, walkByCursor } from '../../../helpers/server-api.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
// 60 spans in two traces, start times in pairs (ties are ordered by the trace's hash, then id);
// every seventh is named "rare".
const events = [
  { id: 'e-t1', type: 'trace-create', timestamp: iso(T0), body: { id: 't1', name: 'a' } },
  { id: 'e-t2', type: 'trace-create', timestamp: iso(T0), body: { id: 't2', name: 'b' } },
  ...Array.from({ length: 60 }, (_, i) => ({
    id: `e-${i}`,
    type: 'span-create',
    timestamp: iso(T0),
    body: { id: `o-${String(i).padStart(2, '0')}`, traceId: i % 2 ? 't1' : 't2', name: i % 7 === 3 ? 'rare' : 'common', level: i === 40 ? 'ERROR' : 'DEFAULT', startTime: iso(T0 + Math.floor(i / 2) * 1000) },
  })),
];
const RARE = 9;

/** Parts of 7 rows instead of the server's own size, so that 60 rows make several. */
function smallParts() {
  const original = ObservationStore.prototype.pageBound;
  return vi.spyOn(ObservationStore.prototype, 'pageBound').mockImplementation(function (this: ObservationStore, filter, cursor) {
    return original.call(this, filter, cursor, 7);
  });
}

let server: RunningServer;
beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
  const answer = await fetch(`${server.url}/api/public/ingestion`, { method: 'POST', headers: { authorization: basicAuth(server), 'content-type': 'application/json' }, body: JSON.stringify({ batch: events }) });
  expect(answer.status).toBe(207);
});
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

type Page = { data: Array<{ id: string }>; meta: { cursor?: string } };
const page = async (query: string): Promise<Page> => {
  const answer = await fetch(`${server.url}/api/public/v2/observations?fields=core&${query}`, { headers: { authorization: basicAuth(server) } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Page;
};
/** Every page of a query, by cursor. */
const walk = (query: string) => walkByCursor(query, page);

describe('the v2 list with a filter that matches few rows', () => {
  it('gives the pages and cursors of one scan, read a part at a time', async () => {
    const whole = await walk('name=rare&limit=4');
    const ids = whole.flatMap((p) => p.data.map((o) => o.id));
    expect(ids).toHaveLength(RARE);
    const parts = smallParts();
    const inParts = await walk('name=rare&limit=4');
    expect(parts.mock.calls.length).toBeGreaterThan(8);
    expect(inParts).toEqual(whole);
    expect(inParts.map((p) => p.data.length)).toEqual([4, 4, 1]);
    // A page that takes the last match exactly has no cursor; one short of it has one.
    expect((await page(`name=rare&limit=${RARE}`)).meta).toEqual({});
    expect((await page(`name=rare&limit=${RARE - 1}`)).meta.cursor).toBeDefined();
    expect(await page('name=nope&limit=5')).toEqual({ data: [], meta: {} });
    expect((await page('level=ERROR&limit=5')).data.map((o) => o.id)).toEqual(['o-40']);
    // A filter the index serves (the trace) is one scan.
    parts.mockClear();
    expect((await page('traceId=t1&name=rare&limit=50')).data.map((o) => o.id)).toEqual(ids.filter((id) => Number(id.slice(2)) % 2 === 1));
    expect(parts).not.toHaveBeenCalled();
  });

  it('gives a caller in the same process a page per part, with a cursor to the rest', () => {
    // The web UI's exports take one slice per call: a page may be short, or empty, and go on.
    const now = () => new Date(T0 + 86_400_000);
    const { store } = Store.open({ now });
    try {
      store.write((tx) => ingestEvents(events, tx, { projectId: store.project.id, accessLevel: 'project' }, now()));
      const api = internalApi(ROUTES, { store, now, apiVersion: '4.35.0', writeMode: 'dual' });
      const walkInProcess = () => {
        const pages: Array<{ data: Array<{ id: string }>; meta: { cursor?: string } }> = [];
        let cursor: string | undefined;
        do {
          const reply = api.call('GET', '/api/public/v2/observations', new URLSearchParams({ fields: 'core', name: 'rare', limit: '4', ...(cursor ? { cursor } : {}) }));
          expect(reply.status).toBe(200);
          pages.push(reply.body as (typeof pages)[number]);
          cursor = pages[pages.length - 1]!.meta.cursor;
        } while (cursor && pages.length < 100);
        return pages;
      };
      const whole = walkInProcess().flatMap((p) => p.data.map((o) => o.id));
      expect(whole).toHaveLength(RARE);
      smallParts();
      const pages = walkInProcess();
      expect(pages.flatMap((p) => p.data.map((o) => o.id))).toEqual(whole);
      expect(pages.some((p) => p.data.length === 0 && p.meta.cursor !== undefined)).toBe(true);
    } finally {
      store.close();
    }
  });
});
