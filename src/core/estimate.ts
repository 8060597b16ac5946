import { assertJsonDepth } from './json-depth.js';
import type { CostResult } from './cost.js';
import { isEmpty } from './objects.js';
import { computeCost } from './cost.js';
import type { MatchResult } from './models/match.js';
import { findModel, noMatchMessage } from './models/match.js';
import type { DefinitionSource, ModelDefinition } from './models/types.js';
import type { TierSelection } from './pricing-tier.js';
import { selectPricingTier } from './pricing-tier.js';
import type { CountStats, TokenCounter, TokenCountOutcome, TokenizerInfo, TokenizerResolution } from '../tokenizer/index.js';
// The rules alone, not the tokenizer's index: the core loads neither the engine nor node:fs.
import { resolveTokenizer, SLOW_PIECE_BYTES, tokenizeObservation } from '../tokenizer/count-rules.js';
import type { DroppedValue, ProvidedUsage, UsageDetailsShape } from './usage.js';
import { finalizeProvidedUsage, mergeProvidedUsage, ObservationRejectedError } from './usage.js';
import type { EstimateWarning } from './warnings.js';
import { inputWithToolDefinitions } from './tools.js';
import { formatInteger } from './thousands.js';

/** One generation as it would be sent to the ingestion API. */
export interface EstimateInput {
  model: string;
  input?: unknown;
  output?: unknown;
  usage?: unknown;
  usageDetails?: unknown;
  costDetails?: unknown;
  modelParameters?: unknown;
  metadata?: unknown;
  level?: 'DEBUG' | 'DEFAULT' | 'WARNING' | 'ERROR' | null;
}

export interface EstimateOptions {
  /** Custom and built-in definitions together; `isLangfuseManaged` tells them apart. */
  definitions: readonly ModelDefinition[];
  count: TokenCounter;
  /** Matching over `definitions`, e.g. `createMatcher(definitions)` to reuse answers across calls. */
  match?: (model: string) => MatchResult;
  /** The model names to suggest when no definition matches a name (see core/did-you-mean.ts). */
  suggest?: (model: string) => readonly string[];
}

export interface MatchedModel {
  id: string;
  modelName: string;
  matchPattern: string;
  source: DefinitionSource;
}

export type UsageSource = 'provided' | 'tokenized' | 'none';

/** Everything an `--explain` view needs to show how each number came about. */
export interface EstimateExplanation {
  match: MatchResult | null;
  tokenizer: TokenizerResolution | null;
  usage: {
    source: UsageSource;
    /** `provided_usage_details` after normalisation. */
    provided: Record<string, number>;
    providedCost: Record<string, number>;
    usageDetailsShape: UsageDetailsShape | null;
    /** The server added `total` as the sum of all provided keys. */
    totalAdded: boolean;
    tokenization: { input: TokenCountOutcome; output: TokenCountOutcome } | null;
    /** Why tokenization did not run although nothing was provided. */
    tokenizationSkipped: string | null;
    dropped: DroppedValue[];
  };
  tier: TierSelection;
  cost: CostResult;
}

export interface EstimateResult {
  model: string;
  matchedModel: MatchedModel | null;
  tokenizer: TokenizerInfo | null;
  usageDetails: Record<string, number>;
  /** Costs as the server stores and returns them (Decimal64(12)); unrounded values are in `explain.cost`. */
  costDetails: Record<string, number>;
  totalCost: number | null;
  pricingTier: string | null;
  warnings: EstimateWarning[];
  /** When no definition matches the name and `suggest` was given: the names it suggests, maybe none. */
  suggestions?: string[];
  explain: EstimateExplanation;
}

const LEVELS = ['DEBUG', 'DEFAULT', 'WARNING', 'ERROR'];

const piecesOf = (outcome: TokenCountOutcome) => (outcome.kind === 'count' ? outcome.pieces : undefined);

/** The tokenizer call (input or output) whose long pieces take the reference the longest. */
function slowestCall(a: TokenCountOutcome, b: TokenCountOutcome): CountStats | undefined {
  const x = piecesOf(a);
  const y = piecesOf(b);
  return x && y ? (x.pieceWork >= y.pieceWork ? x : y) : (x ?? y);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isModelParameterValue(v: unknown): boolean {
  if (v === null || v === undefined) return true;
  if (typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v))) return true;
  if (Array.isArray(v)) return v.every((x) => typeof x === 'string');
  return isRecord(v) && Object.values(v).every((x) => typeof x === 'string');
}

