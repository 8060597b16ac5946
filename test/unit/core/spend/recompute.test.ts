// Re-pricing past generations from an export.
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../../src/core/estimate.js';
import type { ModelDefinition } from '../../../../src/core/models/types.js';
import { generationInput, Recomputer, readStored, recomputeTotals } from '../../../../src/core/spend/recompute.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import { engineCounter } from '../../../../src/tokenizer/index.js';

// A definition with a start date, and the same model's built-in one.
const definitions = builtInDefinitions();
const newPrices: ModelDefinition = {
  ...definitions.find((d) => d.modelName === 'gpt-4o')!,
  id: 'custom-gpt-4o-june',
  isLangfuseManaged: false,
  startDate: '2026-06-01T00:00:00.000Z',
  pricingTiers: [{ ...definitions.find((d) => d.modelName === 'gpt-4o')!.pricingTiers[0]!, prices: { input: 0.000001, output: 0.000004 } }],
};

const generation = (id: string, model: string | null, startTime: string, usage: Record<string, unknown>, stored: number | null, extra: Record<string, unknown> = {}) => ({
  id,
  traceId: 't',
  startTime,
  type: 'GENERATION',
  providedModelName: model,
  internalModelId: stored === null ? null : 'm',
  usageDetails: usage,
  costDetails: stored === null ? {} : { total: stored },
  totalCost: stored,
  ...extra,
});

