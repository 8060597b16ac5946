import { describe, expect, it } from 'vitest';
import { processBatch } from '../../../../src/server/ingest/batch.js';
import { deepMerge, eventMetadata, rowMetadata, storedMetadata } from '../../../../src/server/ingest/merge.js';
import { normalizeEnvironment } from '../../../../src/server/ingest/schemas.js';
import type { IngestAuth } from '../../../../src/server/ingest/types.js';
import { engineCounter, parseJsonPrioritised } from '../../../../src/tokenizer/index.js';
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

describe('observation merge', () => {
  it('folds create and update of one id, in one request or across requests, into the same record', () => {
    const events = [
      ev('span-create', 0, { id: 's', traceId: 't', name: 'retrieve', startTime: ts(0), metadata: { a: 1, nested: { x: 1 } }, input: 'question' }),
      ev('span-update', 2, { id: 's', endTime: ts(2), metadata: { b: 2, nested: { y: 2 } }, output: { docs: 3 } }),
    ];
    const one = new MemoryStore();
    run(one, events);
    const two = new MemoryStore();
    run(two, [events[0]]);
    run(two, [events[1]]);
    for (const store of [one, two]) {
      expect(store.observations.get('s')).toMatchObject({
        type: 'SPAN',
        traceId: 't',
        name: 'retrieve',
        startTime: ts(0),
        endTime: ts(2),
        metadata: { a: 1, b: 2, nested: { x: 1, y: 2 } },
        input: 'question',
        output: { docs: 3 },
        level: 'DEFAULT',
        createdAt: NOW.toISOString(),
      });
    }
  });

  it('keeps the first start time, trace id and environment; a later null name clears it, a missing one does not', () => {
    const store = new MemoryStore();
    run(store, [ev('generation-create', 0, { id: 'g', traceId: 't1', name: 'a', environment: 'prod', startTime: ts(0), statusMessage: 'x' })]);
    run(store, [ev('generation-update', 5, { id: 'g', traceId: 't2', environment: 'dev', startTime: ts(3), statusMessage: null, version: 'v2' })]);
    expect(store.observations.get('g')).toMatchObject({ traceId: 't1', environment: 'prod', startTime: ts(0), name: 'a', statusMessage: 'x', version: 'v2' });
    run(store, [ev('generation-update', 6, { id: 'g', name: null })]);
    expect(store.observations.get('g')!.name).toBeNull();
  });

  it('orders events by timestamp, not by position, and on equal times puts the create first', () => {
    const store = new MemoryStore();
    run(store, [ev('span-update', 1, { id: 's', name: 'second' }), ev('span-create', 0, { id: 's', name: 'first' })]);
    expect(store.observations.get('s')!.name).toBe('second');
    const tie = new MemoryStore();
    run(tie, [ev('span-update', 0, { id: 'x', name: 'update' }), ev('span-create', 0, { id: 'x', name: 'create' })]);
    expect(tie.observations.get('x')!.name).toBe('update');
  });

  it('replaces provided usage as a whole when an event brings new usage, and keeps it when an event brings none', () => {
    const store = new MemoryStore();
    run(store, [ev('generation-create', 0, { id: 'g', model: 'gpt-4o', usageDetails: { input: 10, output: 5, cache: 1 } })]);
    run(store, [ev('generation-update', 1, { id: 'g', name: 'renamed' })]);
    expect(store.observations.get('g')!.usageDetails).toEqual({ input: 10, output: 5, cache: 1, total: 16 });
    run(store, [ev('generation-update', 2, { id: 'g', usageDetails: { input: 20, output: 1 } })]);
    expect(store.observations.get('g')).toMatchObject({ providedUsageDetails: { input: 20, output: 1 }, usageDetails: { input: 20, output: 1, total: 21 } });
  });

  it('pulls an end time before the start up to the start', () => {
    const store = new MemoryStore();
    run(store, [ev('span-create', 0, { id: 's', startTime: ts(10), endTime: ts(5) })]);
    expect(store.observations.get('s')).toMatchObject({ startTime: ts(10), endTime: ts(10) });
  });

  it('takes the last truthy input and output, falling back to the stored ones', () => {
    const store = new MemoryStore();
    run(store, [ev('span-create', 0, { id: 's', input: 'in', output: 'out' })]);
    run(store, [ev('span-update', 1, { id: 's', input: '', output: 0 })]);
    expect(store.observations.get('s')).toMatchObject({ input: 'in', output: 'out' });
  });

  it('gives an observation without a trace id a generated one', () => {
    const store = new MemoryStore();
    run(store, [ev('event-create', 0, { id: 'e' })]);
    expect(store.observations.get('e')).toMatchObject({ type: 'EVENT', traceId: 'generated-trace-id', startTime: ts(0) });
  });

  it('merges an event of another type with every earlier event of the id, whichever type the server looks the record up by', () => {
    const store = new MemoryStore();
    run(store, [ev('span-create', 0, { id: 'x', name: 'span', input: 'kept' })]);
    run(store, [ev('generation-update', 1, { id: 'x', model: 'gpt-4o' })]);
    expect(store.observations.get('x')).toMatchObject({ type: 'GENERATION', name: 'span', input: 'kept', providedModelName: 'gpt-4o' });
  });

  it('does not merge into a stored observation of another type that has no kept events (stored before, or by OpenTelemetry)', () => {
    const store = new MemoryStore();
    run(store, [ev('span-create', 0, { id: 'x', name: 'span', input: 'kept?' })]);
    store.logs.observations.set('x', null);
    run(store, [ev('generation-update', 1, { id: 'x', model: 'gpt-4o' })]);
    expect(store.observations.get('x')).toMatchObject({ type: 'GENERATION', name: null, input: null, providedModelName: 'gpt-4o' });
  });

  it('reads legacy observation-create/update with their body type and OpenAI camelCase usage', () => {
    const store = new MemoryStore();
    run(store, [
      ev('observation-create', 0, { id: 'o', type: 'GENERATION', model: 'gpt-4o', usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 } }),
      ev('observation-update', 1, { id: 'o', type: 'GENERATION', output: 'done' }),
    ]);
    expect(store.observations.get('o')).toMatchObject({ type: 'GENERATION', providedUsageDetails: { input: 7, output: 3, total: 10 }, output: 'done' });
  });

  it('turns OpenAI Chat Completions and Responses usage into input/output with details split off', () => {
    const store = new MemoryStore();
    run(store, [
      ev('generation-create', 0, {
        id: 'chat',
        usageDetails: { prompt_tokens: 100, completion_tokens: 50, total_tokens: 150, prompt_tokens_details: { cached_tokens: 30 }, completion_tokens_details: { reasoning_tokens: 20 } },
      }),
      ev('generation-create', 0, { id: 'resp', usageDetails: { input_tokens: 9, output_tokens: 4, total_tokens: 13, input_tokens_details: { cached_tokens: 9 } } }),
      ev('generation-create', 0, { id: 'anthropic', usageDetails: { input_tokens: 9, output_tokens: 4, cache_read_input_tokens: 2, bad: -1, text: '12' } }),
    ]);
    expect(store.observations.get('chat')!.usageDetails).toEqual({ input: 70, output: 30, total: 150, input_cached_tokens: 30, output_reasoning_tokens: 20 });
    expect(store.observations.get('resp')!.usageDetails).toEqual({ input: 0, output: 4, total: 13, input_cached_tokens: 9 });
    expect(store.observations.get('anthropic')!.usageDetails).toEqual({ input_tokens: 9, output_tokens: 4, cache_read_input_tokens: 2, text: 12, total: 27 });
  });

  it('merges legacy usage and usage details, usage details winning', () => {
    const store = new MemoryStore();
    run(store, [ev('generation-create', 0, { id: 'g', usage: { input: 4, output: -7, total: -3, inputCost: 0.5 }, usageDetails: { output: 2 }, costDetails: { output: 1, bad: -1 } })]);
    expect(store.observations.get('g')).toMatchObject({
      providedUsageDetails: { input: 4, output: 2 },
      usageDetails: { input: 4, output: 2, total: 6 },
      providedCostDetails: { input: 0.5, output: 1 },
      costDetails: { input: 0.5, output: 1, total: 1.5 },
      totalCost: 1.5,
    });
  });
});

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

