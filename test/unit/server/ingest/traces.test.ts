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

describe('a trace\'s log without the updates a later one overwrites', () => {
  // A small seeded generator: the same cases on every run.
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const maybe = <T>(items: readonly T[]): T | undefined => (random() < 0.4 ? undefined : pick(items));
  // Shapes that merge into one another, replace one another, or neither.
  const METADATA = [
    {},
    { k: 'v' },
    { k: { x: 1 } },
    { k: { x: 3, y: 2 } },
    { k: { y: 4 } },
    { k: { x: { z: 1 } } },
    { k: '{"x":2}' },
    { k: 5 },
    { k: [1, 2] },
    { k: [3] },
    { k: [{ x: 1 }, 2, 3] },
    { k: null },
    { j: { y: { z: 1 } } },
    { k: { w: 3 }, j: 'text' },
    { a: [{ b: 1 }], k: null },
    { j: 1, k: { x: 2 } },
    'plain text',
    [1, 2],
  ];
  const body = (): Record<string, unknown> => {
    const out: Record<string, unknown> = {
      name: maybe(['a', 'b', '', null]),
      userId: maybe(['u1', 'u2', null]),
      sessionId: maybe(['s1', 's2']),
      public: maybe([true, false]),
      tags: maybe([[], ['x'], ['y', 'x']]),
      release: maybe(['r1', null]),
      version: maybe(['v1', 'v2']),
      environment: maybe(['prod', 'staging']),
      metadata: maybe(METADATA),
      input: maybe(['in', { q: 1 }, '', null]),
      output: maybe(['out', 0]),
    };
    for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
    return out;
  };

  /** JSON with every object's keys sorted. */
  const canonical = (value: unknown): string =>
    JSON.stringify(value, (_key, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v));

  /**
   * Each request's record with the log kept whole and with it as built: the same values. (The
   * keys of a nested metadata object may come in another order: after a value of another type
   * replaced the object, the events that build it again may be fewer.)
   */
  function sameAsWhole(requests: readonly TraceEvent[][], label: string): number {
    let whole: Stored<TraceRecord> | undefined;
    let wholeLog: LoggedEvent[] = [];
    let pruned: Stored<TraceRecord> | undefined;
    requests.forEach((events, request) => {
      const now = new Date(Date.parse('2026-03-01T12:00:00.000Z') + request * 1000);
      whole = buildTrace('t', events, whole && { record: whole.record, log: { events: wholeLog } }, 'proj-1', now);
      wholeLog = [...wholeLog, ...events.map(toLogged)];
      pruned = buildTrace('t', events, pruned, 'proj-1', now);
      expect(canonical(pruned.record), `${label}, request ${request}`).toBe(canonical(whole.record));
      // The record's own fields in their order.
      expect(Object.keys(pruned.record)).toEqual(Object.keys(whole.record));
    });
    return wholeLog.length - pruned!.log!.events.length;
  }

  const one = (s: number, body: Record<string, unknown>) => [{ id: `ev-${++eventNo}`, type: 'trace-create', timestamp: ts(s), body: { id: 't', ...body } } as unknown as TraceEvent];

  it('keeps an event whose metadata a later one would merge into instead of replace', () => {
    // A value replaced by a scalar, then by an object: the object does not replace the scalar's
    // effect (it would merge into what the scalar had replaced).
    const kept = { userId: 'u1', metadata: { k: { x: 1 } } };
    sameAsWhole([one(1, kept), one(2, { metadata: { k: 5 } }), one(3, { metadata: { k: { y: 2 } } }), one(4, { name: 'n' })], 'object after a scalar');
    sameAsWhole([one(1, kept), one(2, { metadata: { k: [1, 2] } }), one(3, { metadata: { k: [9] } }), one(4, { name: 'n' })], 'array after an array');
    sameAsWhole([one(1, { version: 'v2' }), one(2, { version: 'v1', userId: 'u1' }), one(3, { userId: 'u2' }), one(4, { name: 'n' })], 'a field the later event leaves out');
    // A late event between an event and the one that overwrites it.
    expect(sameAsWhole([one(1, kept), one(3, { metadata: { k: { x: 2 } } }), one(5, { metadata: { k: { x: 3 }, j: 1 }, userId: 'u2' }), one(2, { metadata: { k: 7 } }), one(4, { name: 'n' })], 'late')).toBeGreaterThan(0);
  });

  it('merges every sequence of requests as the whole log does, late and repeated events included', () => {
    let left = 0;
    for (let round = 0; round < 1000; round++) {
      const pool = Array.from({ length: 1 + Math.floor(random() * 6) }, body);
      const requests = Array.from({ length: 1 + Math.floor(random() * 10) }, () =>
        Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
          const b: Record<string, unknown> = { ...pick(pool), id: 't' };
          if (random() < 0.3) b['timestamp'] = ts(Math.floor(random() * 20));
          return { id: `ev-${++eventNo}`, type: 'trace-create', timestamp: ts(Math.floor(random() * 20)), body: b } as unknown as TraceEvent;
        }),
      );
      left += sameAsWhole(requests, `round ${round}`);
    }
    // Many events were left out along the way.
    expect(left).toBeGreaterThan(1000);
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

  it('stays short when each update sets again what the one before set, with other values', () => {
    let stored: Stored<TraceRecord> | undefined;
    for (let request = 0; request < 50; request++) {
      const events = Array.from({ length: 20 }, (_, i) => {
        const n = request * 20 + i;
        return { id: `step-${n}`, type: 'trace-create', timestamp: ts(n), body: { id: 't', userId: 'u1', metadata: { step: n, agent: { phase: n % 3 } } } } as unknown as TraceEvent;
      });
      stored = buildTrace('t', events, stored, 'proj-1', NOW);
    }
    expect(stored!.log!.events).toHaveLength(1);
    expect(stored!.record.metadata).toEqual({ step: 999, agent: { phase: 0 } });
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
