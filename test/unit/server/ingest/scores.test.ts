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

describe('scores', () => {
  it('stores numeric, boolean, categorical, text and correction scores in the server shape', () => {
    const store = new MemoryStore();
    run(store, [
      ev('score-create', 0, { id: 'n', name: 'quality', value: 0.9, traceId: 't' }),
      ev('score-create', 0, { id: 'b', name: 'ok', value: 1, dataType: 'BOOLEAN', traceId: 't' }),
      ev('score-create', 0, { id: 'c', name: 'label', value: 'good', sessionId: 's' }),
      ev('score-create', 0, { id: 'x', name: 'note', value: 'fine', dataType: 'TEXT', traceId: 't', observationId: 'o', metadata: { by: 'ci' } }),
      ev('score-create', 0, { id: 'k', name: 'anything', value: 'fixed output', dataType: 'CORRECTION', traceId: 't' }),
    ]);
    expect(store.scores.get('n')).toMatchObject({ value: 0.9, stringValue: null, dataType: 'NUMERIC', source: 'API', traceId: 't', environment: 'default' });
    expect(store.scores.get('b')).toMatchObject({ value: 1, stringValue: 'True', dataType: 'BOOLEAN' });
    expect(store.scores.get('c')).toMatchObject({ value: null, stringValue: 'good', dataType: 'CATEGORICAL', sessionId: 's', traceId: null });
    expect(store.scores.get('x')).toMatchObject({ value: null, stringValue: 'fine', dataType: 'TEXT', observationId: 'o', metadata: { by: 'ci' } });
    expect(store.scores.get('k')).toMatchObject({ name: 'output', stringValue: 'fixed output', dataType: 'CORRECTION' });
  });

  it('acknowledges but drops what the worker drops: annotations without a config, unknown configs', () => {
    const store = new MemoryStore();
    const { response } = run(store, [
      ev('score-create', 0, { id: 'a', name: 'q', value: 1, traceId: 't', source: 'ANNOTATION' }),
      ev('score-create', 0, { id: 'c', name: 'q', value: 1, traceId: 't', configId: 'no-such-config' }),
    ]);
    expect(response.successes).toHaveLength(2);
    expect(store.scores.size).toBe(0);
  });

  it('refuses a score tied to both a trace and a session, and a BOOLEAN outside 0/1', () => {
    const store = new MemoryStore();
    const result = processBatch(
      [ev('score-create', 0, { name: 'q', value: 1, traceId: 't', sessionId: 's' }), ev('score-create', 0, { name: 'q', value: 2, dataType: 'BOOLEAN', traceId: 't' })],
      project,
      store,
      { now: NOW, count: engineCounter },
    );
    expect(result.response.errors.map((e) => JSON.parse(e.error!)[0].message)).toEqual([
      'Provide exactly one of the following: traceId (with optional observationId), sessionId or datasetRunId. ObservationId requires traceId.',
      'Value must be a number equal to either 0 or 1 for data type BOOLEAN',
    ]);
  });
});
