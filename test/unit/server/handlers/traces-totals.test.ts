// A trace's totals on GET /api/public/traces/{id}: without the observations group the latency and
// cost are summed from the observations' times and total costs, with it from the observation
// objects the answer sends. Both give the same numbers, to the bit, over observations ingested
// through the batch route with every way of giving (or not giving) a cost: provided totals, input
// and output only, other keys only, the legacy usage object, a model's prices, none. And the
// traces list's ids of a trace with more observations than it writes at a time.
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller } from '../../../helpers/server-api.js';

let server: RunningServer;
const call = apiCaller(() => server);
const get = async (path: string) => call('GET', path, undefined, { unchecked: true });

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
/** More than one slice of the times (1,000) and many of the observations (250). */
const LONG = 2600;
const WIDE = 10_050;

function cost(i: number): Record<string, unknown> {
  switch (i % 8) {
    case 0: return { costDetails: { total: [0.1, 0.2, 1e-7, 3e-6][i % 4] } };
    case 1: return { costDetails: { input: 0.1, output: 1e-7 * i } };
    case 2: return { costDetails: { input: 0.2 } };
    case 3: return { costDetails: { cache_read: 0.3 } };
    case 4: return { usage: { input: 3, output: 7, totalCost: 0.1 * (i % 13) } };
    case 5: return { model: 'gpt-4o', usageDetails: { input: 17 * i, output: 3 * i } };
    case 6: return { model: 'gpt-4o-mini', usageDetails: { input: 1000 + i, output: 1 } };
    default: return {};
  }
}

beforeAll(async () => {
  // Generations over the batch route, read on the v3 trace route: legacy mode.
  server = await startServer({ port: 0, ephemeral: true, writeMode: 'legacy' });
  const events: unknown[] = [];
  for (const id of ['long', 'empty', 'free', 'open']) events.push({ id: `t-${id}`, type: 'trace-create', timestamp: iso(T0), body: { id, name: id } });
  for (let i = 0; i < LONG; i++) {
    // Start times in ties of five, ids in the reverse of their write order, one in seven without an end.
    const start = T0 + Math.floor(i / 5) * 250;
    const end = i % 7 ? { endTime: iso(start + (i % 9) * 333) } : {};
    events.push({ id: `g-${i}`, type: 'generation-create', timestamp: iso(start), body: { id: `g${LONG - i}`, traceId: 'long', startTime: iso(start), ...end, ...cost(i) } });
  }
  for (let i = 0; i < 5; i++) events.push({ id: `f-${i}`, type: 'span-create', timestamp: iso(T0), body: { id: `f${i}`, traceId: 'free', startTime: iso(T0 + i * 1000), endTime: iso(T0 + i * 1500) } });
  // More observations than the list writes ids of at a time.
  events.push({ id: 't-wide', type: 'trace-create', timestamp: iso(T0 - 1000), body: { id: 'wide', name: 'wide' } });
  for (let i = 0; i < WIDE; i++) events.push({ id: `w-${i}`, type: 'span-create', timestamp: iso(T0), body: { id: `w${i}`, traceId: 'wide', startTime: iso(T0 + (i % 100)) } });
  for (let i = 0; i < 3; i++) events.push({ id: `o-${i}`, type: 'generation-create', timestamp: iso(T0), body: { id: `p${i}`, traceId: 'open', startTime: iso(T0 + i * 1000), costDetails: { total: 0.1 } } });
  for (let i = 0; i < events.length; i += 1000) {
    const answer = await call('POST', '/api/public/ingestion', { batch: events.slice(i, i + 1000) }, { unchecked: true });
    expect(answer.body.errors).toEqual([]);
  }
});

afterAll(async () => {
  await server.close();
});

describe('a trace\'s totals', () => {
  it('are the same with and without the observations', async () => {
    for (const id of ['long', 'empty', 'free', 'open']) {
      const whole = (await get(`/api/public/traces/${id}`)).body;
      for (const fields of ['core,metrics', 'metrics', 'core,io,scores,metrics']) {
        const totals = (await get(`/api/public/traces/${id}?fields=${fields}`)).body;
        expect(Object.is(totals.totalCost, whole.totalCost), `${id} ${fields}: ${totals.totalCost} ${whole.totalCost}`).toBe(true);
        expect(Object.is(totals.latency, whole.latency), `${id} ${fields}`).toBe(true);
        expect(totals.observations).toEqual([]);
      }
    }
  });

  it('sum the observations\' calculated costs in their order, as decimals', async () => {
    const whole = (await get('/api/public/traces/long')).body;
    const views = whole.observations as Array<{ calculatedTotalCost: number; costDetails: Record<string, number> }>;
    expect(views).toHaveLength(LONG);
    const decimal = views.reduce((sum, o) => sum.add(o.calculatedTotalCost), new Decimal(0)).toNumber();
    expect((await get('/api/public/traces/long?fields=metrics')).body.totalCost).toBe(decimal);
    // Worth checking: costs of every kind, and a sum a plain running one misses.
    expect(new Set(views.map((o) => Object.keys(o.costDetails).sort().join()))).toEqual(new Set(['total', 'input,output,total', 'input,total', 'cache_read', '']));
    expect(views.reduce((sum, o) => sum + o.calculatedTotalCost, 0)).not.toBe(decimal);
  });

  it('are 0 without observations or costs, and the latency runs to the last start without ends', async () => {
    expect((await get('/api/public/traces/empty?fields=metrics')).body).toMatchObject({ totalCost: 0, latency: 0 });
    expect((await get('/api/public/traces/free?fields=metrics')).body).toMatchObject({ totalCost: 0, latency: 6 });
    expect((await get('/api/public/traces/open?fields=metrics')).body).toMatchObject({ totalCost: 0.3, latency: 2 });
  });
});

describe('the traces list', () => {
  it('lists the ids of a trace with many observations, each once', async () => {
    const answer = await get('/api/public/traces?name=wide');
    const [wide] = answer.body.data;
    expect(wide.observations).toHaveLength(WIDE);
    expect(new Set(wide.observations)).toEqual(new Set(Array.from({ length: WIDE }, (_, i) => `w${i}`)));
    expect(wide).toMatchObject({ id: 'wide', scores: [], totalCost: 0, latency: 0.099 });
    expect(answer.body.meta).toEqual({ page: 1, limit: 50, totalItems: 1, totalPages: 1 });
  });
});