describe('environment names', () => {
  it.each([
    [undefined, 'default'],
    ['Production', 'production'],
    ['langfuse-prod', 'prod'],
    ['LANGFUSElangfuse_staging', 'staging'],
    ['langfuse', 'default'],
    ['has space', 'default'],
    ['a'.repeat(50), 'a'.repeat(40)],
    [42, 'default'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeEnvironment(input)).toBe(expected);
  });
});

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

describe('metadata as stored and read back', () => {
  it('reads values back JSON-parsed when they parse, as the server returns them', () => {
    expect(storedMetadata({ n: 1, s: '1', t: 'text', o: { a: [1] }, q: '"quoted"' })).toEqual({ n: 1, s: 1, t: 'text', o: { a: [1] }, q: 'quoted' });
  });

  it('turns stored metadata back into the server string map without loss', () => {
    for (const stored of [{ s: '1' }, { s: 'text' }, { n: 1 }, { o: { a: 1 } }, { q: '"x"' }, { z: null }]) {
      expect(storedMetadata(rowMetadata(stored))).toEqual(stored);
      expect(storedMetadata(eventMetadata(stored))).toEqual(stored);
    }
  });

  it('wraps a literal or an array body metadata under "metadata"', () => {
    const store = new MemoryStore();
    run(store, [ev('span-create', 0, { id: 'a', metadata: 'plain' }), ev('span-create', 0, { id: 'b', metadata: [1, 2] })]);
    expect(store.observations.get('a')!.metadata).toEqual({ metadata: 'plain' });
    expect(store.observations.get('b')!.metadata).toEqual({ metadata: [1, 2] });
  });

  it('merges deeply like lodash: objects by key, arrays by index, null replaces', () => {
    expect(deepMerge({ a: { x: 1, y: 2 }, l: [1, 2, 3], k: 1 }, { a: { y: 3 }, l: [9], k: null })).toEqual({ a: { x: 1, y: 3 }, l: [9, 2, 3], k: null });
    expect(deepMerge({ a: 'text' }, { a: { y: 1 } })).toEqual({ a: { y: 1 } });
  });
});

describe('reading stored metadata values', () => {
  it.each([
    ['1', 1],
    [' -2.5e3 ', -2500],
    ['1-2', '1-2'],
    ['0123', '0123'],
    ['true', true],
    ['nope', 'nope'],
    ['null', null],
    ['{"a":[1]}', { a: [1] }],
    ['[1,', '[1,'],
    ['"quoted"', 'quoted'],
    ['', ''],
  ])('%j reads back as %j, as JSON.parse with a fallback to the text would', (text, expected) => {
    expect(parseJsonPrioritised(text)).toEqual(expected);
    let reference: unknown;
    try {
      reference = JSON.parse(text);
    } catch {
      reference = text;
    }
    expect(parseJsonPrioritised(text)).toEqual(reference);
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