/** The parts of the server's event schema that would reject the whole generation. */
export function validateInput(input: EstimateInput): void {
  const issues: string[] = [];
  if (typeof input.model !== 'string') issues.push('model must be a string');
  if (input.level != null && !LEVELS.includes(input.level)) issues.push(`level must be one of ${LEVELS.join(', ')}`);
  if (input.modelParameters != null) {
    if (!isRecord(input.modelParameters)) issues.push('modelParameters must be an object');
    else {
      for (const [k, v] of Object.entries(input.modelParameters)) {
        if (!isModelParameterValue(v)) issues.push(`modelParameters.${k} must be a string, number, boolean, string array or string map`);
      }
    }
  }
  if (issues.length > 0) throw new ObservationRejectedError(issues);
}

// Definitions do not change while they are used: each one's tokenizer is worked out once.
const resolutions = new WeakMap<ModelDefinition, TokenizerResolution>();

function tokenizerOf(definition: ModelDefinition): TokenizerResolution {
  let resolution = resolutions.get(definition);
  if (resolution === undefined) {
    resolution = resolveTokenizer(definition);
    resolutions.set(definition, resolution);
  }
  return resolution;
}

const REASONING_MODEL = /(^|\/)(o1|o3|o4)(-|$)|(^|\/)gpt-5/i;
const REASONING_KEY = /reasoning|thought/i;

const list = (keys: readonly string[]): string => keys.map((k) => `"${k}"`).join(', ');

/**
 * Estimates usage and cost for one generation with the server's ingestion rules: provided usage
 * and cost are normalised, the model name is matched against the definitions, usage is tokenized
 * only when the server would, then a pricing tier and the costs are computed.
 */
export function estimate(input: EstimateInput, options: EstimateOptions): EstimateResult {
  for (const key of ['input', 'output', 'usage', 'usageDetails', 'costDetails', 'modelParameters', 'metadata'] as const) {
    assertJsonDepth(input[key], `the ${key === 'usageDetails' ? 'usage' : key === 'costDetails' ? 'cost' : key}`);
  }
  validateInput(input);
  const provided = mergeProvidedUsage(input);
  // The worker reads pricing-tier attributes (model parameters, metadata) from the last event that
  // carried usage (provided_usage_details not empty, negative values still in): a generation sent
  // without usage has none, so attribute conditions cannot hold for it.
  const usageSent = !isEmpty(provided.usage) || provided.dropped.some((d) => d.field === 'provided');
  const result = estimateFromProvided(
    {
      ...input,
      // Tool definitions in the metadata are counted as part of the input, as the worker moves them there.
      input: inputWithToolDefinitions(input.input, input.metadata),
      modelParameters: usageSent ? input.modelParameters : undefined,
      metadata: usageSent ? input.metadata : undefined,
    },
    provided,
    options,
  );
  if (!usageSent) warnIfAttributesIgnored(result, input);
  return result;
}

/** Says so when the attributes sent would have chosen another tier, had usage been sent with them. */
function warnIfAttributesIgnored(result: EstimateResult, input: EstimateInput): void {
  const tiers = result.explain.match?.winner?.definition.pricingTiers ?? [];
  if (isEmpty(result.usageDetails) || (input.modelParameters == null && input.metadata == null)) return;
  const withAttributes = selectPricingTier(tiers, result.usageDetails, { modelParameters: input.modelParameters, metadata: input.metadata });
  if (!withAttributes.tier || withAttributes.tier.id === result.explain.tier.tier?.id) return;
  result.warnings.push({
    code: 'tier-attributes-ignored',
    message: `No usage was sent, so the server chooses the pricing tier without looking at model parameters or metadata: "${result.pricingTier ?? 'none'}" rather than "${withAttributes.tier.name}". Send the usage with the generation for the attributes to count.`,
  });
}

/** What `estimateFromProvided` reads of a generation besides its provided usage and cost. */
export type GenerationFields = Pick<EstimateInput, 'model' | 'input' | 'output' | 'modelParameters' | 'metadata' | 'level'>;

/**
 * The inference half of `estimate`: matching, tokenization, tier and cost, from usage and cost
 * already normalised the way ingestion stores them (`provided_usage_details`,
 * `provided_cost_details`). Ingestion calls this on the merged observation; `estimate` on one
 * generation's raw fields. `modelParameters` and `metadata` are what pricing-tier attribute
 * conditions look at.
 */
