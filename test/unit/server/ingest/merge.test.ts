import { describe, expect, it } from 'vitest';
import { processBatch } from '../../../../src/server/ingest/batch.js';
import { deepMerge, eventMetadata, mergeRecords, rowMetadata, storedMetadata } from '../../../../src/server/ingest/merge.js';
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

describe('metadata as stored and read back', () => {
  it('reads values back JSON-parsed when they parse, as the server returns them', () => {
    expect(storedMetadata({ n: 1, s: '1', t: 'text', o: { a: [1] }, q: '"quoted"' })).toEqual({ n: 1, s: 1, t: 'text', o: { a: [1] }, q: 'quoted' });
  });

  // The worker keeps each value as a string (a string as it is); the read path parses each one
  // with parseJsonPrioritised (packages/shared/src/server/utils/metadata_conversion.ts), which
  // keeps a number a double would round as its digits (packages/shared/src/utils/json.ts).
  it('reads a numeric string back as a number, and a long one as its exact digits, as the server does', () => {
    expect(storedMetadata({ n: '42', id: '12345678901234567890', big: 12345678901234567890, f: '0.1', nested: '{"id": 9007199254740993}' })).toEqual({
      n: 42,
      id: '12345678901234567890',
      big: 12345678901234567000,
      f: 0.1,
      nested: { id: '9007199254740993' },
    });
    const store = new MemoryStore();
    run(store, [ev('span-create', 0, { id: 'p', metadata: { orderId: '12345678901234567890', count: '3' } })]);
    run(store, [ev('span-update', 1, { id: 'p', metadata: { more: 'x' } })]);
    expect(store.observations.get('p')!.metadata).toEqual({ orderId: '12345678901234567890', count: 3, more: 'x' });
  });

  it('turns stored metadata back into the server string map without loss', () => {
    for (const stored of [{ s: '1' }, { s: 'text' }, { n: 1 }, { o: { a: 1 } }, { q: '"x"' }, { z: null }, { long: '12345678901234567890' }]) {
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

  it('folds the metadata of many records as merging them one by one does, and changes none of them', () => {
    const freeze = <T>(value: T): T => {
      if (typeof value === 'object' && value !== null) for (const inner of Object.values(value)) freeze(inner);
      return Object.freeze(value);
    };
    const records = freeze([
      { id: 'x', metadata: { a: { x: 1, l: [1, { deep: true }] }, s: 'one' } },
      { id: 'x', metadata: { a: { y: 2, l: [7] }, t: [1, 2] } },
      { id: 'x', metadata: { a: 'replaced', t: [{ o: 1 }] } },
      { id: 'x', metadata: { a: { z: 3 }, t: [{ p: 2 }, 5], s: null } },
      { id: 'x' },
      { id: 'x', metadata: { n: { [`k`]: { m: [1] } } } },
    ]);
    let oneByOne: unknown = {};
    for (const record of records) oneByOne = deepMerge(oneByOne, (record as { metadata?: unknown }).metadata ?? {});
    const merged = mergeRecords(records, new Set(['id']));
    expect(merged['metadata']).toEqual(oneByOne);
    expect(merged['metadata']).toEqual({ a: { z: 3 }, s: null, t: [{ o: 1, p: 2 }, 5], n: { k: { m: [1] } } });
    // The result holds none of the records' objects: changing it changes none of them.
    (merged['metadata'] as { n: { k: { m: number[] } } }).n.k.m.push(2);
    expect(records[5]!.metadata).toEqual({ n: { k: { m: [1] } } });
  });
});
