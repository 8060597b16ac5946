// The service's validatePricingTiers and validateRegexPattern, in its words
// (packages/shared/src/features/model-pricing/validation.ts; the expected messages are those its
// tests check, web/src/__tests__/server/model-pricing-tiers.servertest.ts).
import { describe, expect, it } from 'vitest';
import { type PricingTierBody, pricingTiersProblem, regexPatternProblem } from '../../../../src/core/models/tier-validation.js';

const standard: PricingTierBody = { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 1, output: 2 } };
const large: PricingTierBody = { name: 'Large', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 100, caseSensitive: false }], prices: { output: 4, input: 2 } };

describe('pricingTiersProblem', () => {
  it('passes valid tiers, with the same keys in another order', () => {
    expect(pricingTiersProblem([standard, large])).toBeNull();
  });

  it('answers the first rule broken, in the service’s order', () => {
    expect(pricingTiersProblem([])).toBe('At least one pricing tier is required');
    expect(pricingTiersProblem([standard, { ...standard, name: 'Other', priority: 1 }])).toBe('Only one pricing tier can have isDefault: true, found 2');
    // No default and a duplicate priority: the default comes first.
    expect(pricingTiersProblem([{ ...large, priority: 1 }, { ...large, name: 'L2' }])).toBe('Exactly one pricing tier must have isDefault: true');
    expect(pricingTiersProblem([standard, { ...large, conditions: [{ usageDetailPattern: '(a+)+$', operator: 'gt', value: 1, caseSensitive: false }] }])).toBe(
      'Invalid regex pattern in tier "Large": Pattern may cause catastrophic backtracking. Please simplify your regex.',
    );
  });
});

describe('regexPatternProblem', () => {
  it.each([
    ['input', null],
    ['', 'Pattern cannot be empty'],
    ['x'.repeat(201), 'Pattern exceeds maximum length of 200 characters'],
    ['(unclosed', 'Invalid regex syntax: Invalid regular expression: /(unclosed/: Unterminated group'],
    ['(a+)+$', 'Pattern may cause catastrophic backtracking. Please simplify your regex.'],
  ])('%j: %j', (pattern, problem) => {
    expect(regexPatternProblem(pattern)).toBe(problem);
  });
});
