// Usage and cost at ingestion must be what `llmobs estimate` says for the same generation.
import { describe, expect, it } from 'vitest';
import { estimate, type EstimateInput } from '../../../../src/core/estimate.js';
import { specToDefinition } from '../../../../src/core/models/draft.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import { processBatch } from '../../../../src/server/ingest/batch.js';
import type { IngestAuth } from '../../../../src/server/ingest/types.js';
import { engineCounter } from '../../../../src/tokenizer/index.js';
import { MemoryStore } from './support/memory-store.js';

const project: IngestAuth = { projectId: 'proj-1', accessLevel: 'project' };
const NOW = new Date('2026-03-01T12:00:00.000Z');
let n = 0;

function ingest(store: MemoryStore, body: Record<string, unknown>, type = 'generation-create', now = NOW) {
  const result = processBatch([{ id: `e${++n}`, type, timestamp: now.toISOString(), body }], project, store, { now, count: engineCounter });
  expect(result.response.errors).toEqual([]);
  store.apply(result.writes);
  return store.observations.get(body['id'] as string)!;
}

const chat = [
  { role: 'system', content: 'You answer in one sentence.' },
  { role: 'user', content: 'What is the boiling point of water at sea level?', name: 'alice' },
];

const cases: Array<[string, Record<string, unknown>]> = [
  ['provided usage details', { model: 'gpt-4o', usageDetails: { input: 1200, output: 340 } }],
  ['chat input tokenized with message overhead', { model: 'gpt-4o', input: chat, output: 'About 100 °C.' }],
  ['chat input sent as a JSON string', { model: 'gpt-4-turbo', input: JSON.stringify(chat), output: { role: 'assistant', content: 'About 100 °C.' } }],
  ['claude tokenizer on text', { model: 'claude-3-5-sonnet-20241022', input: 'Summarise the report in three bullet points.', output: 'One. Two. Three.' }],
  ['ERROR level: no tokenization', { model: 'gpt-4o', input: 'hello', output: 'x', level: 'ERROR' }],
  ['provided cost wins', { model: 'gpt-4o', input: 'hello', costDetails: { input: 0.25, output: 0.5 } }],
  ['usage tier by size', { model: 'gemini-2.5-pro', usageDetails: { input: 250_000, output: 1_000 } }],
  ['usage below the large tier', { model: 'gemini-2.5-pro', usageDetails: { input: 2_000, output: 1_000 } }],
  ['attribute tier with provided usage', { model: 'gpt-4o', usageDetails: { input: 100, output: 10 }, modelParameters: { service_tier: 'priority' } }],
  ['OpenAI Chat Completions usage', { model: 'gpt-4o-mini', usageDetails: { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020, prompt_tokens_details: { cached_tokens: 512 } } }],
  ['legacy usage object', { model: 'gpt-3.5-turbo', usage: { input: 11, output: 22, unit: 'TOKENS' } }],
  ['anthropic-style usage keys', { model: 'claude-sonnet-4-20250514', usageDetails: { input_tokens: 300, output_tokens: 80, cache_read_input_tokens: 1000 } }],
  ['model without tokenizer and no usage', { model: 'o1', input: 'think hard', output: 'done' }],
  ['unknown model', { model: 'my-finetune', usageDetails: { input: 5, output: 5 } }],
  ['no model at all', { input: 'x', usageDetails: { input: 5 } }],
  // The worker reads tier attributes only from an event that carried usage.
  ['attribute tier with tokenized usage', { model: 'gpt-4o', input: 'hello there', output: 'hi', modelParameters: { service_tier: 'priority' } }],
  ['usage of negative values only: attributes still read, usage tokenized', { model: 'gpt-4o', input: 'hello there', usage: { input: -5 }, modelParameters: { service_tier: 'priority' } }],
  // Tool definitions in the metadata are moved into the input before it is counted.
  ['tool definitions in metadata, chat input', { model: 'gpt-4o', input: chat, output: 'x', metadata: { tools: [{ type: 'function', function: { name: 'lookup', description: 'Find a document', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }], team: 'search' } }],
  ['tool definitions in metadata, text input', { model: 'gpt-4o', input: 'find the report', metadata: { tools: [{ name: 'lookup', parameters: { type: 'object' } }] } }],
  ['tool definitions in OpenTelemetry attributes', { model: 'gpt-4o', input: chat, metadata: { attributes: { 'gen_ai.tool.definitions': JSON.stringify([{ type: 'function', name: 'lookup', parameters: {} }]) } } }],
];

describe('ingestion prices generations as llmobs estimate does', () => {
  it.each(cases)('%s', (_name, body) => {
    const store = new MemoryStore();
    const record = ingest(store, { id: 'g', ...body });
    const expected = estimate({ model: (body['model'] as string | undefined) ?? '', ...body } as EstimateInput, { definitions: store.definitions(), count: engineCounter });
    expect(record.usageDetails).toEqual(expected.usageDetails);
    expect(record.costDetails).toEqual(expected.costDetails);
    expect(record.totalCost).toBe(expected.totalCost);
    expect(record.internalModelId).toBe(expected.matchedModel?.id ?? null);
    expect(record.usagePricingTierName).toBe(expected.pricingTier);
    expect(record.usagePricingTierId).toBe(expected.explain.tier.tier?.id ?? null);
    expect(record.providedModelName).toBe((body['model'] as string | undefined) ?? null);
  });

  it('covers tokenization, tiers and unmatched models among the cases (the comparison is not vacuous)', () => {
    const store = new MemoryStore();
    const records = cases.map(([, body], i) => ingest(store, { id: `g${i}`, ...body }));
    expect(records.filter((r) => Object.keys(r.providedUsageDetails).length === 0 && Object.keys(r.usageDetails).length > 0).length).toBeGreaterThanOrEqual(3);
    expect(new Set(records.map((r) => r.usagePricingTierName))).toEqual(new Set(['Standard', 'Large Context', 'Fast mode', null]));
    expect(records.some((r) => r.internalModelId === null && Object.keys(r.usageDetails).length > 0)).toBe(true);
    expect(records.find((r) => r.id === 'g6')!.usagePricingTierName).toBe('Large Context');
  });

  it('stores costs cut to 12 decimals as the server does', () => {
    const store = new MemoryStore();
    store.setCustom([specToDefinition({ name: 'm', match_pattern: '^m$', pricing: { input: 0.0000001234567, output: 0.0000003 } }, { id: 'm' })]);
    const record = ingest(store, { id: 'g', model: 'm', usageDetails: { input: 3, output: 7 } });
    expect(record.costDetails).toEqual({ input: 0.00000037037, output: 0.0000021, total: 0.00000247037 });
  });

  it('prices with the project definition ahead of the built-in one', () => {
    const store = new MemoryStore();
    store.setCustom([specToDefinition({ name: 'gpt-4o', match_pattern: '(?i)^gpt-4o$', pricing: { input: 1, output: 2 } }, { id: 'custom-4o' })]);
    const record = ingest(store, { id: 'g', model: 'gpt-4o', usageDetails: { input: 2, output: 3 } });
    expect(record).toMatchObject({ internalModelId: 'custom-4o', costDetails: { input: 2, output: 6, total: 8 }, totalCost: 8 });
  });
});

describe('pricing tier attributes', () => {
  it('reads attribute conditions from the last event that carried usage', () => {
    const store = new MemoryStore();
    const result = processBatch(
      [
        { id: 'a', type: 'generation-create', timestamp: '2026-03-01T10:00:00.000Z', body: { id: 'g', model: 'gpt-4o', usageDetails: { input: 10 }, modelParameters: { service_tier: 'priority' } } },
        { id: 'b', type: 'generation-update', timestamp: '2026-03-01T10:00:01.000Z', body: { id: 'g', modelParameters: { service_tier: 'default' } } },
      ],
      project,
      store,
      { now: NOW, count: engineCounter },
    );
    expect(result.writes.observations[0]!.record).toMatchObject({ usagePricingTierName: 'Fast mode', modelParameters: { service_tier: 'default' } });
  });

  it('passes no attributes when usage was tokenized (the server then falls back to the default tier)', () => {
    const store = new MemoryStore();
    const record = ingest(store, { id: 'g', model: 'gpt-4o', input: 'hello there', modelParameters: { service_tier: 'priority' } });
    expect(record.usageDetails.total).toBeGreaterThan(0);
    expect(record.usagePricingTierName).toBe('Standard');
  });
});

describe('definitions change after ingestion', () => {
  const v1 = specToDefinition({ name: 'house-model', match_pattern: '^house-model$', pricing: { input: 0.001, output: 0.002 } }, { id: 'house-v1' });
  const v2 = specToDefinition({ name: 'house-model', match_pattern: '^house-model$', pricing: { input: 0.01, output: 0.02 } }, { id: 'house-v2' });

  it('keeps the stored price; only a new event for the generation prices it again, with the definitions of then', () => {
    const store = new MemoryStore();
    store.setCustom([v1]);
    ingest(store, { id: 'g', model: 'house-model', usageDetails: { input: 100, output: 100 } });
    expect(store.observations.get('g')).toMatchObject({ internalModelId: 'house-v1', totalCost: 0.3 });

    store.setCustom([v2]);
    ingest(store, { id: 'other', model: 'house-model', usageDetails: { input: 1, output: 1 } });
    expect(store.observations.get('g')).toMatchObject({ internalModelId: 'house-v1', totalCost: 0.3 });

    ingest(store, { id: 'g', output: 'late output' }, 'generation-update');
    expect(store.observations.get('g')).toMatchObject({ internalModelId: 'house-v2', usageDetails: { input: 100, output: 100, total: 200 }, totalCost: 3 });
  });

  it('matches regardless of the observation time (start dates only rank definitions)', () => {
    const store = new MemoryStore();
    const later = specToDefinition({ name: 'dated', match_pattern: '^dated$', start_date: '2030-01-01T00:00:00.000Z', pricing: { input: 1 } }, { id: 'dated-2030' });
    const earlier = specToDefinition({ name: 'dated', match_pattern: '^dated$', start_date: '2020-01-01T00:00:00.000Z', pricing: { input: 2 } }, { id: 'dated-2020' });
    store.setCustom([earlier, later]);
    const record = ingest(store, { id: 'g', model: 'dated', startTime: '2025-01-01T00:00:00.000Z', usageDetails: { input: 1 } });
    expect(record.internalModelId).toBe('dated-2030');
    expect(builtInDefinitions().length).toBeGreaterThan(100);
  });
});
