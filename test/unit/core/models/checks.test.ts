import { describe, expect, it } from 'vitest';
import { checkDefinitionInput, checkPriceMagnitudes } from '../../../../src/core/models/checks.js';

const GOOD = { name: 'my-model', match_pattern: '(?i)^my-model$', pricing: { input: 0.001, output: 0.002 }, unit: 'TOKENS' };

const codes = (raw: unknown, options?: Parameters<typeof checkDefinitionInput>[1]): string[] => checkDefinitionInput(raw, options).issues.map((i) => i.code);
const errors = (raw: unknown): string[] => checkDefinitionInput(raw).issues.filter((i) => i.severity === 'error').map((i) => i.code);
const warnings = (raw: unknown): string[] => checkDefinitionInput(raw).issues.filter((i) => i.severity === 'warning').map((i) => i.code);

const TIER_DEFAULT = { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1, output: 2 } };
const TIER_LARGE = { name: 'Large', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: '(input|prompt)', operator: 'gt', value: 200000 }], prices: { input: 2, output: 4 } };
const withTiers = (...tiers: unknown[]): Record<string, unknown> => ({ name: 'm', match_pattern: '(?i)^m$', pricing_tiers: tiers });

describe('a clean definition', () => {
  it('has no issues and yields a draft', () => {
    const r = checkDefinitionInput(GOOD);
    expect(r.issues).toEqual([]);
    expect(r.draft).toEqual({
      modelName: 'my-model',
      matchPattern: '(?i)^my-model$',
      unit: 'TOKENS',
      startDate: null,
      tokenizerId: null,
      tokenizerConfig: undefined,
      prices: { input: 0.001, output: 0.002 },
      pricingTiers: null,
    });
  });

  it('yields no draft when there are errors', () => {
    expect(checkDefinitionInput({ ...GOOD, match_pattern: '[' }).draft).toBeUndefined();
  });
});

describe('errors', () => {
  it('rejects missing name and pattern, and an invalid Postgres regex', () => {
    expect(errors({ pricing: { input: 1 } })).toEqual(['model-name-missing', 'match-pattern-missing']);
    expect(errors({ ...GOOD, match_pattern: '[][' })).toEqual(['invalid-regex']);
    expect(checkDefinitionInput({ ...GOOD, match_pattern: 'a{3,2}' }).issues[0]?.message).toContain('invalid repetition count');
  });

  it('requires a valid unit, defaulting to TOKENS unless told otherwise', () => {
    const { unit: _unit, ...noUnit } = GOOD;
    expect(checkDefinitionInput(noUnit).draft?.unit).toBe('TOKENS');
    expect(codes(noUnit, { unitDefault: null })).toEqual(['unit-missing']);
    expect(errors({ ...GOOD, unit: 'tokens' })).toEqual(['unit-invalid']);
  });

  it('rejects an unparseable start date', () => {
    expect(errors({ ...GOOD, start_date: 'soon' })).toEqual(['start-date-invalid']);
    expect(checkDefinitionInput({ ...GOOD, start_date: '2025-01-01' }).draft?.startDate).toBe('2025-01-01');
  });

  it('rejects tokenizer settings the server cannot use', () => {
    expect(errors({ ...GOOD, tokenizer: 'tiktoken' })).toEqual(['tokenizer-unknown']);
    expect(errors({ ...GOOD, tokenizer: 'openai' })).toEqual(['tokenizer-config-missing']);
    expect(errors({ ...GOOD, tokenizer: 'openai', tokenization_config: { tokenizerModel: 'gpt-4o-mini' } })).toEqual(['tokenizer-model-unsupported']);
    expect(errors({ ...GOOD, tokenizer: 'openai', tokenization_config: { tokenizerModel: 'gpt-4o' } })).toEqual(['chat-config-missing']);
    expect(errors({ ...GOOD, tokenizer: 'openai', tokenization_config: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3 } })).toEqual(['chat-config-missing']);
    expect(errors({ ...GOOD, tokenizer: 'openai', tokenization_config: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 } })).toEqual([]);
    // Non-chat tokenizer models need no message overhead.
    expect(errors({ ...GOOD, tokenizer: 'openai', tokenization_config: { tokenizerModel: 'text-embedding-ada-002' } })).toEqual([]);
    expect(errors({ ...GOOD, tokenizer: 'claude' })).toEqual([]);
  });

  it('rejects non-numeric and negative prices', () => {
    expect(errors({ ...GOOD, pricing: { input: '0.1' } })).toEqual(['price-not-number']);
    expect(errors({ ...GOOD, pricing: { input: -1 } })).toEqual(['price-negative']);
    expect(errors({ ...GOOD, pricing: { input: null } })).toEqual(['price-not-number']);
  });

  it('accepts a total price next to other prices, as the server\'s validatePricingTiers does, with a warning', () => {
    const tier = checkDefinitionInput(withTiers({ ...TIER_DEFAULT, prices: { input: 1, output: 2, total: 3 } }));
    expect(tier.issues.filter((i) => i.severity === 'error')).toEqual([]);
    expect(tier.draft?.pricingTiers?.[0]?.prices).toEqual({ input: 1, output: 2, total: 3 });
    expect(tier.issues.map((i) => [i.code, i.path])).toEqual([['total-price-replaces-sum', 'pricingTiers.0.prices.total']]);
    expect(tier.issues[0]?.message).toMatch(/^Tier "Standard": "total" is priced next to "input", "output": the total cost is then the total price × total units/);
    expect(errors({ ...GOOD, pricing: { input: 1, total: 2 } })).toEqual([]);
    expect(warnings({ ...GOOD, pricing: { input: 1, total: 2 } })).toEqual(['total-price-replaces-sum']);
    expect(warnings({ ...GOOD, pricing: { input_cached_tokens: 1, total: 2 } })).toEqual(['total-price-replaces-sum']);
    // A total price alone replaces nothing.
    expect(warnings({ ...GOOD, pricing: { total: 2 } })).toEqual([]);
  });

  it('needs exactly one way of giving prices', () => {
    const { pricing: _p, ...noPrices } = GOOD;
    expect(errors(noPrices)).toEqual(['no-prices']);
    expect(errors({ ...GOOD, pricing_tiers: [TIER_DEFAULT] })).toEqual(['prices-and-tiers']);
  });
});

