// Events of one id that arrive out of time order: the service re-merges every event of the id in
// time order, so an event that arrives late with an older timestamp never overrides newer ones.
// However the events are split into requests and in whatever order the requests come, the record
// is the one a single request with all of them gives.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { processBatch } from '../../../../src/server/ingest/batch.js';
import type { IngestAuth } from '../../../../src/server/ingest/types.js';
import { engineCounter } from '../../../../src/tokenizer/index.js';
import { MemoryStore } from './support/memory-store.js';

const project: IngestAuth = { projectId: 'proj-1', accessLevel: 'project' };
const NOW = new Date('2026-03-01T12:00:00.000Z');
const ts = (s: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + s * 1000).toISOString();

let eventNo = 0;
const ev = (type: string, s: number, body: Record<string, unknown>) => ({ id: `ev-${++eventNo}`, type, timestamp: ts(s), body });

function run(store: MemoryStore, batch: unknown[]) {
  const result = processBatch(batch, project, store, { now: NOW, count: engineCounter, newId: () => 'generated-trace-id' });
  expect(result.response.errors).toEqual([]);
  store.apply(result.writes);
}

describe('an event that arrives after newer ones', () => {
  it('observation: later timestamps win whatever the arrival order (name, metadata, usage, output)', () => {
    const store = new MemoryStore();
    run(store, [
      ev('generation-create', 0, { id: 'g', traceId: 't', name: 'first', model: 'gpt-4o', metadata: { step: 'create', a: { x: 1 } }, usageDetails: { input: 10, output: 1 } }),
      ev('generation-update', 10, { id: 'g', name: 'newest', metadata: { step: 'final' }, output: 'final answer', usageDetails: { input: 30, output: 3 } }),
    ]);
    // A retried request: its event is older than the newest one already stored.
    run(store, [ev('generation-update', 5, { id: 'g', name: 'middle', metadata: { step: 'middle', a: { y: 2 } }, output: 'draft', usageDetails: { input: 20, output: 2 } })]);
    expect(store.observations.get('g')).toMatchObject({
      name: 'newest',
      metadata: { step: 'final', a: { x: 1, y: 2 } },
      output: 'final answer',
      providedUsageDetails: { input: 30, output: 3 },
      usageDetails: { input: 30, output: 3, total: 33 },
    });
  });

  it('observation: an older event still fills what no newer one set, and its input wins when it is the last truthy one in time', () => {
    const store = new MemoryStore();
    run(store, [ev('span-create', 0, { id: 's', traceId: 't', name: 'retrieve' }), ev('span-update', 10, { id: 's', endTime: ts(10) })]);
    run(store, [ev('span-update', 5, { id: 's', input: 'question', level: 'WARNING', statusMessage: 'slow' })]);
    expect(store.observations.get('s')).toMatchObject({ name: 'retrieve', input: 'question', level: 'WARNING', statusMessage: 'slow', endTime: ts(10) });
    // A newer input then replaces it, an older one does not.
    run(store, [ev('span-update', 3, { id: 's', input: 'older question' })]);
    expect(store.observations.get('s')!.input).toBe('question');
    run(store, [ev('span-update', 12, { id: 's', input: 'newer question' })]);
    expect(store.observations.get('s')!.input).toBe('newer question');
  });

  it('observation: the pricing tier reads the newest event that carried usage, not the one that arrived last', () => {
    const store = new MemoryStore();
    run(store, [
      ev('generation-create', 0, { id: 'g', model: 'gpt-4o', modelParameters: { service_tier: 'default' }, usageDetails: { input: 1, output: 1 } }),
      ev('generation-update', 10, { id: 'g', modelParameters: { service_tier: 'priority' }, usageDetails: { input: 2, output: 2 } }),
    ]);
    expect(store.observations.get('g')!.usagePricingTierName).toBe('Fast mode');
    run(store, [ev('generation-update', 5, { id: 'g', modelParameters: { service_tier: 'default' }, usageDetails: { input: 3, output: 3 } })]);
    expect(store.observations.get('g')).toMatchObject({ usagePricingTierName: 'Fast mode', modelParameters: { service_tier: 'priority' }, usageDetails: { input: 2, output: 2, total: 4 } });
  });

  it('trace: later timestamps win, tags are the union, the input is the newest truthy one', () => {
    const store = new MemoryStore();
    run(store, [ev('trace-create', 10, { id: 't', name: 'newest', tags: ['b'], input: 'new input', userId: 'u2' })]);
    run(store, [ev('trace-create', 5, { id: 't', name: 'older', tags: ['a'], input: 'old input', sessionId: 's1', userId: 'u1' })]);
    expect(store.traces.get('t')).toMatchObject({ name: 'newest', tags: ['a', 'b'], input: 'new input', sessionId: 's1', userId: 'u2' });
  });

  it('score: the newest value wins', () => {
    const store = new MemoryStore();
    run(store, [ev('score-create', 10, { id: 'sc', name: 'quality', value: 0.9, traceId: 't', comment: 'final' })]);
    run(store, [ev('score-create', 5, { id: 'sc', name: 'quality', value: 0.1, traceId: 't', comment: 'draft', metadata: { by: 'ci' } })]);
    expect(store.scores.get('sc')).toMatchObject({ value: 0.9, comment: 'final', metadata: { by: 'ci' } });
  });

  it('keeps the events without their input and output, and the raw input only when tools moved into the stored one', () => {
    const store = new MemoryStore();
    run(store, [ev('generation-create', 0, { id: 'g', model: 'gpt-4o', input: [{ role: 'user', content: 'hi' }], output: 'hello', metadata: { team: 'search' } })]);
    const log = store.logs.observations.get('g')!;
    expect(log.events).toEqual([{ id: expect.any(String), type: 'generation-create', timestamp: ts(0), body: expect.not.objectContaining({ input: expect.anything() }), io: 3 }]);
    expect(JSON.stringify(log)).not.toContain('hello');
    expect(log).not.toHaveProperty('rawInput');

    const tool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } };
    run(store, [ev('generation-update', 1, { id: 'g', metadata: { tools: [tool] } })]);
    expect(store.observations.get('g')!.input).toEqual({ messages: [{ role: 'user', content: 'hi' }], tools: [tool] });
    expect(store.logs.observations.get('g')!.rawInput).toEqual([{ role: 'user', content: 'hi' }]);
    // Merging again starts from the input as sent, so the tools are not added twice.
    run(store, [ev('generation-update', 2, { id: 'g', output: 'bye' })]);
    expect(store.observations.get('g')!.input).toEqual({ messages: [{ role: 'user', content: 'hi' }], tools: [tool] });
  });
});

