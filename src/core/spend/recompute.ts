// Re-prices past generations with a set of model definitions, as the server would price them at
// ingestion, and compares with what it stored. Input: observations as `observations export`
// writes them (or as v2 observations arrive): `providedModelName`, `usageDetails`, `startTime`,
// `level`, `modelParameters`, `metadata`, `input`, `output`; the stored cost (`totalCost`,
// else `costDetails.total`) is what the result is compared with, never an input.
import { computeCost } from '../cost.js';
import { estimate, type EstimateInput, type EstimateResult, validateInput } from '../estimate.js';
import { isEmpty } from '../objects.js';
import { compareStrings } from '../order.js';
import { selectPricingTier } from '../pricing-tier.js';
import { createDatedMatcher } from '../models/match-at.js';
import { createMatcher, type MatchResult } from '../models/match.js';
import type { ModelDefinition } from '../models/types.js';
import { CostSum, lenientNumber } from '../numbers.js';
import type { TokenCounter } from '../../tokenizer/index.js';
import { finalizeProvidedUsage, mergeProvidedUsage, ObservationRejectedError } from '../usage.js';

export interface RecomputeOptions {
  definitions: readonly ModelDefinition[];
  /** Definitions a generation must not be priced with (a models file's invalid ones), by id, with why. */
  unusable?: ReadonlyMap<string, string> | undefined;
  count: TokenCounter;
  /** Compare start dates with the generation's time (default); false: the server's ingestion rule. */
  datedMatching: boolean;
}

/** What an exported observation says about one generation. */
export interface StoredGeneration {
  id: string | null;
  traceId: string | null;
  startTime: string | null;
  model: string | null;
  storedCost: number | null;
  /** Whether the server matched a definition at ingestion; null when the export does not say. */
  matchedBefore: boolean | null;
}

export interface Repriced extends StoredGeneration {
  /** The definition that matches now, by name. */
  definition: string | null;
  recomputedCost: number | null;
  /** Why the generation could not be priced (the server would reject it). */
  error: string | null;
}

export interface ModelRecompute {
  model: string;
  generations: number;
  storedCost: number;
  recomputedCost: number;
  difference: number;
  /** Definitions that price this model now (more than one when start dates split the range). */
  definitions: string[];
  /** Generations no definition matches now. */
  unmatchedNow: number;
  /** Generations the server matched to no definition at ingestion; null when the export does not say. */
  unmatchedBefore: number | null;
  withoutStoredCost: number;
  withoutRecomputedCost: number;
  failed: number;
}

const NO_MODEL = '';

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function record(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  // Some servers send maps as JSON text.
  if (typeof value === 'string' && value.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(value);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      /* not JSON: not a map */
    }
  }
  return undefined;
}

/** Reads the parts of an exported observation that say what was stored. */
export function readStored(raw: Record<string, unknown>): StoredGeneration {
  const matchedKey = 'internalModelId' in raw ? raw.internalModelId : 'modelId' in raw ? raw.modelId : undefined;
  return {
    id: text(raw.id),
    traceId: text(raw.traceId),
    startTime: text(raw.startTime),
    model: text(raw.providedModelName) ?? text(raw.model),
    storedCost: lenientNumber(raw.totalCost) ?? storedTotal(raw.costDetails) ?? lenientNumber(raw.calculatedTotalCost),
    matchedBefore: matchedKey === undefined ? null : typeof matchedKey === 'string' && matchedKey !== '',
  };
}

function storedTotal(costs: unknown): number | null {
  return typeof costs === 'object' && costs !== null ? lenientNumber((costs as Record<string, unknown>).total) : null;
}

/**
 * The stored usage, given to the estimation core as provided usage: it reads strings and drops
 * what the server would drop, exactly as at ingestion. An empty map is no usage.
 */
function usageMap(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  for (const _key in value) return value as Record<string, unknown>;
  return undefined;
}

export function generationInput(raw: Record<string, unknown>, model: string): EstimateInput {
  const level = raw.level;
  return {
    model,
    input: raw.input,
    output: raw.output,
    usageDetails: usageMap(raw.usageDetails),
    modelParameters: record(raw.modelParameters),
    metadata: record(raw.metadata) ?? raw.metadata ?? undefined,
    level: level === 'DEBUG' || level === 'DEFAULT' || level === 'WARNING' || level === 'ERROR' ? level : undefined,
  };
}

export class Recomputer {
  private readonly options: RecomputeOptions;
  private readonly match: (model: string, atMs: number | null) => MatchResult;
  private readonly dated: boolean;
  private readonly models = new Map<string, {
    generations: number;
    stored: CostSum;
    recomputed: CostSum;
    definitions: Set<string>;
    unmatchedNow: number;
    unmatchedBefore: number;
    beforeKnown: boolean;
    withoutStoredCost: number;
    withoutRecomputedCost: number;
    failed: number;
  }>();
  /** Observations that are neither a generation with a model nor carry a stored cost. */
  skipped = 0;

  constructor(options: RecomputeOptions) {
    this.options = options;
    // Dates only matter when some definition has one.
    this.dated = options.datedMatching && options.definitions.some((d) => d.startDate !== null);
    if (this.dated) this.match = createDatedMatcher(options.definitions);
    else {
      const plain = createMatcher(options.definitions);
      this.match = (model) => plain(model);
    }
  }

