import type { AttributeCondition, PricingTier, PricingTierCondition, UnknownCondition, UsageCondition } from './models/types.js';
import { isEmpty } from './objects.js';
import { isUnknownCondition, isUsageCondition } from './models/types.js';
import { patternEngine } from './models/engine-slot.js';

/** Observation attributes that attribute conditions look at. */
export interface TierAttributes {
  modelParameters?: unknown;
  metadata?: unknown;
}

export type ConditionEvaluation =
  | {
      kind: 'usage';
      condition: UsageCondition;
      /** Usage keys the pattern matched; their values are summed. */
      matchedKeys: string[];
      sum: number;
      passed: boolean;
      /** Set when the pattern is not a valid JS regex or cannot be evaluated safely (the condition then fails). */
      error?: string;
    }
  | {
      kind: 'attribute';
      condition: AttributeCondition;
      /** The attribute's value, when the key is present with a string, number or boolean. */
      value?: string | number | boolean;
      passed: boolean;
    }
  | {
      /** A kind of condition llmobs does not know: it cannot be evaluated and counts as not met. */
      kind: 'unknown';
      condition: UnknownCondition;
      passed: false;
    };

export interface TierEvaluation {
  tier: PricingTier;
  conditions: ConditionEvaluation[];
  passed: boolean;
  /**
   * Every known condition held, and only conditions of an unknown kind kept the tier from
   * applying: the server, which can evaluate them, may choose this tier.
   */
  undecided: boolean;
}

export type TierSelectionReason =
  /** A non-default tier whose conditions all passed. */
  | 'conditions'
  /** No non-default tier passed; the default tier applies. */
  | 'default'
  /** No tier passed and there is no default tier: no cost. */
  | 'no-default'
  | 'no-tiers'
  /** Empty usage: the server prices nothing and picks no tier. */
  | 'no-usage';

export interface TierSelection {
  tier: PricingTier | null;
  reason: TierSelectionReason;
  /** Non-default tiers in the order they were tried. */
  evaluated: TierEvaluation[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function compare(sum: number, operator: string, value: number): boolean {
  switch (operator) {
    case 'gt':
      return sum > value;
    case 'gte':
      return sum >= value;
    case 'lt':
      return sum < value;
    case 'lte':
      return sum <= value;
    case 'eq':
      return sum === value;
    case 'neq':
      return sum !== value;
    default:
      return false;
  }
}

function evaluateCondition(condition: PricingTierCondition, usage: Record<string, number>, attrs: TierAttributes): ConditionEvaluation {
  if (isUnknownCondition(condition)) return { kind: 'unknown', condition, passed: false };
  if (isUsageCondition(condition)) {
    const regex = patternEngine().conditionRegex(condition.usageDetailPattern, condition.caseSensitive === true);
    if (regex instanceof Error) {
      return { kind: 'usage', condition, matchedKeys: [], sum: 0, passed: false, error: regex.message };
    }
    const matchedKeys: string[] = [];
    for (const key of Object.keys(usage)) {
      const outcome = regex.test(key);
      if (outcome.matched === undefined) {
        return { kind: 'usage', condition, matchedKeys: [], sum: 0, passed: false, error: `cannot be evaluated safely for the usage key ${JSON.stringify(key)}: ${outcome.error}` };
      }
      if (outcome.matched) matchedKeys.push(key);
    }
    const sum = matchedKeys.reduce((acc, key) => acc + (usage[key] || 0), 0);
    return { kind: 'usage', condition, matchedKeys, sum, passed: compare(sum, condition.operator, condition.value) };
  }
  const source = condition.source === 'model_parameters' ? attrs.modelParameters : attrs.metadata;
  const raw = isRecord(source) && Object.prototype.hasOwnProperty.call(source, condition.key) ? source[condition.key] : undefined;
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    return { kind: 'attribute', condition, passed: false };
  }
  const passed = condition.operator === 'in' && condition.values.includes(String(raw));
  return { kind: 'attribute', condition, value: raw, passed };
}

// The order of the non-default tiers depends on the definition only: sort it once per tier list.
const sortedTiers = new WeakMap<readonly PricingTier[], PricingTier[]>();

function nonDefaultByPriority(tiers: readonly PricingTier[]): PricingTier[] {
  let sorted = sortedTiers.get(tiers);
  if (sorted === undefined) {
    sorted = tiers.filter((t) => !t.isDefault).sort((a, b) => a.priority - b.priority);
    sortedTiers.set(tiers, sorted);
  }
  return sorted;
}

/**
 * The server's tier choice: non-default tiers by ascending priority, the first whose conditions
 * all pass wins (a tier without conditions never does), otherwise the default tier. A condition
 * of a kind llmobs does not know counts as not met (see `TierEvaluation.undecided`).
 */
export function selectPricingTier(tiers: readonly PricingTier[], usage: Record<string, number>, attrs: TierAttributes = {}): TierSelection {
  if (tiers.length === 0) return { tier: null, reason: 'no-tiers', evaluated: [] };
  if (isEmpty(usage)) return { tier: null, reason: 'no-usage', evaluated: [] };
  const candidates = nonDefaultByPriority(tiers);
  const evaluated: TierEvaluation[] = [];
  for (const tier of candidates) {
    const conditions = tier.conditions.map((c) => evaluateCondition(c, usage, attrs));
    const passed = conditions.length > 0 && conditions.every((c) => c.passed);
    const undecided = !passed && conditions.some((c) => c.kind === 'unknown') && conditions.every((c) => c.passed || c.kind === 'unknown');
    evaluated.push({ tier, conditions, passed, undecided });
    if (passed) return { tier, reason: 'conditions', evaluated };
  }
  const fallback = tiers.find((t) => t.isDefault);
  return fallback ? { tier: fallback, reason: 'default', evaluated } : { tier: null, reason: 'no-default', evaluated };
}