// The fields whose value a single request and any split of it must agree on. Immutable fields
// (trace id, start time, environment) keep the first value stored, as on the service, so the
// events below give them one value.
const MUTABLE = ['name', 'level', 'statusMessage', 'version', 'input', 'output', 'metadata', 'providedModelName', 'modelParameters', 'providedUsageDetails', 'usageDetails', 'costDetails', 'totalCost', 'endTime', 'type'] as const;

const fieldValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.constantFrom('a', 'b', 'c'));
const eventArb = fc.record({
  kind: fc.constantFrom('generation-create', 'generation-update', 'span-update'),
  at: fc.integer({ min: 0, max: 20 }),
  name: fieldValue,
  version: fieldValue,
  input: fc.oneof(fc.constant(undefined), fc.constant(''), fc.constantFrom('q1', 'q2')),
  output: fc.oneof(fc.constant(undefined), fc.constantFrom('o1', 'o2')),
  level: fc.constantFrom(undefined, 'DEBUG', 'ERROR'),
  metadata: fc.oneof(fc.constant(undefined), fc.record({ k: fc.constantFrom('x', 'y'), n: fc.record({ p: fc.constantFrom(1, 2) }, { requiredKeys: [] }) }, { requiredKeys: [] })),
  usage: fc.oneof(fc.constant(undefined), fc.record({ input: fc.integer({ min: 0, max: 50 }), output: fc.integer({ min: 0, max: 50 }) })),
  end: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
});

function eventOf(e: typeof eventArb extends fc.Arbitrary<infer T> ? T : never, n: number) {
  const body: Record<string, unknown> = { id: 'g', traceId: 't', startTime: ts(0) };
  if (e.kind !== 'span-update') body['model'] = 'gpt-4o';
  for (const key of ['name', 'version', 'input', 'output', 'level', 'metadata'] as const) if (e[key] !== undefined) body[key] = e[key];
  if (e.usage && e.kind !== 'span-update') body['usageDetails'] = e.usage;
  if (e.end !== undefined) body['endTime'] = ts(e.end);
  // Distinct times: events at one millisecond tie, and ties go by arrival order here.
  return { id: `p-${n}`, type: e.kind, timestamp: new Date(Date.parse(ts(e.at)) + n).toISOString(), body };
}

describe('any split of the events into requests, in any order', () => {
  it('gives the record of one request with all of them', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { minLength: 1, maxLength: 6 }), fc.array(fc.nat(), { minLength: 6, maxLength: 6 }), (raw, cuts) => {
        const events = raw.map(eventOf);
        const once = new MemoryStore();
        once.apply(processBatch(events, project, once, { now: NOW, count: engineCounter }).writes);
        // Shuffle by the random numbers, then cut into requests.
        const shuffled = events.map((event, i) => ({ event, key: cuts[i]! })).sort((a, b) => a.key - b.key).map((x) => x.event);
        const split = new MemoryStore();
        let start = 0;
        for (let i = 0; start < shuffled.length; i++) {
          const end = Math.min(shuffled.length, start + 1 + ((cuts[i] ?? 0) % 3));
          split.apply(processBatch(shuffled.slice(start, end), project, split, { now: NOW, count: engineCounter }).writes);
          start = end;
        }
        const pickMutable = (store: MemoryStore) => Object.fromEntries(MUTABLE.map((key) => [key, store.observations.get('g')?.[key]]));
        expect(pickMutable(split)).toEqual(pickMutable(once));
      }),
      { numRuns: 300 },
    );
  });
});
