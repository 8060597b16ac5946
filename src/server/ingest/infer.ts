// Usage and cost inference for a stored observation, with the core that `llmobs estimate` uses:
// model matching, tokenization when nothing was provided, pricing tier and cost. Run once per
// ingested observation, on the definitions as they are at ingestion: a definition changed later
// does not re-price what is stored, only a new event for the observation does.
import { Decimal } from 'decimal.js';
import { estimateFromProvided } from '../../core/estimate.js';
import { registerPatternEngine } from '../../core/models/engine-slot.js';
import { createMatcher, type MatchResult } from '../../core/models/match.js';
import { PATTERN_ENGINE } from '../../core/models/pattern.js';
import { useDecimal } from '../../core/precision.js';
import type { ModelDefinition } from '../../core/models/types.js';
import type { TokenCounter } from '../../tokenizer/index.js';
import type { ObservationLevel } from '../records.js';

// Ingestion is synchronous and sees any name, tier and price: the server has the regex engine and
// decimal.js at hand.
registerPatternEngine(PATTERN_ENGINE);
useDecimal(Decimal);

export interface InferenceInput {
  model: string | null | undefined;
  input: unknown;
  output: unknown;
  level: ObservationLevel;
  /** provided_usage_details after the merge (negative and non-numeric values are dropped here). */
  providedUsage: Record<string, unknown>;
  providedCost: Record<string, unknown>;
  /** What pricing-tier attribute conditions look at; absent when the server passes none. */
  tierAttributes: { modelParameters?: unknown; metadata?: unknown } | undefined;
}

export interface Inference {
  providedUsageDetails: Record<string, number>;
  providedCostDetails: Record<string, number>;
  usageDetails: Record<string, number>;
  costDetails: Record<string, number>;
  totalCost: number | null;
  internalModelId: string | null;
  usagePricingTierId: string | null;
  usagePricingTierName: string | null;
}

// Matching tests every pattern; a batch repeats the same few model names. One matcher per set of
// definitions, for as long as the caller keeps handing out the same array.
const matchers = new WeakMap<readonly ModelDefinition[], (model: string) => MatchResult>();

function matcherFor(definitions: readonly ModelDefinition[]): (model: string) => MatchResult {
  let matcher = matchers.get(definitions);
  if (!matcher) {
    matcher = createMatcher(definitions);
    matchers.set(definitions, matcher);
  }
  return matcher;
}

/** The server keeps provided usage values that are numbers >= 0 (ClickHouse may hand back strings). */
function numbersAtLeastZero(details: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(details)) {
    const value = details[key];
    if (value === null || value === undefined) continue;
    const n = Number(value);
    if (!Number.isNaN(n) && n >= 0) out[key] = n;
  }
  return out;
}

function costNumbers(details: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of Object.keys(details)) {
    const value = details[key];
    if (typeof value === 'number') out[key] = value;
  }
  return out;
}

/** The server JSON-parses a string before reading attribute values from it. */
function attributeSource(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

export function inferUsageAndCost(input: InferenceInput, definitions: readonly ModelDefinition[], count: TokenCounter): Inference {
  const providedUsageDetails = numbersAtLeastZero(input.providedUsage);
  const providedCostDetails = costNumbers(input.providedCost);
  const result = estimateFromProvided(
    {
      model: input.model ?? '',
      input: input.input,
      output: input.output,
      level: input.level,
      modelParameters: attributeSource(input.tierAttributes?.modelParameters),
      metadata: attributeSource(input.tierAttributes?.metadata),
    },
    { usage: providedUsageDetails, cost: providedCostDetails, usageDetailsShape: null, dropped: [] },
    { definitions, count, match: matcherFor(definitions) },
  );
  const tier = result.explain.tier.tier;
  return {
    providedUsageDetails,
    providedCostDetails,
    usageDetails: result.usageDetails,
    costDetails: result.costDetails,
    totalCost: result.totalCost,
    internalModelId: result.matchedModel?.id ?? null,
    usagePricingTierId: tier?.id ?? null,
    usagePricingTierName: tier?.name ?? null,
  };
}
