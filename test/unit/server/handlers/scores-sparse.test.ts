// The v3 scores list with a filter that its indexes do not serve (a name, a source, a value...)
// reads a part of the list at a time, so that a filter matching few scores never scans them all
// in one go: the pages and their cursors are those of one scan.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { ScoreStore } from '../../../../src/server/store/index.js';
import { basicAuth, walkByCursor } from '../../../helpers/server-api.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
// 60 scores, timestamps in pairs (ties are ordered by id); every seventh is named "rare", one is
// from an evaluator.
const events = Array.from({ length: 60 }, (_, i) => ({
  id: `e-${i}`,
  type: 'score-create',
  timestamp: iso(T0),
  body: { id: `s-${String(i).padStart(2, '0')}`, traceId: i % 2 ? 't1' : 't2', name: i % 7 === 3 ? 'rare' : 'common', value: i / 100, dataType: 'NUMERIC', source: i === 40 ? 'EVAL' : 'API', timestamp: iso(T0 + Math.floor(i / 2) * 1000) },
}));
const RARE = 9;

/** Parts of 7 scores instead of the server's own size, so that 60 make several. */
function smallParts() {
  const original = ScoreStore.prototype.pageBound;
  return vi.spyOn(ScoreStore.prototype, 'pageBound').mockImplementation(function (this: ScoreStore, filter, cursor) {
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

type Page = { data: Array<{ id: string }>; meta: { limit: number; cursor?: string } };
const page = async (query: string): Promise<Page> => {
  const answer = await fetch(`${server.url}/api/public/v3/scores?${query}`, { headers: { authorization: basicAuth(server) } });
  expect(answer.status).toBe(200);
  return (await answer.json()) as Page;
};
/** Every page of a query, by cursor. */
const walk = (query: string) => walkByCursor(query, page);

describe('the v3 scores list with a filter that matches few scores', () => {
  it('gives the pages and cursors of one scan, read a part at a time', async () => {
    for (const query of ['name=rare&limit=4', 'name=rare&limit=3', 'source=EVAL&limit=2', 'dataType=NUMERIC&valueMin=0.5&limit=5', 'name=common&limit=20']) {
      const whole = await walk(query);
      const parts = smallParts();
      const inParts = await walk(query);
      expect(parts.mock.calls.length, query).toBeGreaterThan(whole.length);
      expect(inParts, query).toEqual(whole);
      parts.mockRestore();
    }
    const rare = (await walk('name=rare&limit=4')).flatMap((p) => p.data.map((s) => s.id));
    expect(rare).toHaveLength(RARE);
    expect(rare).toEqual([...rare].sort().reverse());
    smallParts();
    expect((await walk('name=rare&limit=4')).map((p) => p.data.length)).toEqual([4, 4, 1]);
    // A page that takes the last match exactly has no cursor; one short of it has one.
    expect((await page(`name=rare&limit=${RARE}`)).meta).toEqual({ limit: RARE });
    expect((await page(`name=rare&limit=${RARE - 1}`)).meta.cursor).toBeDefined();
    expect(await page('name=nope&limit=5')).toEqual({ data: [], meta: { limit: 5 } });
    expect((await page('source=EVAL&limit=5')).data.map((s) => s.id)).toEqual(['s-40']);
  });

  it('reads a filter the indexes serve in one scan', async () => {
    const parts = smallParts();
    const ids = (await page('traceId=t1&name=rare&limit=50')).data.map((s) => s.id);
    expect(ids).toEqual(['s-59', 's-45', 's-31', 's-17', 's-03'].filter((id) => Number(id.slice(2)) % 2 === 1 && Number(id.slice(2)) % 7 === 3));
    expect(ids.length).toBeGreaterThan(0);
    expect((await page('limit=5')).data).toHaveLength(5);
    expect(parts).not.toHaveBeenCalled();
  });
});
