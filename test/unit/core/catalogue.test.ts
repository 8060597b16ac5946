import { describe, expect, it } from 'vitest';
import { modelDefinitionSchema } from '../../../src/core/models/schemas.js';
import { builtInDefinitions, catalogueInfo } from '../../../src/data/catalogue.js';

describe('built-in catalogue', () => {
  it('records its source, licence and generation date', () => {
    const info = catalogueInfo();
    expect(info.license).toBe('MIT');
    expect(info.copyright).toContain('Langfuse GmbH');
    expect(info.source).toContain('default-model-prices.json');
    expect(Number.isNaN(Date.parse(info.generatedAt))).toBe(false);
    expect(info.sourceSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(info.count).toBe(167);
  });

  it('exposes 167 Langfuse-managed models in the API shape', () => {
    const defs = builtInDefinitions();
    expect(defs).toHaveLength(167);
    expect(new Set(defs.map((d) => d.id)).size).toBe(167);
    for (const d of defs) {
      expect(modelDefinitionSchema.parse(d)).toEqual(d);
      expect(d).toMatchObject({ isLangfuseManaged: true, unit: null, startDate: null });
      const def = d.pricingTiers.filter((t) => t.isDefault);
      expect(def, d.modelName).toHaveLength(1);
      expect(d.prices).toEqual(Object.fromEntries(Object.entries(def[0]!.prices).map(([k, v]) => [k, { price: v }])));
      expect(d.inputPrice).toBe(def[0]!.prices['input'] ?? null);
      expect(d.outputPrice).toBe(def[0]!.prices['output'] ?? null);
      expect(d.totalPrice).toBe(def[0]!.prices['total'] ?? null);
    }
  });

  it('keeps tokenizers as given, null when absent', () => {
    const defs = builtInDefinitions();
    const byName = (n: string) => defs.find((d) => d.modelName === n)!;
    expect(byName('gpt-4o')).toMatchObject({ tokenizerId: 'openai', tokenizerConfig: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 } });
    expect(byName('o1')).toMatchObject({ tokenizerId: null, tokenizerConfig: null });
    expect(byName('claude-3-haiku-20240307')).toMatchObject({ tokenizerId: 'claude' });
    expect(defs.filter((d) => d.tokenizerId === null)).toHaveLength(56);
  });
});