describe('pricing tier rules', () => {
  it('accepts a default tier plus a conditional one', () => {
    const r = checkDefinitionInput(withTiers(TIER_DEFAULT, TIER_LARGE));
    expect(r.issues).toEqual([]);
    expect(r.draft?.pricingTiers).toHaveLength(2);
    expect(r.draft?.pricingTiers?.[1]?.conditions[0]).toEqual({ usageDetailPattern: '(input|prompt)', operator: 'gt', value: 200000, caseSensitive: false });
  });

  it.each([
    ['no default tier', [{ ...TIER_DEFAULT, isDefault: false, conditions: TIER_LARGE.conditions }], 'tier-default-count'],
    ['two default tiers', [TIER_DEFAULT, { ...TIER_DEFAULT, name: 'Other' }], 'tier-default-count'],
    ['a default tier with priority 1', [{ ...TIER_DEFAULT, priority: 1 }], 'tier-default-priority'],
    ['a default tier with conditions', [{ ...TIER_DEFAULT, conditions: TIER_LARGE.conditions }], 'tier-default-conditions'],
    ['a non-default tier without conditions', [TIER_DEFAULT, { ...TIER_LARGE, conditions: [] }], 'tier-conditions-missing'],
    ['duplicate names', [TIER_DEFAULT, { ...TIER_LARGE, name: 'Standard' }], 'tier-name-duplicate'],
    ['duplicate priorities', [TIER_DEFAULT, TIER_LARGE, { ...TIER_LARGE, name: 'Other' }], 'tier-priority-duplicate'],
    ['different price keys', [TIER_DEFAULT, { ...TIER_LARGE, prices: { input: 2 } }], 'tier-price-keys-mismatch'],
    ['a tier without prices', [TIER_DEFAULT, { ...TIER_LARGE, prices: {} }], 'tier-prices-missing'],
    ['an empty name', [TIER_DEFAULT, { ...TIER_LARGE, name: '   ' }], 'tier-name-invalid'],
    ['a priority over 999', [TIER_DEFAULT, { ...TIER_LARGE, priority: 1000 }], 'tier-priority-invalid'],
    ['an invalid usage regex', [TIER_DEFAULT, { ...TIER_LARGE, conditions: [{ usageDetailPattern: '(', operator: 'gt', value: 1 }] }], 'tier-usage-regex-invalid'],
    ['an unsafe usage regex', [TIER_DEFAULT, { ...TIER_LARGE, conditions: [{ usageDetailPattern: '(a+)+', operator: 'gt', value: 1 }] }], 'tier-usage-regex-unsafe'],
    ['a usage regex over 200 characters', [TIER_DEFAULT, { ...TIER_LARGE, conditions: [{ usageDetailPattern: 'a'.repeat(201), operator: 'gt', value: 1 }] }], 'tier-usage-regex-too-long'],
    ['an unknown operator', [TIER_DEFAULT, { ...TIER_LARGE, conditions: [{ usageDetailPattern: 'a', operator: 'ge', value: 1 }] }], 'tier-condition-invalid'],
    ['a negative threshold', [TIER_DEFAULT, { ...TIER_LARGE, conditions: [{ usageDetailPattern: 'a', operator: 'gt', value: -1 }] }], 'tier-condition-invalid'],
    ['an attribute condition without values', [TIER_DEFAULT, { ...TIER_LARGE, conditions: [{ source: 'metadata', key: 'k', operator: 'in', values: [] }] }], 'tier-condition-invalid'],
    ['an attribute condition with another operator', [TIER_DEFAULT, { ...TIER_LARGE, conditions: [{ source: 'metadata', key: 'k', operator: 'eq', values: ['a'] }] }], 'tier-condition-invalid'],
    ['a negative tier price', [{ ...TIER_DEFAULT, prices: { input: -1, output: 2 } }], 'price-negative'],
    ['an empty list', [], 'tiers-invalid'],
  ])('rejects %s', (_label, tiers, code) => {
    expect(errors(withTiers(...(tiers as unknown[])))).toContain(code);
  });
});