describe('re-pricing', () => {
  it('prices each generation as the estimation core does with its stored usage, never with its stored cost', () => {
    const recomputer = new Recomputer({ definitions, count: engineCounter, datedMatching: true });
    const raw = generation('g1', 'gpt-4o', '2026-05-01T00:00:00Z', { input: 1000, output: 100, total: 1100 }, 123);
    const result = recomputer.add(raw)!;
    const expected = estimate({ model: 'gpt-4o', usageDetails: { input: 1000, output: 100, total: 1100 } }, { definitions, count: engineCounter });
    expect(result.recomputedCost).toBe(expected.totalCost);
    expect(result.storedCost).toBe(123);
    expect(result.definition).toBe('gpt-4o');
  });

  it('tokenizes input and output, as the server would, when the generation was stored without usage', () => {
    const recomputer = new Recomputer({ definitions, count: engineCounter, datedMatching: true });
    const io = { input: JSON.stringify([{ role: 'user', content: 'What is the capital of France?' }]), output: 'Paris.' };
    const result = recomputer.add(generation('g', 'gpt-4o', '2026-05-01T00:00:00Z', {}, null, io))!;
    const expected = estimate({ model: 'gpt-4o', ...io }, { definitions, count: engineCounter });
    expect(expected.usageDetails.input).toBeGreaterThan(0);
    expect(result.recomputedCost).toBe(expected.totalCost);
  });

  it('uses the definition in force at each generation\'s start, or the server\'s rule when asked', () => {
    const usage = { input: 1_000_000, output: 1_000_000, total: 2_000_000 };
    const rows = [generation('may', 'gpt-4o', '2026-05-15T00:00:00Z', usage, 12.5), generation('june', 'gpt-4o', '2026-06-15T00:00:00Z', usage, 12.5)];
    const dated = new Recomputer({ definitions: [newPrices, ...definitions], count: engineCounter, datedMatching: true });
    expect(rows.map((r) => dated.add(r)!.recomputedCost)).toEqual([12.5, 5]);
    expect(dated.report()[0]).toMatchObject({ model: 'gpt-4o', generations: 2, storedCost: 25, recomputedCost: 17.5, difference: -7.5, definitions: ['gpt-4o'] });
    const server = new Recomputer({ definitions: [newPrices, ...definitions], count: engineCounter, datedMatching: false });
    expect(rows.map((r) => server.add(r)!.recomputedCost)).toEqual([5, 5]);
  });

  it('counts generations no definition matches now, or did not when they were ingested', () => {
    const recomputer = new Recomputer({ definitions, count: engineCounter, datedMatching: true });
    recomputer.add(generation('a', 'my-own-model', '2026-05-01T00:00:00Z', { input: 10 }, 0.5));
    recomputer.add(generation('b', 'my-own-model', '2026-05-01T00:00:00Z', { input: 10 }, null));
    recomputer.add(generation('c', 'gpt-4o', '2026-05-01T00:00:00Z', { input: 10 }, null));
    const [own, gpt] = [recomputer.report().find((m) => m.model === 'my-own-model')!, recomputer.report().find((m) => m.model === 'gpt-4o')!];
    expect(own).toMatchObject({ generations: 2, unmatchedNow: 2, unmatchedBefore: 1, storedCost: 0.5, recomputedCost: 0, withoutRecomputedCost: 2, withoutStoredCost: 1 });
    expect(gpt).toMatchObject({ unmatchedNow: 0, unmatchedBefore: 1, definitions: ['gpt-4o'] });
    expect(recomputeTotals(recomputer.report())).toMatchObject({ generations: 3, unmatchedNow: 2, unmatchedBefore: 2 });
  });

  it('does not know about ingestion-time matching when the export lacks the model group', () => {
    const recomputer = new Recomputer({ definitions, count: engineCounter, datedMatching: true });
    recomputer.add({ id: 'x', providedModelName: 'gpt-4o', usageDetails: { input: 1 }, totalCost: 0.1 });
    expect(recomputer.report()[0]!.unmatchedBefore).toBeNull();
  });

  it('skips observations without a model and without cost, and keeps a costed one without a model', () => {
    const recomputer = new Recomputer({ definitions, count: engineCounter, datedMatching: true });
    expect(recomputer.add({ id: 'span', type: 'SPAN', providedModelName: null })).toBeNull();
    expect(recomputer.add({ id: 'span', type: 'SPAN', providedModelName: null, totalCost: 0 })).toBeNull();
    expect(recomputer.add({ id: 'custom', type: 'GENERATION', providedModelName: null, costDetails: { total: '0.25' } })).toMatchObject({ storedCost: 0.25, recomputedCost: null });
    expect(recomputer.skipped).toBe(2);
    expect(recomputer.report()).toEqual([expect.objectContaining({ model: '', generations: 1, storedCost: 0.25 })]);
  });

  it('reports a generation the server would reject, and goes on', () => {
    const recomputer = new Recomputer({ definitions, count: engineCounter, datedMatching: true });
    const result = recomputer.add({ id: 'bad', providedModelName: 'gpt-4o', usageDetails: { input: 1 }, modelParameters: { nested: { deep: { x: 1 } } } });
    expect(result!.error).toContain('modelParameters');
    expect(recomputer.report()[0]).toMatchObject({ failed: 1, unmatchedNow: 0 });
  });

  it('reads what was stored from any version of the export', () => {
    expect(readStored({ id: 'a', model: 'm', calculatedTotalCost: 0.3, modelId: null })).toMatchObject({ model: 'm', storedCost: 0.3, matchedBefore: false });
    expect(readStored({ id: 'a', providedModelName: 'm', costDetails: { total: '0.2' }, internalModelId: 'x' })).toMatchObject({ storedCost: 0.2, matchedBefore: true });
    expect(generationInput({ usageDetails: {}, modelParameters: '{"temperature":"0.2"}', level: 'ERROR' }, 'm')).toMatchObject({ usageDetails: undefined, modelParameters: { temperature: '0.2' }, level: 'ERROR' });
  });

  it('gives exactly what estimate gives, generation by generation, over many kinds of stored usage', () => {
    const models = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'claude-opus-4-1', 'gemini-2.5-pro', 'o3', 'gpt-4.1', 'gpt-5', 'unknown-model', 'GPT-4O', ''];
    const usages: unknown[] = [
      { input: 1000, output: 100, total: 1100 },
      { input: 250_000, output: 1000 },
      { input: '1200', output: '30' },
      { input: 10, input_cached_tokens: 5, output: 3, output_reasoning_tokens: 7 },
      { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500, prompt_tokens_details: { cached_tokens: 200 } },
      { input_tokens: 900, output_tokens: 50, total_tokens: 950, input_tokens_details: { cached_tokens: 100 }, output_tokens_details: { reasoning_tokens: 20 } },
      { input: -5, output: 10 },
      { input: 1.5, output: 'x' },
      { total: 500 },
      {},
    ];
    const parameters: unknown[] = [undefined, { service_tier: 'priority' }, { service_tier: 'flex', temperature: 0.2 }, { nested: { deep: { x: 1 } } }, '{"service_tier":"priority"}'];
    const levels = [undefined, 'DEFAULT', 'ERROR'];
    const recomputer = new Recomputer({ definitions, count: engineCounter, datedMatching: false });
    let n = 0;
    for (const model of models) for (const usageDetails of usages) for (const modelParameters of parameters) for (const level of levels) {
      const raw = { id: `g${n++}`, providedModelName: model, usageDetails, modelParameters, level, input: '[{"role":"user","content":"Hello there, how are you?"}]', output: 'Fine, thanks.', totalCost: 1 };
      const mine = recomputer.add(raw);
      let expected: { cost: number | null; definition: string | null; error: boolean };
      try {
        const result = estimate(generationInput(raw, model), { definitions, count: engineCounter });
        expected = { cost: result.totalCost, definition: result.matchedModel?.modelName ?? null, error: false };
      } catch {
        expected = { cost: null, definition: null, error: true };
      }
      if (model === '') {
        expect(mine, JSON.stringify(raw)).toMatchObject({ recomputedCost: null, definition: null });
        continue;
      }
      expect({ cost: mine!.recomputedCost, definition: mine!.definition, error: mine!.error !== null }, JSON.stringify(raw)).toEqual(expected);
    }
    expect(n).toBe(models.length * usages.length * parameters.length * levels.length);
  });
});
