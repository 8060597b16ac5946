// Matching at a generation's time: the definitions in force when it started.
import { describe, expect, it } from 'vitest';
import { createDatedMatcher } from '../../../../src/core/models/match-at.js';
import type { ModelDefinition } from '../../../../src/core/models/types.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';

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
