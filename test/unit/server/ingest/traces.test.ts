import { describe, expect, it } from 'vitest';
import { processBatch } from '../../../../src/server/ingest/batch.js';
import { toLogged } from '../../../../src/server/ingest/event-log.js';
import type { TraceEvent } from '../../../../src/server/ingest/schemas.js';
import { buildTrace } from '../../../../src/server/ingest/traces.js';
import type { IngestAuth, LoggedEvent, Stored } from '../../../../src/server/ingest/types.js';
import type { TraceRecord } from '../../../../src/server/records.js';
import { engineCounter } from '../../../../src/tokenizer/index.js';
import { MemoryStore } from './support/memory-store.js';

const project: IngestAuth = { projectId: 'proj-1', accessLevel: 'project' };
const NOW = new Date('2026-03-01T12:00:00.000Z');
const ts = (s: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + s * 1000).toISOString();

let eventNo = 0;
const ev = (type: string, s: number, body: Record<string, unknown>) => ({ id: `ev-${++eventNo}`, type, timestamp: ts(s), body });

function run(store: MemoryStore, batch: unknown[], now = NOW) {
  const result = processBatch(batch, project, store, { now, count: engineCounter, newId: () => 'generated-trace-id' });
  expect(result.response.errors).toEqual([]);
  store.apply(result.writes);
  return result;
}

describe('trace upserts', () => {
  it('merges trace events: later values win, timestamp and environment stay, tags become the sorted union', () => {
    const store = new MemoryStore();
    run(store, [ev('trace-create', 0, { id: 't', name: 'a', userId: 'u1', environment: 'staging', tags: ['zeta', 'alpha', 'zeta'], public: true, metadata: { k: 'v' }, input: { q: 1 } })]);
    expect(store.traces.get('t')).toMatchObject({ tags: ['alpha', 'zeta'], public: true, timestamp: ts(0), environment: 'staging' });
    run(store, [ev('trace-create', 9, { id: 't', name: 'b', timestamp: ts(-100), environment: 'prod', tags: ['beta'], metadata: { n: 2 }, sessionId: 's1' })]);
    expect(store.traces.get('t')).toMatchObject({
      name: 'b',
      userId: 'u1',
      sessionId: 's1',
      timestamp: ts(0),
      environment: 'staging',
      tags: ['alpha', 'beta', 'zeta'],
      // An upsert without `public` sets it back to false, as on the server.
      public: false,
      metadata: { k: 'v', n: 2 },
      input: { q: 1 },
      output: null,
    });
  });

  it('uses the body timestamp, else the event timestamp', () => {
    const store = new MemoryStore();
    run(store, [ev('trace-create', 5, { id: 'a', timestamp: ts(1) }), ev('trace-create', 5, { id: 'b' })]);
    expect(store.traces.get('a')!.timestamp).toBe(ts(1));
    expect(store.traces.get('b')!.timestamp).toBe(ts(5));
  });
});

describe('a trace\'s log without repeated updates', () => {
  // A small seeded generator: the same cases on every run.
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const maybe = <T>(items: readonly T[]): T | undefined => (random() < 0.4 ? undefined : pick(items));
  const METADATA = [{}, { k: 'v' }, { k: { x: 1 } }, { k: '{"x":2}' }, { k: 5 }, { k: [1, 2] }, { j: { y: { z: 1 } } }, { k: { w: 3 }, j: 'text' }, { a: [{ b: 1 }], k: null }];
  const body = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      name: maybe(['a', 'b', '']),
      userId: maybe(['u1', 'u2']),
      sessionId: maybe(['s1', 's2']),
      public: maybe([true, false]),
      tags: maybe([[], ['x'], ['y', 'x']]),
      release: maybe(['r1', null]),
      version: maybe(['v1']),
      environment: maybe(['prod', 'staging']),
      metadata: maybe(METADATA),
      input: maybe(['in', { q: 1 }, '', null]),
      output: maybe(['out', 0]),
    };
    for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
    return out;
  };

  it('merges every sequence of requests as the whole log does, late and repeated events included', () => {
    let left = 0;
    for (let round = 0; round < 300; round++) {
      const pool = Array.from({ length: 1 + Math.floor(random() * 4) }, body);
      let whole: Stored<TraceRecord> | undefined;
      let wholeLog: LoggedEvent[] = [];
      let pruned: Stored<TraceRecord> | undefined;
      for (let request = 0; request < 1 + Math.floor(random() * 8); request++) {
        const now = new Date(Date.parse('2026-03-01T12:00:00.000Z') + request * 1000);
        const events = Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
          const b: Record<string, unknown> = { ...pick(pool), id: 't' };
          if (random() < 0.3) b['timestamp'] = ts(Math.floor(random() * 20));
          return { id: `ev-${++eventNo}`, type: 'trace-create', timestamp: ts(Math.floor(random() * 20)), body: b } as unknown as TraceEvent;
        });
        const reference = buildTrace('t', events, whole && { record: whole.record, log: { events: wholeLog } }, 'proj-1', now);
        wholeLog = [...wholeLog, ...events.map(toLogged)];
        whole = reference;
        pruned = buildTrace('t', events, pruned, 'proj-1', now);
        // The same record, to the order of every key.
        expect(JSON.stringify(pruned.record), `round ${round}, request ${request}`).toBe(JSON.stringify(whole.record));
        expect(pruned.log!.events.length).toBeLessThanOrEqual(wholeLog.length);
      }
      left += wholeLog.length - pruned!.log!.events.length;
    }
    // Many events were left out along the way.
    expect(left).toBeGreaterThan(300);
  });

  it('stays as long as the distinct updates, however many spans repeat one', () => {
    const update = { userId: 'u1', sessionId: 's1', metadata: { resourceAttributes: { 'service.name': 'agent' } } };
    let stored: Stored<TraceRecord> | undefined;
    for (let request = 0; request < 50; request++) {
      const events = Array.from({ length: 20 }, (_, i) => ({ id: `span-${request}-${i}`, type: 'trace-create', timestamp: ts(request * 20 + i), body: { id: 't', timestamp: ts(request * 20 + i), ...update } }) as unknown as TraceEvent);
      // Each request's first span started before every other (a parent that ends last).
      events[0] = { ...events[0]!, timestamp: ts(0), body: { ...events[0]!.body, timestamp: ts(0) } };
      stored = buildTrace('t', events, stored, 'proj-1', NOW);
    }
    expect(stored!.log!.events).toHaveLength(1);
    expect(stored!.record).toMatchObject({ userId: 'u1', sessionId: 's1', timestamp: ts(0) });
  });

  it('keeps the ids of the updates it leaves out as ingested, so that a retry does not apply them again', () => {
    const store = new MemoryStore();
    const first = ev('trace-create', 1, { id: 't', userId: 'u1' });
    run(store, [first]);
    const result = run(store, [ev('trace-create', 2, { id: 't', userId: 'u1' })]);
    expect(result.writes.eventIds).toContain(first.id);
    run(store, [ev('trace-create', 3, { id: 't', userId: 'u2' })]);
    // The first update sent again: already ingested, so the later user stays.
    const retried = run(store, [first]);
    expect(retried.writes.traces).toEqual([]);
    expect(store.traces.get('t')!.userId).toBe('u2');
  });
});
