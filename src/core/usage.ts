/**
 * Usage and cost normalisation as the ingestion API applies it to a generation's `usage`,
 * `usageDetails` and `costDetails`, up to the `usage_details` the server stores.
 */
import { assignAll, isEmpty, sumValues } from './objects.js';

export type UsageDetailsShape = 'chat-completions' | 'responses' | 'raw';

export interface DroppedValue {
  field: 'usage' | 'usageDetails' | 'costDetails' | 'provided';
  key: string;
  value: unknown;
  reason: string;
}

/** Thrown for inputs the server's schema rejects outright (the whole event fails validation). */
export class ObservationRejectedError extends Error {
  constructor(readonly issues: string[]) {
    super(`The server would reject this observation: ${issues.join('; ')}`);
    this.name = 'ObservationRejectedError';
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isNonNegInt = (v: unknown): v is number => isInt(v) && v >= 0;

export interface LegacyUsage {
  input?: number;
  output?: number;
  total?: number;
  inputCost?: number;
  outputCost?: number;
  totalCost?: number;
}

const UNITS = ['TOKENS', 'CHARACTERS', 'MILLISECONDS', 'SECONDS', 'REQUESTS', 'IMAGES'];

/**
 * The legacy `usage` field. OpenAI camelCase keys (promptTokens, completionTokens, totalTokens)
 * switch it to `{input, output, total}` and drop everything else, costs included.
 */
export function normalizeLegacyUsage(usage: unknown): LegacyUsage | undefined {
  if (usage === null || usage === undefined) return undefined;
  if (!isRecord(usage)) throw new ObservationRejectedError(['usage must be an object']);
  const issues: string[] = [];
  for (const key of ['input', 'output', 'total', 'promptTokens', 'completionTokens', 'totalTokens']) {
    const v = usage[key];
    if (v !== null && v !== undefined && !isInt(v)) issues.push(`usage.${key} must be an integer`);
  }
  for (const key of ['inputCost', 'outputCost', 'totalCost']) {
    const v = usage[key];
    if (v !== null && v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) issues.push(`usage.${key} must be a number`);
  }
  const unit = usage['unit'];
  if (unit !== null && unit !== undefined && !UNITS.includes(unit as string)) issues.push(`usage.unit must be one of ${UNITS.join(', ')}`);
  if (issues.length > 0) throw new ObservationRejectedError(issues);

  const pick = (key: string): number | undefined => {
    const v = usage[key];
    return typeof v === 'number' ? v : undefined;
  };
  if ('promptTokens' in usage || 'completionTokens' in usage || 'totalTokens' in usage) {
    return { input: pick('promptTokens'), output: pick('completionTokens'), total: pick('totalTokens') };
  }
  if (Object.keys(usage).length === 0) return undefined;
  return {
    input: pick('input'),
    output: pick('output'),
    total: pick('total'),
    inputCost: pick('inputCost'),
    outputCost: pick('outputCost'),
    totalCost: pick('totalCost'),
  };
}

interface OpenAiKeys {
  input: string;
  output: string;
  total: string;
  inputDetails: string;
  outputDetails: string;
  allowed: ReadonlySet<string>;
}

function openAiKeys(keys: Omit<OpenAiKeys, 'allowed'>): OpenAiKeys {
  return { ...keys, allowed: new Set(Object.values(keys)) };
}

const CHAT_COMPLETIONS_KEYS = openAiKeys({
  input: 'prompt_tokens',
  output: 'completion_tokens',
  total: 'total_tokens',
  inputDetails: 'prompt_tokens_details',
  outputDetails: 'completion_tokens_details',
});

const RESPONSES_KEYS = openAiKeys({
  input: 'input_tokens',
  output: 'output_tokens',
  total: 'total_tokens',
  inputDetails: 'input_tokens_details',
  outputDetails: 'output_tokens_details',
});

function strictOpenAi(v: Record<string, unknown>, keys: OpenAiKeys): Record<string, number> | undefined {
  // Both OpenAI shapes require their input and total counts: without them the schema fails at once.
  if (!(keys.input in v) || !(keys.total in v)) return undefined;
  for (const k in v) if (!keys.allowed.has(k)) return undefined;
  if (!isNonNegInt(v[keys.input]) || !isNonNegInt(v[keys.output]) || !isNonNegInt(v[keys.total])) return undefined;
  const inputDetails = v[keys.inputDetails];
  const outputDetails = v[keys.outputDetails];
  if (!validDetails(inputDetails) || !validDetails(outputDetails)) return undefined;
  const result: Record<string, number> = { input: v[keys.input] as number, output: v[keys.output] as number, total: v[keys.total] as number };
  subtractDetails(result, 'input', inputDetails);
  subtractDetails(result, 'output', outputDetails);
  return result;
}

/** Absent, or an object of non-negative integers (null values allowed). */
function validDetails(d: unknown): d is Record<string, unknown> | null | undefined {
  if (d === null || d === undefined) return true;
  if (!isRecord(d)) return false;
  for (const k in d) {
    const x = d[k];
    if (x !== null && x !== undefined && !isNonNegInt(x)) return false;
  }
  return true;
}

function subtractDetails(result: Record<string, number>, prefix: 'input' | 'output', d: Record<string, unknown> | null | undefined): void {
  if (d === null || d === undefined) return;
  for (const k in d) {
    const x = d[k] as number | null | undefined;
    if (x === null || x === undefined) continue;
    result[`${prefix}_${k}`] = x;
    // Every detail is subtracted, text tokens and zeros included; total is left alone.
    result[prefix] = Math.max(result[prefix]! - x, 0);
  }
}

export interface NormalizedUsageDetails {
  details: Record<string, number> | undefined;
  shape: UsageDetailsShape | null;
  dropped: DroppedValue[];
}

/**
 * `usageDetails`: OpenAI Chat Completions usage, then OpenAI Responses usage (both strict),
 * else a raw map keeping non-negative integers and `parseInt`-able strings.
 */
export function normalizeUsageDetails(value: unknown): NormalizedUsageDetails {
  if (value === null || value === undefined) return { details: undefined, shape: null, dropped: [] };
  if (!isRecord(value)) throw new ObservationRejectedError(['usageDetails must be an object']);
  const chat = strictOpenAi(value, CHAT_COMPLETIONS_KEYS);
  if (chat) return { details: chat, shape: 'chat-completions', dropped: [] };
  const responses = strictOpenAi(value, RESPONSES_KEYS);
  if (responses) return { details: responses, shape: 'responses', dropped: [] };

  const details: Record<string, number> = {};
  const dropped: DroppedValue[] = [];
  let kept = 0;
  for (const key in value) {
    const v = value[key];
    if (isNonNegInt(v)) {
      kept++;
      details[key] = v;
    } else if (typeof v === 'string') {
      // No radix, as on the server: "0x1f" parses as 31.
      const n = parseInt(v);
      if (n >= 0) {
        details[key] = n;
        kept++;
      } else dropped.push({ field: 'usageDetails', key, value: v, reason: 'string that does not parse to a non-negative integer' });
    } else {
      dropped.push({ field: 'usageDetails', key, value: v, reason: describeDrop(v) });
    }
  }
  return { details: kept > 0 ? details : undefined, shape: 'raw', dropped };
}

function describeDrop(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'number') return v < 0 ? 'negative' : Number.isInteger(v) ? 'not a safe integer' : 'not an integer';
  return `not a number (${Array.isArray(v) ? 'array' : typeof v})`;
}

/** `costDetails`: non-negative numbers are kept, everything else dropped. */
export function normalizeCostDetails(value: unknown): { details: Record<string, number>; dropped: DroppedValue[] } {
  if (value === null || value === undefined) return { details: {}, dropped: [] };
  if (!isRecord(value)) throw new ObservationRejectedError(['costDetails must be an object']);
  const details: Record<string, number> = {};
  const dropped: DroppedValue[] = [];
  for (const key in value) {
    const v = value[key];
    if (typeof v === 'number' && Number.isFinite(v) && v >= 0) details[key] = v;
    else dropped.push({ field: 'costDetails', key, value: v, reason: describeDrop(v) });
  }
  return { details, dropped };
}

export interface ProvidedUsage {
  /** `provided_usage_details` after the server keeps only finite numbers >= 0. */
  usage: Record<string, number>;
  /** `provided_cost_details`. */
  cost: Record<string, number>;
  usageDetailsShape: UsageDetailsShape | null;
  dropped: DroppedValue[];
}

function collectRejection(e: unknown, rejected: string[]): void {
  if (!(e instanceof ObservationRejectedError)) throw e;
  rejected.push(...e.issues);
}

/** Merges legacy `usage` with `usageDetails` and `costDetails` the way ingestion does. */
export function mergeProvidedUsage(input: { usage?: unknown; usageDetails?: unknown; costDetails?: unknown }): ProvidedUsage {
  // Each field is checked even when an earlier one is rejected, so all issues are reported.
  const rejected: string[] = [];
  let legacy: LegacyUsage | undefined;
  let details: NormalizedUsageDetails | undefined;
  let costs: { details: Record<string, number>; dropped: DroppedValue[] } | undefined;
  try {
    legacy = normalizeLegacyUsage(input.usage);
  } catch (e) {
    collectRejection(e, rejected);
  }
  try {
    details = normalizeUsageDetails(input.usageDetails);
  } catch (e) {
    collectRejection(e, rejected);
  }
  try {
    costs = normalizeCostDetails(input.costDetails);
  } catch (e) {
    collectRejection(e, rejected);
  }
  if (rejected.length > 0 || !details || !costs) throw new ObservationRejectedError(rejected);

  const dropped: DroppedValue[] = details.dropped.length === 0 && costs.dropped.length === 0 ? [] : [...details.dropped, ...costs.dropped];
  const inputCount = legacy?.input;
  const outputCount = legacy?.output;
  const detailsEmpty = details.details === undefined || isEmpty(details.details);
  const total =
    legacy?.total || (detailsEmpty ? (inputCount && outputCount ? inputCount + outputCount : (inputCount ?? outputCount)) : undefined);

  const merged: Record<string, number> = {};
  if (inputCount != null) merged['input'] = inputCount;
  if (outputCount != null) merged['output'] = outputCount;
  if (total != null) merged['total'] = total;
  assignAll(merged, details.details);

  const usage: Record<string, number> = {};
  for (const key in merged) {
    const value = merged[key]!;
    if (Number.isFinite(value) && value >= 0) usage[key] = value;
    else dropped.push({ field: 'provided', key, value, reason: 'negative' });
  }

  const cost: Record<string, number> = {};
  if (legacy?.inputCost != null) cost['input'] = legacy.inputCost;
  if (legacy?.outputCost != null) cost['output'] = legacy.outputCost;
  if (legacy?.totalCost != null) cost['total'] = legacy.totalCost;
  assignAll(cost, costs.details);

  return { usage, cost, usageDetailsShape: details.shape, dropped };
}

/**
 * The stored `usage_details` when usage was provided: a missing `total` becomes the sum of every
 * key (cache and reasoning buckets included). A provided total is kept even if it is smaller.
 */
export function finalizeProvidedUsage(provided: Record<string, number>): { usage: Record<string, number>; totalAdded: boolean } {
  const usage = assignAll({}, provided);
  if (!isEmpty(usage) && !('total' in usage)) {
    usage['total'] = sumValues(provided);
    return { usage, totalAdded: true };
  }
  return { usage, totalAdded: false };
}
