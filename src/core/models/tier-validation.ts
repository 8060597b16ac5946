// The service's checks of pricing tiers, in its own words (packages/shared/src/features/
// model-pricing/validation.ts): the zod schema of one tier as POST /api/public/models takes it,
// and `validatePricingTiers`, which answers its first failure only. The local server answers
// with these; llmobs's own checks of a definition (tier-checks.ts) say more, for people.
import { z } from 'zod';
import { checkRegexSafety } from '../regex/index.js';
import { USAGE_OPERATORS } from './types.js';

/** What `validateRegexPattern` throws for a usage condition's pattern, or null when it passes. */
export function regexPatternProblem(pattern: string): string | null {
  if (pattern.length > 200) return 'Pattern exceeds maximum length of 200 characters';
  if (pattern.length === 0) return 'Pattern cannot be empty';
  try {
    new RegExp(pattern);
  } catch (e) {
    return `Invalid regex syntax: ${e instanceof Error ? e.message : String(e)}`;
  }
  // The service asks safe-regex2; checkRegexSafety follows its rules.
  if (!checkRegexSafety(pattern).safe) return 'Pattern may cause catastrophic backtracking. Please simplify your regex.';
  return null;
}

const usageCondition = z.object({
  usageDetailPattern: z
    .string()
    .min(1, 'Pattern cannot be empty')
    .max(200, 'Pattern exceeds maximum length of 200 characters')
    .refine((pattern) => regexPatternProblem(pattern) === null, { message: 'Invalid regex pattern: must be valid regex and not cause catastrophic backtracking' }),
  operator: z.enum(USAGE_OPERATORS),
  value: z.number().nonnegative(),
  caseSensitive: z.boolean().default(false),
});

const attributeCondition = z.object({
  source: z.enum(['model_parameters', 'metadata']),
  key: z.string().min(1, 'Key cannot be empty').max(200),
  operator: z.literal('in'),
  values: z.array(z.string().min(1, 'Value cannot be empty')).min(1),
});

/** `PricingTierInputSchema`. */
export const pricingTierInput = z.object({
  name: z.string().trim().min(1, 'Name cannot be empty').max(100, 'Name exceeds maximum length of 100 characters'),
  isDefault: z.boolean().default(false),
  priority: z.number().int('Priority must be an integer').min(0, 'Priority must be non-negative').max(999, 'Priority cannot exceed 999'),
  conditions: z.array(z.union([usageCondition, attributeCondition])),
  prices: z.record(z.string(), z.number().nonnegative('Price must be non-negative')),
});

export type PricingTierBody = z.output<typeof pricingTierInput>;

/** `validatePricingTiers`: the first rule the tiers break, in the service's order and words, or null. */
export function pricingTiersProblem(tiers: readonly PricingTierBody[]): string | null {
  if (tiers.length === 0) return 'At least one pricing tier is required';
  const defaults = tiers.filter((t) => t.isDefault);
  if (defaults.length === 0) return 'Exactly one pricing tier must have isDefault: true';
  if (defaults.length > 1) return `Only one pricing tier can have isDefault: true, found ${defaults.length}`;
  const standard = defaults[0]!;
  if (standard.priority !== 0) return 'Default pricing tier must have priority: 0';
  if (standard.conditions.length > 0) return 'Default pricing tier must have empty conditions array';
  const bare = tiers.find((t) => !t.isDefault && t.conditions.length === 0);
  if (bare) return `Non-default pricing tier "${bare.name}" must have at least one condition`;
  if (new Set(tiers.map((t) => t.priority)).size !== tiers.length) return 'Pricing tier priorities must be unique within a model';
  if (new Set(tiers.map((t) => t.name)).size !== tiers.length) return 'Pricing tier names must be unique';
  for (const tier of tiers) {
    for (const condition of tier.conditions) {
      if (!('usageDetailPattern' in condition)) continue;
      const problem = regexPatternProblem(condition.usageDetailPattern);
      if (problem) return `Invalid regex pattern in tier "${tier.name}": ${problem}`;
    }
  }
  const unpriced = tiers.find((t) => Object.keys(t.prices).length === 0);
  if (unpriced) return `Pricing tier "${unpriced.name}" must have at least one price defined`;
  if (tiers.length > 1) {
    const expected = Object.keys(standard.prices).sort();
    for (const tier of tiers) {
      if (tier.isDefault) continue;
      const got = Object.keys(tier.prices).sort();
      if (got.length !== expected.length || got.some((key, i) => key !== expected[i])) {
        return `Pricing tier "${tier.name}" must have the same usage keys as the default tier. Expected: [${expected.join(', ')}], Got: [${got.join(', ')}]`;
      }
    }
  }
  return null;
}
