// The traces list's stats read in slices (trace-stats.ts) against the one query that reads them
// whole (TraceStore.stats, which the read thread runs): the same ids in the same order, the same
// latency and the same cost to the bit, over traces long enough to take several slices, with
// ties in start times, costs that add up awkwardly, costs and end times missing, and the list's
// filters on the environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../../../../src/server/records.js';
import { Store, type TraceFilter, traceStatsInSlices, type Tx } from '../../../../src/server/store/index.js';
import { observationRecord } from '../../../helpers/store-records.js';
import { turnCounter } from '../../../helpers/turn-counter.js';

const T0 = Date.parse('2026-03-01T10:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
let store: Store;
let projectId: string;

const trace = (id: string): TraceRecord => ({
  id, projectId, timestamp: iso(T0), name: null, userId: null, sessionId: null, release: null, version: null, environment: 'default',
  public: false, bookmarked: false, tags: [], metadata: {}, input: null, output: null, createdAt: iso(T0), updatedAt: iso(T0),
});

const observation = (id: string, fields: Partial<ObservationRecord>): ObservationRecord => observationRecord(id, projectId, iso(T0), fields);

const score = (id: string, fields: Partial<ScoreRecord>): ScoreRecord => ({
  id, projectId, timestamp: iso(T0), name: 'quality', value: 0.5, stringValue: null, dataType: 'NUMERIC', source: 'API', traceId: null,
  observationId: null, sessionId: null, datasetRunId: null, comment: null, metadata: {}, environment: 'default', configId: null,
  queueId: null, authorUserId: null, createdAt: iso(T0), updatedAt: iso(T0), ...fields,
});

const COSTS = [0.1, 0.2, 1e-7, 3e-6, null, 0.3, 2.5e-5, 7];
const LONG = 5000;

beforeAll(() => {
  store = Store.open({ now: () => new Date(T0) }).store;
  projectId = store.project.id;
  store.write((tx) => {
    for (const id of ['long', 'empty', 'nulls', 'open', 'one']) tx.traces.put(trace(id));
    // Ids written in the reverse of their text order, start times in ties of seven: the rows'
    // order is not the ids' order.
    for (let i = 0; i < LONG; i++) {
      const start = T0 + Math.floor(i / 7) * 1000;
      tx.observations.put(
        observation(`o-${String(LONG - i).padStart(5, '0')}`, {
          traceId: 'long', environment: i % 3 ? 'production' : 'dev', startTime: iso(start), endTime: i % 5 ? iso(start + (i % 11) * 700) : null, totalCost: COSTS[i % COSTS.length]!,
        }),
      );
    }
    for (let i = 0; i < 2500; i++) {
      tx.scores.put(score(`s-${String(2500 - i).padStart(4, '0')}`, { traceId: 'long', environment: i % 2 ? 'production' : 'dev', dataType: i % 9 ? 'NUMERIC' : 'CORRECTION' }));
    }
    tx.observations.put(observation('n1', { traceId: 'nulls', startTime: iso(T0 + 5000), endTime: iso(T0 + 6000) }));
    tx.observations.put(observation('n2', { traceId: 'nulls', startTime: iso(T0) }));
    // Ends before a later start, no end at all: the span runs from the earliest time to the latest.
    tx.observations.put(observation('p1', { traceId: 'open', startTime: iso(T0 + 3000), totalCost: 0.1 }));
    tx.observations.put(observation('p2', { traceId: 'open', startTime: iso(T0 + 1000), endTime: iso(T0 + 2000), totalCost: 0.2 }));
    tx.observations.put(observation('p3', { traceId: 'open', startTime: iso(T0 + 9000), totalCost: 0.3 }));
    tx.observations.put(observation('x1', { traceId: 'one', startTime: iso(T0), totalCost: 1e-7 }));
  });
});

afterAll(() => store.close());

/** Slices each in a read transaction of their own, counted, after the event loop's turn. */
function slices() {
  const read = async <T>(fn: (tx: Tx) => T): Promise<T> => {
    read.count++;
    await new Promise((resolve) => setImmediate(resolve));
    return store.read(fn);
  };
  read.count = 0;
  return read;
}

const FILTERS: TraceFilter[] = [
  {},
  { environments: ['production'] },
  { advanced: [{ column: 'trace.environment', type: 'stringOptions', operator: 'none of', value: ['dev'] }] },
  { environments: ['nowhere'] },
];
const PARTS = [
  { ids: true, metrics: true },
  { ids: false, metrics: true },
  { ids: true, metrics: false },
];
const IDS = ['long', 'empty', 'nulls', 'open', 'one', 'missing'];

describe('traceStatsInSlices', () => {
  it('answers what the whole query answers', async () => {
    for (const filter of FILTERS) {
      for (const parts of PARTS) {
        const whole = store.read((tx) => tx.traces.stats(IDS, filter, parts));
        const sliced = await traceStatsInSlices(slices(), IDS, filter, parts);
        const label = JSON.stringify({ filter, parts });
        expect(sliced, label).toEqual(whole);
        for (const id of IDS) expect(Object.is(sliced.get(id)!.totalCost, whole.get(id)!.totalCost), `${label} ${id}`).toBe(true);
      }
    }
  });

  it('reads traces worth checking: several slices, an awkward sum, the cases without costs or ends', async () => {
    const whole = store.read((tx) => tx.traces.stats(IDS, {}, { ids: true, metrics: true }));
    const long = whole.get('long')!;
    expect(long.observationIds).toHaveLength(LONG);
    expect(long.scoreIds.length).toBeGreaterThan(2000);
    // Not the ids' order, nor a plain running sum.
    expect(long.observationIds).not.toEqual([...long.observationIds].sort());
    const costs = store.read((tx) => tx.observations.timesOfTraceAfter('long', undefined, LONG)).map((row) => row.totalCost ?? 0);
    expect(long.totalCost).not.toBe(costs.reduce((a, b) => a + b, 0));
    expect(whole.get('empty')).toEqual({ observationIds: [], scoreIds: [], latencyMs: 0, totalCost: 0 });
    expect(whole.get('nulls')).toMatchObject({ latencyMs: 6000, totalCost: 0 });
    // SQLite's compensated sum: 0.6, where 0.1 + 0.2 + 0.3 in JavaScript is 0.6000000000000001.
    expect(whole.get('open')).toMatchObject({ latencyMs: 8000, totalCost: 0.6 });
    expect(whole.get('one')).toMatchObject({ latencyMs: 0, totalCost: 1e-7 });
  });

  it('lets the event loop run between its slices', async () => {
    const read = slices();
    const turns = turnCounter();
    await traceStatsInSlices(read, ['long'], {}, { ids: true, metrics: true });
    turns.stop();
    expect(read.count).toBeGreaterThan(3);
    // The loop ran something else between every two slices.
    expect(turns.now()).toBeGreaterThanOrEqual(read.count - 1);
  });
});
