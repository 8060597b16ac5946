import { describe, expect, it } from 'vitest';
import { processBatch } from '../../../../src/server/ingest/batch.js';
import type { IngestAuth } from '../../../../src/server/ingest/types.js';
import { engineCounter } from '../../../../src/tokenizer/index.js';
import { MemoryStore } from './support/memory-store.js';

const project: IngestAuth = { projectId: 'proj-1', accessLevel: 'project' };
const publicKeyOnly: IngestAuth = { projectId: 'proj-1', accessLevel: 'scores' };
const NOW = new Date('2026-03-01T12:00:00.000Z');

function run(store: MemoryStore, batch: unknown[], auth: IngestAuth = project, now = NOW) {
  let n = 0;
  const result = processBatch(batch, auth, store, { now, count: engineCounter, newId: () => `generated-${++n}` });
  store.apply(result.writes);
  return result;
}

const ts = (s: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + s * 1000).toISOString();

describe('per-event answers', () => {
  it('answers an empty batch with empty lists', () => {
    const store = new MemoryStore();
    expect(run(store, []).response).toEqual({ successes: [], errors: [] });
  });

  it('reports each invalid event with the validation message and keeps going', () => {
    const store = new MemoryStore();
    const { response } = run(store, [
      { id: 'ok', type: 'trace-create', timestamp: ts(0), body: { id: 't1' } },
      { id: 'bad-time', type: 'trace-create', timestamp: '2026-03-01', body: { id: 't2' } },
      { id: 'bad-prompt', type: 'generation-create', timestamp: ts(0), body: { id: 'g1', promptName: 'p' } },
      { type: 'span-create', timestamp: ts(0), body: { id: 's' } },
      { id: 7, type: 'nope', timestamp: ts(0), body: {} },
      'not an event',
    ]);
    expect(response.successes).toEqual([{ id: 'ok', status: 201 }]);
    expect(response.errors.map((e) => [e.id, e.status, e.message])).toEqual([
      ['bad-time', 400, 'Invalid request data'],
      ['bad-prompt', 400, 'Invalid request data'],
      ['unknown', 400, 'Invalid request data'],
      ['unknown', 400, 'Invalid request data'],
      ['unknown', 400, 'Invalid request data'],
    ]);
    // The error text is zod's message for the issues, as the server sends it.
    expect(JSON.parse(response.errors[0]!.error!)).toEqual([expect.objectContaining({ code: 'invalid_format', format: 'datetime', path: ['timestamp'], message: 'Invalid ISO datetime' })]);
    expect(JSON.parse(response.errors[1]!.error!)).toEqual([{ code: 'custom', path: ['body'], message: 'Invalid input' }]);
    expect(JSON.parse(response.errors[2]!.error!)).toEqual([expect.objectContaining({ code: 'invalid_type', path: ['id'] })]);
    expect(store.traces.has('t1')).toBe(true);
    expect(store.traces.has('t2')).toBe(false);
  });

  // processEventBatch.ts (packages/shared/src/server/ingestion/): sortBatch's order; sdk-log events
  // are dropped after validation, before the answer is built from what is left.
  it('lists successes in processing order: other events by time, then updates by time; sdk-log in neither list', () => {
    const store = new MemoryStore();
    const { response } = run(store, [
      { id: 'u2', type: 'generation-update', timestamp: ts(5), body: { id: 'g' } },
      { id: 'log', type: 'sdk-log', timestamp: ts(0), body: { log: 'hello' } },
      { id: 'c2', type: 'generation-create', timestamp: ts(3), body: { id: 'g' } },
      { id: 'u1', type: 'span-update', timestamp: ts(1), body: { id: 's' } },
      { id: 'c1', type: 'trace-create', timestamp: ts(2), body: { id: 't' } },
    ]);
    expect(response.successes.map((s) => s.id)).toEqual(['c1', 'c2', 'u1', 'u2']);
    expect(response.errors).toEqual([]);
  });

  it('lets a public key alone send scores and logs only', () => {
    const store = new MemoryStore();
    const { response } = run(
      store,
      [
        { id: 'e1', type: 'trace-create', timestamp: ts(0), body: { id: 't' } },
        { id: 'e2', type: 'score-create', timestamp: ts(0), body: { id: 's', name: 'q', value: 1, traceId: 't' } },
        { id: 'e3', type: 'sdk-log', timestamp: ts(0), body: { log: {} } },
        { id: 'e4', type: 'generation-create', timestamp: ts(0), body: { id: 'g' } },
      ],
      publicKeyOnly,
    );
    expect(response.successes).toEqual([{ id: 'e2', status: 201 }]);
    expect(response.errors).toEqual([
      { id: 'e1', status: 401, message: 'Authentication error', error: 'Access Scope Denied' },
      { id: 'e4', status: 401, message: 'Authentication error', error: 'Access Scope Denied' },
    ]);
    expect([...store.scores.keys()]).toEqual(['s']);
    expect(store.traces.size + store.observations.size).toBe(0);
  });

  it('puts validation errors before scope errors', () => {
    const store = new MemoryStore();
    const { response } = run(
      store,
      [
        { id: 'scope', type: 'trace-create', timestamp: ts(0), body: {} },
        { id: 'invalid', type: 'trace-create', timestamp: 'x', body: {} },
      ],
      publicKeyOnly,
    );
    expect(response.errors.map((e) => e.id)).toEqual(['invalid', 'scope']);
  });

  it('refuses dataset run items on the public API', () => {
    const store = new MemoryStore();
    const { response } = run(store, [
      { id: 'd', type: 'dataset-run-item-create', timestamp: ts(0), body: { traceId: 't', datasetId: 'd', runId: 'r', datasetItemId: 'i' } },
    ]);
    expect(JSON.parse(response.errors[0]!.error!)[0].message).toBe('Dataset run item creation is only allowed for internal usage');
  });

  // processEventBatch.ts skips events without body.id when grouping them for the worker, yet lists
  // them in successes; routes-modes.test.ts checks every type, in each write mode.
  it('acknowledges a trace without an id but stores nothing', () => {
    const store = new MemoryStore();
    const { response, writes } = run(store, [{ id: 'e', type: 'trace-create', timestamp: ts(0), body: { name: 'x' } }]);
    expect(response.successes).toEqual([{ id: 'e', status: 201 }]);
    expect(writes.traces).toEqual([]);
  });
});

