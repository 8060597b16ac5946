import { describe, expect, it } from 'vitest';
import { checkDefinitionInput } from '../../../../src/core/models/checks.js';
import { draftToDefinition, normalizeDraftInput, specToDefinition } from '../../../../src/core/models/draft.js';
import { modelDefinitionSchema } from '../../../../src/core/models/schemas.js';

describe('specToDefinition', () => {
  it('converts the snake_case spec shape to the API shape, pricing becoming the default tier', () => {
    const d = specToDefinition(
      {
        name: 'my-gpt',
        match_pattern: '(?i)^my-gpt$',
        tokenizer: 'openai',
        tokenization_config: { tokenizerModel: 'gpt-4', tokensPerMessage: 3, tokensPerName: 1 },
        pricing: { input: 0.001, output: 0.002, cached_tokens: 0.0005 },
        start_date: '2025-01-01T00:00:00.000Z',
        unit: 'TOKENS',
      },
      { id: 'm1', createdAt: '2025-02-01T00:00:00.000Z' },
    );
    expect(d).toEqual({
      id: 'm1',
      modelName: 'my-gpt',
      matchPattern: '(?i)^my-gpt$',
      startDate: '2025-01-01T00:00:00.000Z',
      unit: 'TOKENS',
      inputPrice: 0.001,
      outputPrice: 0.002,
      totalPrice: null,
      tokenizerId: 'openai',
      tokenizerConfig: { tokenizerModel: 'gpt-4', tokensPerMessage: 3, tokensPerName: 1 },
      isLangfuseManaged: false,
      createdAt: '2025-02-01T00:00:00.000Z',
      prices: { input: { price: 0.001 }, output: { price: 0.002 }, cached_tokens: { price: 0.0005 } },
      pricingTiers: [
        { id: 'm1_tier_default', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.001, output: 0.002, cached_tokens: 0.0005 } },
      ],
    });
    // The result is a valid API model object.
    expect(modelDefinitionSchema.parse(d)).toEqual(d);
  });

  it('leaves optional fields null and has no tiers without pricing', () => {
    const d = specToDefinition({ name: 'x', match_pattern: 'x' });
    expect(d).toMatchObject({ id: 'local:x', startDate: null, unit: null, tokenizerId: null, tokenizerConfig: null, pricingTiers: [], prices: {}, inputPrice: null });
  });
});

describe('normalizeDraftInput', () => {
  it('accepts snake_case, camelCase and flat prices alike', () => {
    const snake = normalizeDraftInput({ name: 'x', match_pattern: 'p', tokenizer: 'claude', tokenization_config: null, pricing: { input: 1 }, start_date: '2024-01-01', unit: 'TOKENS' });
    const camel = normalizeDraftInput({ modelName: 'x', matchPattern: 'p', tokenizerId: 'claude', tokenizerConfig: null, inputPrice: 1, startDate: '2024-01-01', unit: 'TOKENS' });
    expect(snake.issues).toEqual([]);
    expect(camel.issues).toEqual([]);
    expect(snake.input).toEqual(camel.input);
    expect(snake.input).toMatchObject({ modelName: 'x', matchPattern: 'p', prices: { input: 1 } });
  });

  it('unwraps the read shape of prices ({"input": {"price": 1}}) and ignores read-only fields', () => {
    const n = normalizeDraftInput({ id: 'abc', createdAt: 'x', isLangfuseManaged: false, modelName: 'x', matchPattern: 'p', prices: { input: { price: 1 } } });
    expect(n.issues).toEqual([]);
    expect(n.input.prices).toEqual({ input: 1 });
  });

  it('takes a definition as GET returns it back unchanged: prices and flat prices mirror the default tier', () => {
    const fetched = specToDefinition(
      { name: 'x', match_pattern: '(?i)^x$', pricing: { input: 1e-6, output: 2e-6, input_cached_tokens: 5e-7 }, unit: 'TOKENS' },
      { id: 'abc', createdAt: '2025-01-01T00:00:00.000Z' },
    );
    const n = normalizeDraftInput(JSON.parse(JSON.stringify(fetched)));
    expect(n.issues).toEqual([]);
    expect(n.input.prices).toBeUndefined();
    expect(n.input.pricingTiers).toEqual(fetched.pricingTiers);
    expect(checkDefinitionInput(fetched).draft?.pricingTiers).toHaveLength(1);
  });

  it('keeps flat prices that disagree with the default tier, so the conflict is reported', () => {
    const tiers = [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1 } }];
    expect(normalizeDraftInput({ modelName: 'x', matchPattern: 'x', inputPrice: 2, pricingTiers: tiers }).input.prices).toEqual({ input: 2 });
    expect(normalizeDraftInput({ modelName: 'x', matchPattern: 'x', inputPrice: 1, outputPrice: 1, pricingTiers: tiers }).input.prices).toEqual({ input: 1, output: 1 });
    expect(checkDefinitionInput({ modelName: 'x', matchPattern: 'x', inputPrice: 2, pricingTiers: tiers }).issues.map((i) => i.code)).toContain('prices-and-tiers');
  });

  it('reads a model without tiers (created before pricing tiers existed) by its flat prices', () => {
    const n = normalizeDraftInput({ modelName: 'x', matchPattern: 'x', inputPrice: 1, prices: { input: { price: 1 } }, pricingTiers: [] });
    expect(n.input).toMatchObject({ prices: { input: 1 }, pricingTiers: undefined });
  });

  it('reports conflicting spellings, misspelt tokenizerConfig and unknown fields', () => {
    const n = normalizeDraftInput({ name: 'a', modelName: 'b', match_pattern: 'p', tokenizationConfig: {}, pricing: { input: 1 }, inputPrice: 2, colour: 'red' });
    expect(n.issues.map((i) => [i.severity, i.code])).toEqual([
      ['error', 'conflicting-fields'],
      ['error', 'conflicting-fields'],
      ['error', 'misspelt-tokenizer-config'],
      ['warning', 'unknown-field'],
    ]);
  });

  it('rejects non-objects', () => {
    expect(normalizeDraftInput([1]).issues).toMatchObject([{ code: 'not-an-object' }]);
  });
});

describe('draftToDefinition', () => {
  it('gives explicit tiers ids and normalises the start date', () => {
    const d = draftToDefinition(
      {
        modelName: 'x',
        matchPattern: '^x$',
        unit: 'TOKENS',
        startDate: '2024-05-01',
        tokenizerId: null,
        tokenizerConfig: undefined,
        prices: {},
        pricingTiers: [
          { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1 } },
          { name: 'Big', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 5 }], prices: { input: 2 } },
        ],
      },
      { id: 'x' },
    );
    expect(d.startDate).toBe('2024-05-01T00:00:00.000Z');
    expect(d.pricingTiers.map((t) => t.id)).toEqual(['x_tier_default', 'x_tier_1']);
    expect(d.prices).toEqual({ input: { price: 1 } });
    expect(d.tokenizerConfig).toBeNull();
  });
});
