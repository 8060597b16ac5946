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

describe('prompt links', () => {
  it('links a generation to the project prompt by name and version, and to nothing when there is none', () => {
    const store = new MemoryStore();
    store.prompts = [{ id: 'prompt-row-7', name: 'support/answer', version: 3 }];
    run(store, [
      ev('generation-create', 0, { id: 'linked', promptName: 'support/answer', promptVersion: 3 }),
      ev('generation-create', 0, { id: 'missing', promptName: 'support/answer', promptVersion: 4 }),
    ]);
    expect(store.observations.get('linked')).toMatchObject({ promptId: 'prompt-row-7', promptName: 'support/answer', promptVersion: 3 });
    expect(store.observations.get('missing')).toMatchObject({ promptId: null, promptName: null, promptVersion: null });
  });

  it('keeps a stored link when a later event names none', () => {
    const store = new MemoryStore();
    store.prompts = [{ id: 'p1', name: 'p', version: 1 }];
    run(store, [ev('generation-create', 0, { id: 'g', promptName: 'p', promptVersion: 1 })]);
    run(store, [ev('generation-update', 1, { id: 'g', output: 'x' })]);
    expect(store.observations.get('g')!.promptId).toBe('p1');
  });
});

describe('tool definitions in batch metadata', () => {
  it('moves metadata.tools into the input before it is tokenized', () => {
    const store = new MemoryStore();
    const tool = { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } };
    run(store, [ev('generation-create', 0, { id: 'g', model: 'gpt-4o', input: [{ role: 'user', content: 'hi' }], metadata: { tools: [tool], team: 'search' } })]);
    const record = store.observations.get('g')!;
    expect(record.input).toEqual({ messages: [{ role: 'user', content: 'hi' }], tools: [tool] });
    expect(record.metadata).toEqual({ team: 'search' });
    // Counted as text (JSON of the whole object), no longer as chat messages.
    expect(record.usageDetails.input).toBeGreaterThan(10);
  });
});
