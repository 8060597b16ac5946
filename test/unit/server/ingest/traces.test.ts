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
