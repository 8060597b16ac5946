import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { modelDefinitionSchema } from '../../../src/core/models/schemas.js';
import { findModel } from '../../../src/core/models/match.js';
import { compilePattern, precomputePatterns, setKnownPatterns, testPattern } from '../../../src/core/models/pattern.js';
import { builtInCandidates, builtInDefinitions, type CatalogueFile, catalogueInfo } from '../../../src/data/catalogue.js';

const root = join(import.meta.dirname, '..', '..', '..');

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

describe('the catalogue as the bundle carries it', () => {
  // What catalogue.json reads as, mapped field by field (the API's order of keys).
  const file = JSON.parse(readFileSync(join(root, 'src', 'data', 'catalogue.json'), 'utf8')) as CatalogueFile;
  const expected = file.models.map((m) => {
    const def = m.pricingTiers.find((t) => t.isDefault)!;
    return {
      id: m.id,
      modelName: m.modelName,
      matchPattern: m.matchPattern,
      startDate: null,
      unit: null,
      inputPrice: def.prices['input'] ?? null,
      outputPrice: def.prices['output'] ?? null,
      totalPrice: def.prices['total'] ?? null,
      tokenizerId: m.tokenizerId,
      tokenizerConfig: m.tokenizerConfig ?? null,
      isLangfuseManaged: true,
      createdAt: m.createdAt,
      prices: Object.fromEntries(Object.entries(def.prices).map(([k, v]) => [k, { price: v }])),
      pricingTiers: m.pricingTiers,
    };
  });

  it('reads as catalogue.json, keys in the same order, whether built one by one or all together', () => {
    // One model's definition is built when first used (a name that only it may match).
    const [gpt4o] = builtInCandidates('gpt-4o').filter((d) => d.modelName === 'gpt-4o');
    const defs = builtInDefinitions();
    expect(defs).toContain(gpt4o);
    expect(defs[0]!.pricingTiers).toEqual(file.models[0]!.pricingTiers);
    expect(defs[1]!.inputPrice).toBe(expected[1]!.inputPrice);
    expect({ ...defs[2] }).toEqual(expected[2]);
    expect(Object.keys(defs[3]!)).toEqual(Object.keys(expected[3]!));
    expect(JSON.stringify(defs)).toBe(JSON.stringify(expected));
    expect(defs).toEqual(expected);
    // Read twice, the same objects.
    expect(defs[5]!.pricingTiers).toBe(defs[5]!.pricingTiers);
  });

  it('reads the same from the build (dist/), where it is written in at build time', async () => {
    const bundled = (await import(pathToFileURL(join(root, 'dist', 'catalogue.mjs')).href)) as typeof import('../../../src/data/catalogue.js');
    // catalogue.json itself is in no output file (scripts/build.mjs keeps what each holds).
    const meta = JSON.parse(readFileSync(join(root, 'node_modules', '.cache', 'llmobs-build', 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
    expect(Object.entries(meta.outputs).filter(([, output]) => 'src/data/catalogue.json' in output.inputs).map(([name]) => name)).toEqual([]);
    expect(bundled.catalogueInfo()).toEqual(catalogueInfo());
    expect(JSON.stringify(bundled.builtInDefinitions())).toBe(JSON.stringify(expected));
  });
});

describe('the built-in definitions one name is matched against', () => {
  afterEach(() => setKnownPatterns({}));
  const names = ['gpt-4o', 'GPT-4o', 'openai/gpt-4o-mini', 'gpt-4.1', 'gpt-4x1', 'claude-3-5-sonnet-20241022', 'ft:gpt-3.5-turbo-0613:a:b:c', 'gemini-2.5-pro', 'chat-bison@001', 'nothing', '', 'gpt-4o\n', '\u212agpt-4o', 'ǧpt-4o'];

  it('leave out only definitions that exactly do not match, and give the same match', () => {
    const all = builtInDefinitions();
    const compiled = (pattern: string, name: string) => testPattern(compilePattern(pattern), name);
    // From the sources no pattern is known ahead: every definition is a candidate.
    expect(builtInCandidates('gpt-4o')).toEqual(all);
    setKnownPatterns(precomputePatterns(all.map((d) => d.matchPattern)));
    for (const name of names) {
      const candidates = builtInCandidates(name);
      const left = all.filter((d) => !candidates.includes(d));
      for (const d of left) expect(compiled(d.matchPattern, name), `${name} ~ ${d.matchPattern}`).toEqual({ status: 'no-match', exact: true });
      // The same objects, in catalogue order.
      expect(candidates).toEqual(all.filter((d) => candidates.includes(d)));
      expect(findModel(name, candidates)).toEqual(findModel(name, all));
    }
    expect(builtInCandidates('gpt-4o').map((d) => d.modelName)).toEqual(['gpt-4o']);
  });
});
