import { describe, expect, it } from 'vitest';
import { checkDefinitionInput } from '../../../../src/core/models/checks.js';
import { buildCreateModelBody } from '../../../../src/core/models/request.js';

function body(raw: Record<string, unknown>): ReturnType<typeof buildCreateModelBody> {
  const r = checkDefinitionInput(raw);
  if (!r.draft) throw new Error(JSON.stringify(r.issues));
  return buildCreateModelBody(r.draft);
}

describe('buildCreateModelBody', () => {
  it('sends input/output/total prices as the flat fields, with unit TOKENS by default', () => {
    expect(body({ name: 'm', match_pattern: '(?i)^m$', pricing: { input: 0.001, output: 0.002 } })).toEqual({
      modelName: 'm',
      matchPattern: '(?i)^m$',
      unit: 'TOKENS',
      inputPrice: 0.001,
      outputPrice: 0.002,
    });
    expect(body({ name: 'm', match_pattern: '(?i)^m$', pricing: { total: 0.5 }, unit: 'REQUESTS' })).toEqual({
      modelName: 'm',
      matchPattern: '(?i)^m$',
      unit: 'REQUESTS',
      totalPrice: 0.5,
    });
  });

  it('sends any other usage type as a default "Standard" tier', () => {
    expect(body({ name: 'm', match_pattern: '(?i)^m$', pricing: { input: 1, output: 2, input_cached_tokens: 0.5 } })).toEqual({
      modelName: 'm',
      matchPattern: '(?i)^m$',
      unit: 'TOKENS',
      pricingTiers: [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1, output: 2, input_cached_tokens: 0.5 } }],
    });
  });

  it('sends a total next to input or output as a default tier, since the flat fields refuse that pair', () => {
    for (const pricing of [{ input: 1, output: 2, total: 3 }, { input: 0, total: 3 }]) {
      expect(body({ name: 'm', match_pattern: '(?i)^m$', pricing })).toEqual({
        modelName: 'm',
        matchPattern: '(?i)^m$',
        unit: 'TOKENS',
        pricingTiers: [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: pricing }],
      });
    }
  });

  it('does not mistake inherited names for flat price keys', () => {
    expect(body({ name: 'm', match_pattern: '(?i)^m$', pricing: { toString: 1 } })).toHaveProperty('pricingTiers');
  });

  it('passes explicit tiers through and never sends tokenizationConfig', () => {
    const tiers = [
      { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1 } },
      { name: 'Flex', isDefault: false, priority: 1, conditions: [{ source: 'model_parameters', key: 'service_tier', operator: 'in', values: ['flex'] }], prices: { input: 0.5 } },
    ];
    const b = body({
      modelName: 'm',
      matchPattern: '(?i)^m$',
      startDate: '2025-01-01',
      tokenizerId: 'openai',
      tokenizerConfig: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 },
      pricingTiers: tiers,
    });
    expect(b).toEqual({
      modelName: 'm',
      matchPattern: '(?i)^m$',
      unit: 'TOKENS',
      startDate: '2025-01-01',
      tokenizerId: 'openai',
      tokenizerConfig: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 },
      pricingTiers: tiers,
    });
    expect(JSON.stringify(b)).not.toContain('tokenizationConfig');
  });

  it('maps the spec fields tokenizer and tokenization_config to tokenizerId and tokenizerConfig', () => {
    const b = body({ name: 'c', match_pattern: '(?i)^c$', tokenizer: 'claude', tokenization_config: {}, pricing: { input: 1 } });
    expect(b).toMatchObject({ tokenizerId: 'claude', tokenizerConfig: {} });
    expect(Object.keys(b)).not.toContain('tokenization_config');
  });
});