export function estimateFromProvided(input: GenerationFields, provided: ProvidedUsage, options: EstimateOptions): EstimateResult {
  const warnings: EstimateWarning[] = [];
  const warn = (code: EstimateWarning['code'], message: string): void => {
    warnings.push({ code, message });
  };

  // An empty model name is falsy on the server: no lookup at all.
  const match = input.model === '' ? null : options.match ? options.match(input.model) : findModel(input.model, options.definitions);
  const definition = match?.winner?.definition ?? null;

  if (match) {
    for (const u of match.unevaluated) {
      if (!u.affectsResult) continue;
      warn('pattern-not-evaluable', `"${u.definition.modelName}" (${u.source}, pattern ${JSON.stringify(u.definition.matchPattern)}) could not be checked: ${u.reason}. It might match and take precedence.`);
    }
    if (match.tiedWith.length > 0 && definition) {
      const names = [definition, ...match.tiedWith.map((t) => t.definition)].map((d) => `"${d.modelName}" (${d.id})`);
      warn('ambiguous-match', `${names.join(', ')} match equally well (same group and start date); the server may pick any of them. Shown: the first by id.`);
    }
  }
  let suggestions: string[] | undefined;
  if (!definition) {
    if (input.model !== '' && options.suggest) suggestions = [...options.suggest(input.model)];
    warn('no-matching-model', noMatchMessage(input.model, suggestions));
  }

  const resolution = definition ? tokenizerOf(definition) : null;
  let usage: Record<string, number>;
  let usageSource: UsageSource;
  let totalAdded = false;
  let tokenization: EstimateExplanation['usage']['tokenization'] = null;
  let tokenizationSkipped: string | null = null;
  const providedUsageEmpty = isEmpty(provided.usage);
  const providedCostPresent = !isEmpty(provided.cost);

  if (definition && resolution && providedUsageEmpty && !providedCostPresent && input.level !== 'ERROR') {
    const result = tokenizeObservation(resolution, input.input, input.output, options.count);
    tokenization = { input: result.input, output: result.output };
    usage = result.usage;
    usageSource = isEmpty(usage) ? 'none' : 'tokenized';
    const slow = slowestCall(result.input, result.output);
    if (!result.failed && slow && slow.pieceWork >= SLOW_PIECE_BYTES ** 2) {
      const bytes = (n: number) => formatInteger(Math.round(n));
      const runs =
        slow.longestPiece >= SLOW_PIECE_BYTES
          ? `a run of ${bytes(slow.longestPiece)} bytes`
          : `runs of up to ${bytes(slow.longestPiece)} bytes, together as slow to tokenize as one run of ${bytes(Math.sqrt(slow.pieceWork))} bytes,`;
      warn(
        'tokenization-may-time-out',
        `The text holds ${runs} that the tokenizer cannot split (no spaces or other breaks). The server's tokenizer takes quadratic time on such runs and may exceed its 30 s limit, leaving the generation without usage. Send usage with the generation.`,
      );
    }
    if (result.failed) {
      const reason = [result.input, result.output].find((o) => o.kind === 'error');
      warn('tokenization-failed', `The server's tokenizer would fail (${reason?.kind === 'error' ? reason.reason : 'error'}), leaving the generation without usage.`);
    }
    if (!resolution.ok) {
      warn(resolution.reason === 'no-tokenizer' ? 'no-tokenizer' : 'tokenizer-unusable', `"${definition.modelName}": ${resolution.message}. Send usage with the generation.`);
    } else if (resolution.chatConfigMissing) {
      warn('chat-config-missing', `"${definition.modelName}" uses chat tokenizer model "${resolution.tokenizer.tokenizerModel}" without numeric tokensPerMessage/tokensPerName: chat-message input gets no count on the server.`);
    }
  } else {
    const finalized = finalizeProvidedUsage(provided.usage);
    usage = finalized.usage;
    totalAdded = finalized.totalAdded;
    usageSource = isEmpty(usage) ? 'none' : 'provided';
    if (definition && providedUsageEmpty) {
      tokenizationSkipped = input.level === 'ERROR' ? 'the generation has level ERROR' : 'costs were provided';
      warn('tokenization-skipped', `No usage was provided and the server does not tokenize because ${tokenizationSkipped}.`);
    }
  }

  if (usageSource === 'tokenized' && resolution?.ok) {
    const rawKeys = [...Object.keys(provided.usage), ...provided.dropped.map((d) => d.key)];
    if (REASONING_MODEL.test(input.model) || (definition && REASONING_MODEL.test(definition.modelName)) || rawKeys.some((k) => REASONING_KEY.test(k))) {
      warn('reasoning-tokens-not-visible', 'This is a reasoning model: usage was estimated from the visible input and output only, hidden reasoning tokens are missing. Send usage details (e.g. completion_tokens_details.reasoning_tokens) with the generation.');
    }
    if (resolution.tokenizer.id === 'claude') {
      warn('claude-count-approximate', 'Claude token counts use the legacy Claude tokenizer and are only approximate for Claude 3 and later; send the usage the API returned instead.');
    }
  }
  if (!totalAdded && usageSource === 'provided' && usage['total'] !== undefined) {
    let others = 0;
    let sum = 0;
    for (const key in usage) {
      if (key === 'total') continue;
      others++;
      sum += usage[key]!;
    }
    if (others > 0 && sum !== usage['total']) {
      warn('usage-total-mismatch', `The provided total (${usage['total']}) differs from the sum of the other usage keys (${sum}); the server keeps it as given.`);
    }
  }
  if (provided.dropped.length > 0) {
    warn('values-dropped', `The server drops these values: ${provided.dropped.map((d) => `${d.field}.${d.key} (${d.reason})`).join(', ')}.`);
  }

  const tier = selectPricingTier(definition?.pricingTiers ?? [], usage, { modelParameters: input.modelParameters, metadata: input.metadata });
  const cost = computeCost(provided.cost, usage, tier.tier?.prices ?? null);

  for (const tried of tier.evaluated) {
    if (!tried.undecided || !definition) continue;
    const unknown = tried.conditions.flatMap((c) => (c.kind === 'unknown' ? [c.condition.text()] : []));
    warn(
      'tier-condition-unknown',
      `Tier "${tried.tier.name}" of "${definition.modelName}" has ${unknown.length === 1 ? 'a condition' : 'conditions'} of a kind llmobs cannot evaluate (${unknown.join(', ')}), treated as not met; the server may choose this tier, so the estimate may differ from the server's.`,
    );
  }

  if (definition && cost.source !== 'provided' && !isEmpty(usage)) {
    if (tier.tier === null) {
      warn('no-prices', `"${definition.modelName}" has ${tier.reason === 'no-tiers' ? 'no prices' : 'no applicable pricing tier'}, so the server computes no cost.`);
    } else {
      // A total price stands for the whole generation; unpriced parts are expected then.
      const totalPriced = cost.totalMethod === 'total-price';
      const unpriced = totalPriced ? [] : cost.unpriced.filter((k) => k !== 'total');
      if (unpriced.length > 0) {
        const priced = Object.keys(tier.tier.prices);
        const hints = unpriced
          .map((k) => [k, priced.find((p) => p !== k && p.toLowerCase() === k.toLowerCase())] as const)
          .filter((x): x is readonly [string, string] => x[1] !== undefined)
          .map(([k, p]) => ` "${k}" differs from the priced "${p}" only by case.`);
        warn('unpriced-usage-keys', `No price in tier "${tier.tier.name}" for ${list(unpriced)}; the server ignores these keys.${hints.join('')}`);
      }
    }
  }
  if (cost.outOfRange.length > 0) {
    warn('cost-out-of-range', `Costs for ${list(cost.outOfRange)} do not fit the server's Decimal64(12) storage (|cost| < 1,000,000).`);
  }

  return {
    model: input.model,
    matchedModel: definition
      ? { id: definition.id, modelName: definition.modelName, matchPattern: definition.matchPattern, source: match!.winner!.source }
      : null,
    tokenizer: resolution?.ok ? resolution.tokenizer : null,
    usageDetails: usage,
    costDetails: cost.stored.costDetails,
    totalCost: cost.stored.totalCost,
    pricingTier: tier.tier?.name ?? null,
    warnings,
    ...(suggestions ? { suggestions } : {}),
    explain: {
      match,
      tokenizer: resolution,
      usage: {
        source: usageSource,
        provided: provided.usage,
        providedCost: provided.cost,
        usageDetailsShape: provided.usageDetailsShape,
        totalAdded,
        tokenization,
        tokenizationSkipped,
        dropped: provided.dropped,
      },
      tier,
      cost,
    },
  };
}
