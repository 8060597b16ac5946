import { describe, expect, it } from 'vitest';
import type { PricingTier } from '../../../src/core/models/types.js';
import { modelDefinitionSchema } from '../../../src/core/models/schemas.js';
import { UnknownCondition } from '../../../src/core/models/types.js';
import { selectPricingTier } from '../../../src/core/pricing-tier.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';

const tier = (over: Partial<PricingTier>): PricingTier => ({
  id: over.name ?? 't',
  name: 't',
  isDefault: false,
  priority: 1,
  conditions: [],
  prices: { input: 1 },
  ...over,
});

const STANDARD = tier({ name: 'Standard', isDefault: true, priority: 0 });

function catalogueTiers(modelName: string): PricingTier[] {
  const d = builtInDefinitions().find((m) => m.modelName === modelName);
  if (!d) throw new Error(`no built-in ${modelName}`);
  return d.pricingTiers;
}

describe('catalogue tiers', () => {
  it('Gemini 2.5 Pro: "Large Context" applies above 200k input tokens, summing input, prompt and cached keys', () => {
    const tiers = catalogueTiers('gemini-2.5-pro');
    const large = tiers.find((t) => t.name === 'Large Context')!;
    expect(large.conditions).toEqual([{ usageDetailPattern: '(input|prompt|cached)', operator: 'gt', value: 200000, caseSensitive: false }]);
    expect(selectPricingTier(tiers, { input: 200000, output: 10, total: 200010 }).tier?.name).toBe('Standard');
    const sel = selectPricingTier(tiers, { input: 150000, input_cached_tokens: 50001, output: 10, total: 200011 });
    expect(sel.tier?.name).toBe('Large Context');
    expect(sel.evaluated[0]!.conditions[0]).toMatchObject({ kind: 'usage', matchedKeys: ['input', 'input_cached_tokens'], sum: 200001, passed: true });
    // Case-insensitive, and "total" is not summed.
    expect(selectPricingTier(tiers, { PromptTokenCount: 200001, total: 1 }).tier?.name).toBe('Large Context');
    expect(selectPricingTier(tiers, { output: 10, total: 300000 }).tier?.name).toBe('Standard');
  });

  it('gpt-4o: "Fast mode" applies for service_tier fast or priority in modelParameters', () => {
    const tiers = catalogueTiers('gpt-4o');
    const usage = { input: 10, output: 10, total: 20 };
    expect(selectPricingTier(tiers, usage, { modelParameters: { service_tier: 'priority' } }).tier?.name).toBe('Fast mode');
    expect(selectPricingTier(tiers, usage, { modelParameters: { service_tier: 'fast' } }).tier?.name).toBe('Fast mode');
    expect(selectPricingTier(tiers, usage, { modelParameters: { service_tier: 'default' } }).tier?.name).toBe('Standard');
    expect(selectPricingTier(tiers, usage, { modelParameters: {} }).tier?.name).toBe('Standard');
    // metadata is a different source.
    expect(selectPricingTier(tiers, usage, { metadata: { service_tier: 'priority' } }).tier?.name).toBe('Standard');
    expect(selectPricingTier(tiers, usage, { modelParameters: { service_tier: 'priority' } }).tier?.prices['input']).toBe(0.00000425);
  });
});

