// Cost reports from Metrics API rows, and re-pricing past generations.
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate.js';
import { createDatedMatcher } from '../../../src/core/models/match-at.js';
import type { ModelDefinition } from '../../../src/core/models/types.js';
import { buildQuery, buildReport, bucketTime, checkBudget, checkRequest, type ReportRequest } from '../../../src/core/spend/report.js';
import { generationInput, Recomputer, readStored, recomputeTotals } from '../../../src/core/spend/recompute.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { engineCounter } from '../../../src/tokenizer/index.js';
import { metricsQueryProblem } from '../../helpers/contract-data.js';

const request = (over: Partial<ReportRequest> = {}): ReportRequest => ({
  from: new Date('2026-05-01T00:00:00Z'),
  to: new Date('2026-05-04T00:00:00Z'),
  by: ['model'],
  time: null,
  types: null,
  environments: [],
  ...over,
});

describe('the metrics query', () => {
  it('is one query the server accepts, for every grouping', () => {
    for (const by of [[], ['model'], ['user'], ['model', 'environment', 'prompt', 'name', 'type', 'trace', 'release', 'level']] as const) {
      for (const time of by.includes('user' as never) ? [null] : ([null, 'day', 'hour', 'week', 'month'] as const)) {
        const query = buildQuery(request({ by: [...by], time, environments: ['production'], types: time === 'hour' ? ['GENERATION'] : null }));
        expect(metricsQueryProblem(JSON.stringify(query)), JSON.stringify({ by, time })).toBeNull();
      }
    }
  });

  it('asks for cost, tokens and count, the largest answer, top-N by cost, and leaves out spans and events', () => {
    const query = buildQuery(request({ by: ['user'] }));
    expect(query.dimensions).toEqual([{ field: 'userId' }]);
    expect(query.metrics.map((m) => `${m.aggregation}_${m.measure}`)).toEqual(['sum_totalCost', 'sum_inputTokens', 'sum_outputTokens', 'count_count']);
    expect(query.filters).toEqual([{ column: 'type', operator: 'none of', value: ['SPAN', 'EVENT'], type: 'stringOptions' }]);
    expect(query.orderBy).toEqual([{ field: 'sum_totalCost', direction: 'desc' }]);
    expect(query.config.row_limit).toBe(1000);
    expect([query.fromTimestamp, query.toTimestamp]).toEqual(['2026-05-01T00:00:00.000Z', '2026-05-04T00:00:00.000Z']);
  });

  it('refuses what the API would refuse, before anything is sent', () => {
    expect(checkRequest(request({ by: ['user'], time: 'day' }))).toContain('cannot be combined');
    expect(checkRequest(request({ from: new Date('2026-05-04T00:00:00Z') }))).toContain('empty');
    expect(checkRequest(request())).toBeNull();
  });
});

describe('the report', () => {
  it('groups rows, reads numeric strings, sorts by cost and fills every day of the range', () => {
    const rows = [
      { providedModelName: 'gpt-4o', time_dimension: '2026-05-01 00:00:00', sum_totalCost: '1.5', sum_inputTokens: '1000', sum_outputTokens: '100', count_count: '10' },
      { providedModelName: 'gpt-4o', time_dimension: '2026-05-03T00:00:00Z', sum_totalCost: 0.5, sum_inputTokens: 500, sum_outputTokens: 50, count_count: 5 },
      { providedModelName: null, time_dimension: '2026-05-03T00:00:00.000Z', sum_totalCost: '3', sum_inputTokens: '0', sum_outputTokens: '0', count_count: '1' },
      { providedModelName: 'broken', sum_totalCost: 'n/a', count_count: 'x' },
    ];
    const report = buildReport(request({ time: 'day' }), rows);
    expect(report.total).toEqual({ cost: 5, inputTokens: 1500, outputTokens: 150, count: 16 });
    expect(report.groups.map((g) => [g.group.model, g.cost, g.share])).toEqual([[null, 3, 0.6], ['gpt-4o', 2, 0.4]]);
    expect(report.buckets.map((b) => [b.bucket.slice(0, 10), b.cost])).toEqual([['2026-05-01', 1.5], ['2026-05-02', 0], ['2026-05-03', 3.5]]);
    expect(report.unreadable).toBe(1);
    expect(report.truncated).toBe(false);
  });

  it('breaks ties in the order of the text, the same in every locale', () => {
    const rows = ['b', 'a', 'B', 'é', 'e'].map((model) => ({ providedModelName: model, sum_totalCost: 1, count_count: 1 }));
    // Code-unit order: capitals before small letters, accented letters last (a collator would say a, b, B, e, é).
    expect(buildReport(request(), rows).groups.map((g) => g.group.model)).toEqual(['B', 'a', 'b', 'e', 'é']);
  });

  it('says when the answer may be cut', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ providedModelName: `m${i}`, sum_totalCost: 1, count_count: 1 }));
    expect(buildReport(request(), rows).truncated).toBe(true);
  });

  it('reads bucket times in the forms ClickHouse sends them', () => {
    expect(bucketTime('2026-05-01 00:00:00')).toBe('2026-05-01T00:00:00.000Z');
    expect(bucketTime('2026-05-01')).toBe('2026-05-01T00:00:00.000Z');
    expect(bucketTime('2026-05-01T10:00:00+02:00')).toBe('2026-05-01T08:00:00.000Z');
    expect(bucketTime('garbage')).toBeNull();
  });

  it('checks a budget', () => {
    expect(checkBudget(120, 100)).toMatchObject({ exceeded: true, over: 20, used: 1.2 });
    expect(checkBudget(100, 100)).toMatchObject({ exceeded: false, over: 0 });
    expect(checkBudget(0.000000000001 + 100, 100).exceeded).toBe(false);
  });
});

// A definition with a start date, and the same model's built-in one.
const definitions = builtInDefinitions();
const newPrices: ModelDefinition = {
  ...definitions.find((d) => d.modelName === 'gpt-4o')!,
  id: 'custom-gpt-4o-june',
  isLangfuseManaged: false,
  startDate: '2026-06-01T00:00:00.000Z',
  pricingTiers: [{ ...definitions.find((d) => d.modelName === 'gpt-4o')!.pricingTiers[0]!, prices: { input: 0.000001, output: 0.000004 } }],
};

describe('matching at a generation\'s time', () => {
  it('leaves out definitions that start after the generation; the server\'s order otherwise', () => {
    const match = createDatedMatcher([newPrices, ...definitions]);
    expect(match('gpt-4o', Date.parse('2026-06-02T00:00:00Z')).winner?.definition.id).toBe('custom-gpt-4o-june');
    expect(match('gpt-4o', Date.parse('2026-06-01T00:00:00Z')).winner?.definition.id).toBe('custom-gpt-4o-june');
    expect(match('gpt-4o', Date.parse('2026-05-31T23:59:59Z')).winner?.definition.isLangfuseManaged).toBe(true);
    expect(match('gpt-4o', null).winner?.definition.id).toBe('custom-gpt-4o-june');
    expect(match('no-such-model', Date.parse('2026-06-02T00:00:00Z')).winner).toBeNull();
  });

  it('matches nothing when every matching definition starts later', () => {
    const match = createDatedMatcher([newPrices]);
    expect(match('gpt-4o', Date.parse('2026-01-01T00:00:00Z')).winner).toBeNull();
  });
});

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