  /** Prices one exported observation; null when it is not a generation (no model, no stored cost). */
  add(raw: Record<string, unknown>): Repriced | null {
    const stored = readStored(raw);
    const model = stored.model ?? NO_MODEL;
    if (model === NO_MODEL && (stored.storedCost === null || stored.storedCost === 0)) {
      this.skipped++;
      return null;
    }
    let error: string | null = null;
    let priced: { definition: string | null; cost: number | null } | null = null;
    if (model !== NO_MODEL) {
      const at = this.dated && stored.startTime ? Date.parse(stored.startTime) : Number.NaN;
      const matched = this.match(model, Number.isNaN(at) ? null : at);
      const unusable = matched.winner ? this.options.unusable?.get(matched.winner.definition.id) : undefined;
      if (unusable !== undefined) error = `"${model}" matches ${unusable}`;
      else {
        try {
          priced = this.price(generationInput(raw, model), matched);
        } catch (e) {
          error = e instanceof ObservationRejectedError ? e.message : (e as Error).message;
        }
      }
    }
    const definition = priced?.definition ?? null;
    const recomputedCost = priced ? priced.cost : null;

    let entry = this.models.get(model);
    if (!entry) {
      entry = { generations: 0, stored: new CostSum(), recomputed: new CostSum(), definitions: new Set(), unmatchedNow: 0, unmatchedBefore: 0, beforeKnown: false, withoutStoredCost: 0, withoutRecomputedCost: 0, failed: 0 };
      this.models.set(model, entry);
    }
    entry.generations++;
    if (stored.storedCost !== null) entry.stored.add(stored.storedCost);
    else entry.withoutStoredCost++;
    if (recomputedCost !== null) entry.recomputed.add(recomputedCost);
    else entry.withoutRecomputedCost++;
    if (definition !== null) {
      if (entry.definitions.size < 100) entry.definitions.add(definition);
    } else if (error === null) entry.unmatchedNow++;
    if (stored.matchedBefore !== null) {
      entry.beforeKnown = true;
      if (!stored.matchedBefore) entry.unmatchedBefore++;
    }
    if (error !== null) entry.failed++;
    return { id: stored.id, traceId: stored.traceId, startTime: stored.startTime, model: stored.model, storedCost: stored.storedCost, matchedBefore: stored.matchedBefore, definition, recomputedCost, error };
  }

  /**
   * The estimation core's answer for one generation. Most generations were stored with usage:
   * for them `estimate` takes one branch (no tokenizing), and this takes the same steps with the
   * same functions (validation, usage normalisation, tier, cost), without the warnings and the
   * explanation nobody reads here. Any other generation goes through `estimate` itself. (Nor
   * does it check how deeply input and output nest: with usage given they are never walked, and
   * scanning each one's text would cost as much as the pricing.)
   */
  private price(input: EstimateInput, matched: MatchResult): { definition: string | null; cost: number | null } {
    validateInput(input);
    const provided = mergeProvidedUsage(input);
    if (isEmpty(provided.usage)) {
      const result: EstimateResult = estimate(input, { definitions: this.options.definitions, count: this.options.count, match: () => matched });
      return { definition: result.matchedModel?.modelName ?? null, cost: result.totalCost };
    }
    const definition = input.model === '' ? null : (matched.winner?.definition ?? null);
    const usage = finalizeProvidedUsage(provided.usage).usage;
    const tier = selectPricingTier(definition?.pricingTiers ?? [], usage, { modelParameters: input.modelParameters, metadata: input.metadata });
    const cost = computeCost(provided.cost, usage, tier.tier?.prices ?? null);
    return { definition: definition?.modelName ?? null, cost: cost.stored.totalCost };
  }

  /** Per model, the most expensive (now) first. */
  report(): ModelRecompute[] {
    return [...this.models.entries()]
      .map(([model, e]) => ({
        model,
        generations: e.generations,
        storedCost: round12(e.stored.value),
        recomputedCost: round12(e.recomputed.value),
        difference: round12(e.recomputed.value - e.stored.value),
        definitions: [...e.definitions].sort(),
        unmatchedNow: e.unmatchedNow,
        unmatchedBefore: e.beforeKnown ? e.unmatchedBefore : null,
        withoutStoredCost: e.withoutStoredCost,
        withoutRecomputedCost: e.withoutRecomputedCost,
        failed: e.failed,
      }))
      .sort((a, b) => b.recomputedCost - a.recomputedCost || b.storedCost - a.storedCost || compareStrings(a.model, b.model));
  }
}

/** Sums of a per-model report. */
export function recomputeTotals(models: readonly ModelRecompute[]) {
  const stored = new CostSum();
  const recomputed = new CostSum();
  let generations = 0;
  let unmatchedNow = 0;
  let unmatchedBefore: number | null = null;
  let failed = 0;
  for (const m of models) {
    stored.add(m.storedCost);
    recomputed.add(m.recomputedCost);
    generations += m.generations;
    unmatchedNow += m.unmatchedNow;
    failed += m.failed;
    if (m.unmatchedBefore !== null) unmatchedBefore = (unmatchedBefore ?? 0) + m.unmatchedBefore;
  }
  return { generations, storedCost: round12(stored.value), recomputedCost: round12(recomputed.value), difference: round12(recomputed.value - stored.value), unmatchedNow, unmatchedBefore, failed };
}

/**
 * Costs are stored with 12 decimals, so their exact sums have 12 decimals too: rounding a float
 * sum to 12 decimals removes its drift (far below 10^-12 with compensated summation).
 */
export function round12(value: number): number {
  return Math.abs(value) < 1e9 ? Math.round(value * 1e12) / 1e12 : value;
}