describe('selectPricingTier', () => {
  it('picks no tier without tiers or without usage', () => {
    expect(selectPricingTier([], { input: 1 })).toMatchObject({ tier: null, reason: 'no-tiers' });
    expect(selectPricingTier([STANDARD], {})).toMatchObject({ tier: null, reason: 'no-usage' });
  });

  it('tries non-default tiers by ascending priority and takes the first whose conditions all pass', () => {
    const cond = { usageDetailPattern: 'input', operator: 'gt' as const, value: 10 };
    const tiers = [
      STANDARD,
      tier({ name: 'B', priority: 5, conditions: [cond] }),
      tier({ name: 'A', priority: 2, conditions: [cond, { usageDetailPattern: 'output', operator: 'gt', value: 100 }] }),
      tier({ name: 'C', priority: 9, conditions: [cond] }),
    ];
    const sel = selectPricingTier(tiers, { input: 11, output: 1 });
    expect(sel.tier?.name).toBe('B');
    expect(sel.reason).toBe('conditions');
    expect(sel.evaluated.map((e) => [e.tier.name, e.passed])).toEqual([
      ['A', false],
      ['B', true],
    ]);
  });

  it('never matches a non-default tier without conditions', () => {
    expect(selectPricingTier([STANDARD, tier({ name: 'Empty', conditions: [] })], { input: 1 }).tier?.name).toBe('Standard');
  });

  it('falls back to the default tier, or to no tier when there is none', () => {
    const t = tier({ name: 'X', conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 5 }] });
    expect(selectPricingTier([t, STANDARD], { input: 1 })).toMatchObject({ reason: 'default', tier: { name: 'Standard' } });
    expect(selectPricingTier([t], { input: 1 })).toMatchObject({ reason: 'no-default', tier: null });
  });

  it.each([
    ['gt', 10, false],
    ['gte', 10, true],
    ['lt', 11, true],
    ['lte', 10, true],
    ['eq', 10, true],
    ['neq', 10, false],
  ] as const)('compares the sum with %s %i', (operator, value, expected) => {
    const t = tier({ name: 'X', conditions: [{ usageDetailPattern: '^in', operator, value }] });
    expect(selectPricingTier([STANDARD, t], { input: 4, input_cached: 6, output: 100 }).tier?.name).toBe(expected ? 'X' : 'Standard');
  });

  it('is case-insensitive unless caseSensitive, and unanchored', () => {
    const mk = (caseSensitive: boolean): PricingTier => tier({ name: 'X', conditions: [{ usageDetailPattern: 'put', operator: 'gt', value: 5, caseSensitive }] });
    expect(selectPricingTier([STANDARD, mk(false)], { INPUT: 6 }).tier?.name).toBe('X');
    expect(selectPricingTier([STANDARD, mk(true)], { INPUT: 6 }).tier?.name).toBe('Standard');
  });

  it('fails a condition whose regex is invalid', () => {
    const t = tier({ name: 'X', conditions: [{ usageDetailPattern: '(', operator: 'gte', value: 0 }] });
    const sel = selectPricingTier([STANDARD, t], { input: 1 });
    expect(sel.tier?.name).toBe('Standard');
    expect(sel.evaluated[0]!.conditions[0]).toMatchObject({ passed: false, error: expect.any(String) });
  });

  it('compares String(value) of string, number and boolean attributes only', () => {
    const t = (values: string[]): PricingTier => tier({ name: 'X', conditions: [{ source: 'metadata', key: 'k', operator: 'in', values }] });
    const pick = (values: string[], k: unknown): string | undefined => selectPricingTier([STANDARD, t(values)], { input: 1 }, { metadata: { k } }).tier?.name;
    expect(pick(['1'], 1)).toBe('X');
    expect(pick(['true'], true)).toBe('X');
    expect(pick(['a'], 'a')).toBe('X');
    expect(pick(['a'], ['a'])).toBe('Standard');
    expect(pick(['null'], null)).toBe('Standard');
    expect(pick(['[object Object]'], {})).toBe('Standard');
    // Only the top-level key counts, and only as an own property.
    expect(selectPricingTier([STANDARD, t(['a'])], { input: 1 }, { metadata: { nested: { k: 'a' } } }).tier?.name).toBe('Standard');
    const inherited = tier({ name: 'X', conditions: [{ source: 'metadata', key: 'toString', operator: 'in', values: [String(Object.prototype.toString)] }] });
    expect(selectPricingTier([STANDARD, inherited], { input: 1 }, { metadata: {} }).tier?.name).toBe('Standard');
  });
});