describe('warnings', () => {
  it('warns about a case-sensitive pattern when the name has letters', () => {
    expect(warnings({ ...GOOD, match_pattern: '^my-model$' })).toEqual(['pattern-case-sensitive']);
    expect(warnings({ ...GOOD, name: '123', match_pattern: '^123$' })).toEqual([]);
  });

  it('warns about an unanchored pattern', () => {
    expect(warnings({ ...GOOD, match_pattern: '(?i)my-model' })).toEqual(['pattern-unanchored']);
    expect(warnings({ ...GOOD, match_pattern: '(?i)^my-model' })).toEqual(['pattern-unanchored']);
    expect(warnings({ ...GOOD, match_pattern: '(?i)^my-model$|^other$' })).toEqual([]);
    expect(warnings({ ...GOOD, match_pattern: '(?i)\\Amy-model\\Z' })).toEqual([]);
  });

  it('warns about an unescaped dot, but not about .* or .+', () => {
    expect(warnings({ ...GOOD, name: 'gpt-3.5', match_pattern: '(?i)^gpt-3.5$' })).toEqual(['pattern-unescaped-dot']);
    expect(warnings({ ...GOOD, name: 'gpt-3.5', match_pattern: '(?i)^gpt-3\\.5$' })).toEqual([]);
    expect(warnings({ ...GOOD, name: 'ft:x', match_pattern: '(?i)^ft:.+$' })).toEqual([]);
  });

  it('warns when the pattern does not match the definition name', () => {
    expect(warnings({ ...GOOD, match_pattern: '(?i)^other$' })).toEqual(['pattern-misses-name']);
  });

  it('warns about price keys that differ from usual usage keys only by case', () => {
    expect(warnings({ ...GOOD, pricing: { Input: 1, output: 2 } })).toEqual(['price-key-case']);
    expect(warnings({ ...GOOD, pricing: { input: 1, Input_Cached_Tokens: 2 } })).toEqual(['price-key-case']);
    // Both spellings priced: intentional.
    expect(warnings({ ...GOOD, pricing: { input: 1, Input: 1 } })).toEqual([]);
  });

  it('warns about a tokenizer config without tokenizer, unknown fields, and uncheckable patterns', () => {
    expect(warnings({ ...GOOD, tokenization_config: { tokenizerModel: 'gpt-4' } })).toEqual(['tokenizer-config-unused']);
    expect(warnings({ ...GOOD, colour: 'red' })).toEqual(['unknown-field']);
    expect(warnings({ ...GOOD, match_pattern: '(?b)^my-model$' })).toEqual(['regex-not-checkable']);
  });

  it('reports the misspelt tokenizationConfig as an error', () => {
    expect(errors({ ...GOOD, tokenizationConfig: { tokenizerModel: 'gpt-4' } })).toEqual(['misspelt-tokenizer-config']);
  });
});

describe('checkPriceMagnitudes', () => {
  const draft = (prices: Record<string, number>, unit: 'TOKENS' | 'REQUESTS' | 'CHARACTERS' = 'TOKENS') => ({ unit, prices, pricingTiers: null });

  it('warns about token prices above $10,000 per million, which are per-million prices typed per token', () => {
    const issues = checkPriceMagnitudes(draft({ input: 2.5, output: 0.00001, input_cached_tokens: 1.25 }));
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ['price-per-million', 'prices.input'],
      ['price-per-million', 'prices.input_cached_tokens'],
    ]);
    expect(issues[0]?.message).toContain('($2500000 per million)');
    expect(issues[0]?.message).toContain('2.5/1M (= 0.0000025)');
  });

  it('leaves alone per-request usage types and units that are not tokens or characters', () => {
    expect(checkPriceMagnitudes(draft({ web_search_queries: 0.035, input: 0.01 }))).toEqual([]);
    expect(checkPriceMagnitudes(draft({ input: 3 }, 'REQUESTS'))).toEqual([]);
    expect(checkPriceMagnitudes(draft({ input: 3 }, 'CHARACTERS'))).toHaveLength(1);
  });

  it('looks into every pricing tier', () => {
    const tiers = [
      { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000001 } },
      { name: 'Big', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt' as const, value: 1 }], prices: { input: 2 } },
    ];
    expect(checkPriceMagnitudes({ unit: 'TOKENS', prices: {}, pricingTiers: tiers }).map((i) => i.path)).toEqual(['pricingTiers.1.prices.input']);
  });
});