describe('deduplication by event id', () => {
  it('applies a retried batch once: same answer, nothing written the second time', () => {
    const store = new MemoryStore();
    const batch = [
      { id: 'e1', type: 'trace-create', timestamp: ts(0), body: { id: 't', name: 'first', tags: ['a'] } },
      { id: 'e2', type: 'generation-create', timestamp: ts(1), body: { id: 'g', traceId: 't', model: 'gpt-4o', usageDetails: { input: 10, output: 5 } } },
    ];
    const first = run(store, batch);
    const before = structuredClone([...store.traces.values(), ...store.observations.values()]);
    const second = run(store, batch, project, new Date(NOW.getTime() + 60_000));
    expect(second.response).toEqual(first.response);
    expect(second.writes).toEqual({ traces: [], observations: [], scores: [], eventIds: [] });
    expect([...store.traces.values(), ...store.observations.values()]).toEqual(before);
  });

  it('finds the applied events in the log of their record: nothing else is recorded for them', () => {
    const store = new MemoryStore();
    const first = run(store, [
      { id: 'e1', type: 'trace-create', timestamp: ts(0), body: { id: 't' } },
      { id: 'e2', type: 'span-create', timestamp: ts(0), body: { id: 's', traceId: 't' } },
      // A score naming a config this server does not have is dropped: no log to keep it in.
      { id: 'e3', type: 'score-create', timestamp: ts(0), body: { id: 'sc', traceId: 't', name: 'q', value: 1, configId: 'unknown' } },
    ]);
    expect(first.writes.eventIds).toEqual(['e3']);
    expect(store.logs.traces.get('t')!.events.map((e) => e.id)).toEqual(['e1']);
    expect(store.logs.observations.get('s')!.events.map((e) => e.id)).toEqual(['e2']);
  });

  it('skips events recorded as ingested by the store (logs written before they kept event ids)', () => {
    const store = new MemoryStore();
    run(store, [{ id: 'old', type: 'span-create', timestamp: ts(0), body: { id: 's', name: 'old' } }]);
    // As such a log was stored: no event id in it, the id in the table of ingested events.
    for (const logged of store.logs.observations.get('s')!.events) delete logged.id;
    store.events.add('old');
    const again = run(store, [{ id: 'old', type: 'span-create', timestamp: ts(0), body: { id: 's', name: 'replayed' } }]);
    expect(again.writes.observations).toEqual([]);
    const update = run(store, [{ id: 'new', type: 'span-update', timestamp: ts(1), body: { id: 's', version: '2' } }]);
    expect(update.writes.observations[0]!.record).toMatchObject({ name: 'old', version: '2' });
  });

  it('applies an event id seen before for another record (the service keeps events per record)', () => {
    const store = new MemoryStore();
    run(store, [{ id: 'same', type: 'span-create', timestamp: ts(0), body: { id: 'a', name: 'a' } }]);
    run(store, [{ id: 'same', type: 'span-create', timestamp: ts(0), body: { id: 'b', name: 'b' } }]);
    expect([...store.observations.keys()].sort()).toEqual(['a', 'b']);
  });

  it('skips a replayed create that would undo a later update', () => {
    const store = new MemoryStore();
    const create = { id: 'e1', type: 'span-create', timestamp: ts(0), body: { id: 's', name: 'old' } };
    run(store, [create]);
    run(store, [{ id: 'e2', type: 'span-update', timestamp: ts(1), body: { id: 's', name: 'new' } }]);
    run(store, [create]);
    expect(store.observations.get('s')!.name).toBe('new');
  });
});