describe('conditions of a kind llmobs does not know', () => {
  // What a newer server could send: a kind of condition next to the two Langfuse defines today.
  const NIGHT = { source: 'clock', after: '22:00', timezone: 'UTC' };
  const response = {
    id: 'm-1',
    modelName: 'night-model',
    matchPattern: '(?i)^night-model$',
    tokenizerConfig: null,
    isLangfuseManaged: false,
    pricingTiers: [
      { id: 'm-1_tier_default', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 2 } },
      { id: 't-1', name: 'Night', isDefault: false, priority: 1, conditions: [NIGHT], prices: { input: 1 } },
      { id: 't-2', name: 'Big night', isDefault: false, priority: 2, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 100 }, { kind: 'weekday', in: ['sat'] }], prices: { input: 0.5 } },
      { id: 't-3', name: 'Ranged', isDefault: false, priority: 3, conditions: [{ usageDetailPattern: 'input', operator: 'between', value: [1, 2] }], prices: { input: 0.25 } },
      { id: 't-4', name: 'Negated', isDefault: false, priority: 4, conditions: [{ source: 'metadata', key: 'k', operator: 'in', values: ['a'], negate: true }], prices: { input: 0.125 } },
    ],
  };

  it('are read and kept as the server sent them, and the rest of the definition with them', () => {
    const parsed = modelDefinitionSchema.safeParse(response);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    const tiers = parsed.data!.pricingTiers;
    expect(tiers[1]!.conditions).toEqual([new UnknownCondition(NIGHT)]);
    expect(tiers[1]!.conditions[0]).toBeInstanceOf(UnknownCondition);
    // A known kind with an operator llmobs does not know is not read as something else either.
    expect(tiers[3]!.conditions[0]).toBeInstanceOf(UnknownCondition);
    // Nor is a known kind with a field llmobs does not know evaluated without that field.
    expect(tiers[4]!.conditions[0]).toEqual(new UnknownCondition(response.pricingTiers[4]!.conditions[0]));
    expect(tiers[2]!.conditions[0]).toEqual({ usageDetailPattern: 'input', operator: 'gt', value: 100 });
    // Written out again (JSON output, the definitions cache), the definition is what was read.
    expect(JSON.parse(JSON.stringify(parsed.data)).pricingTiers).toEqual(response.pricingTiers);
    expect(modelDefinitionSchema.parse(JSON.parse(JSON.stringify(parsed.data)))).toEqual(parsed.data);
  });

  it('count as not met: the tier does not apply, and the evaluation says it could not tell', () => {
    const tiers = modelDefinitionSchema.parse(response).pricingTiers;
    const sel = selectPricingTier(tiers, { input: 500 });
    expect(sel).toMatchObject({ reason: 'default', tier: { name: 'Standard' } });
    expect(sel.evaluated.map((e) => [e.tier.name, e.passed, e.undecided])).toEqual([
      ['Night', false, true],
      ['Big night', false, true],
      ['Ranged', false, true],
      ['Negated', false, true],
    ]);
    expect(sel.evaluated[0]!.conditions).toEqual([{ kind: 'unknown', condition: new UnknownCondition(NIGHT), passed: false }]);
    // A known condition that fails decides the tier whatever the unknown one would say.
    const small = selectPricingTier(tiers, { input: 50 });
    expect(small.evaluated.find((e) => e.tier.name === 'Big night')).toMatchObject({ passed: false, undecided: false });
    // Tiers without unknown conditions are never undecided.
    const gemini = selectPricingTier(catalogueTiers('gemini-2.5-pro'), { input: 1 });
    expect(gemini.evaluated.every((e) => !e.undecided)).toBe(true);
  });

  it('do not stop a later tier whose conditions hold', () => {
    const tiers = [STANDARD, tier({ name: 'Odd', priority: 1, conditions: [new UnknownCondition('weekend')] }), tier({ name: 'Large', priority: 2, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 10 }] })];
    const sel = selectPricingTier(tiers, { input: 11 });
    expect(sel.tier?.name).toBe('Large');
    expect(sel.evaluated.map((e) => e.undecided)).toEqual([true, false]);
  });
});
