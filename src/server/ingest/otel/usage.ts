// Usage and cost details of a span (OtelIngestionProcessor.extractUsageDetails,
// extractGenericGenAiUsageDetails, extractCostDetails). What comes out is a body's
// `usageDetails`/`costDetails`, which then go through the ingestion schema like any event's.
import { type Attributes, isPlainObject, parseJsonPayload } from './values.js';

/** A JSON attribute that must hold an object: the object, {} when it holds something else, null when absent or unparsable. */
function jsonObjectAttribute(a: Attributes, key: string): Record<string, unknown> | null {
  const raw = a[key];
  if (!raw) return null;
  if (typeof raw !== 'string') return {};
  try {
    const parsed = JSON.parse(raw);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return null;
  }
}

const first = (raw: Record<string, number>, keys: string[]): number | undefined => {
  for (const key of keys) if (raw[key] !== undefined) return raw[key];
  return undefined;
};

const INPUT_KEYS = ['prompt_tokens', 'input_tokens', 'prompt'];
const OUTPUT_KEYS = ['completion_tokens', 'output_tokens', 'completion'];
const TOTAL_KEYS = ['total_tokens', 'total'];
const CACHE_READ_KEYS = [
  'cache_read.input_tokens',
  'cache_read_input_tokens',
  'cache_read_tokens',
  'details.cache_read_tokens',
  'details.cache_read_input_tokens',
  'prompt_details.cache_read',
  'input_cached_tokens',
];
const CACHE_CREATION_KEYS = [
  'cache_creation.input_tokens',
  'cache_creation_input_tokens',
  'cache_write_tokens',
  'details.cache_write_tokens',
  'details.cache_creation_input_tokens',
  'prompt_details.cache_write',
  'input_cache_creation',
];
const REASONING_KEYS = ['reasoning.output_tokens', 'completion_details.reasoning'];
const AUDIO_KEYS = ['completion_details.audio'];
const CONSUMED = new Set([...INPUT_KEYS, ...OUTPUT_KEYS, ...TOTAL_KEYS, ...CACHE_READ_KEYS, ...CACHE_CREATION_KEYS, ...REASONING_KEYS, ...AUDIO_KEYS]);

/**
 * `gen_ai.usage.*` and `llm.token_count.*` as usage details: input without cache reads and
 * writes, output without reasoning and audio tokens, the rest under their own names.
 */
export function genericUsageDetails(a: Attributes): Record<string, number> {
  const raw: Record<string, number> = {};
  let any = false;
  for (const key of Object.keys(a)) {
    if (!((key.startsWith('gen_ai.usage.') && key !== 'gen_ai.usage.cost') || key.startsWith('llm.token_count.'))) continue;
    any = true;
    const name = key.replace('gen_ai.usage.', '').replace('llm.token_count.', '');
    const value = Number(a[key]);
    if (!Number.isNaN(value)) raw[name] = value;
  }
  if (!any) return {};
  const input = first(raw, INPUT_KEYS);
  const output = first(raw, OUTPUT_KEYS);
  const total = first(raw, TOTAL_KEYS);
  const cacheRead = first(raw, CACHE_READ_KEYS);
  const cacheCreation = first(raw, CACHE_CREATION_KEYS);
  const reasoning = first(raw, REASONING_KEYS);
  const audio = first(raw, AUDIO_KEYS);
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (CONSUMED.has(key)) continue;
    out[key.startsWith('details.') ? key.replace('details.', '') : key] = value;
  }
  if (input !== undefined) out['input'] = Math.max(input - (cacheRead ?? 0) - (cacheCreation ?? 0), 0);
  if (output !== undefined) out['output'] = Math.max(output - (reasoning ?? 0) - (audio ?? 0), 0);
  if (total !== undefined) out['total'] = total;
  if (cacheRead !== undefined) out['input_cached_tokens'] = cacheRead;
  if (cacheCreation !== undefined) out['input_cache_creation'] = cacheCreation;
  if (reasoning !== undefined) out['output_reasoning_tokens'] = reasoning;
  if (audio !== undefined) out['output_audio_tokens'] = audio;
  return out;
}

function vercelAiUsage(a: Attributes): Record<string, number | undefined> {
  const int = (key: string) => parseInt(a[key]?.toString() ?? '0');
  const usage: Record<string, number | undefined> = {
    input: 'gen_ai.usage.prompt_tokens' in a ? int('gen_ai.usage.prompt_tokens') : 'gen_ai.usage.input_tokens' in a ? int('gen_ai.usage.input_tokens') : undefined,
    output: 'gen_ai.usage.completion_tokens' in a ? int('gen_ai.usage.completion_tokens') : 'gen_ai.usage.output_tokens' in a ? int('gen_ai.usage.output_tokens') : undefined,
    total: 'ai.usage.tokens' in a ? int('ai.usage.tokens') : undefined,
  };
  const countOf = (key: string): number => {
    const parsed = JSON.parse(a[key] as string);
    return typeof parsed === 'number' ? parsed : parsed.intValue;
  };
  if ('ai.usage.cachedInputTokens' in a) usage['input_cached_tokens'] = countOf('ai.usage.cachedInputTokens');
  if ('ai.usage.reasoningTokens' in a) usage['output_reasoning_tokens'] = countOf('ai.usage.reasoningTokens');

  const providerMetadata = a['ai.response.providerMetadata'];
  if (providerMetadata) {
    const parsed = JSON.parse(providerMetadata as string);
    if ('openai' in parsed) {
      const openai = parsed.openai as Record<string, number>;
      usage['input_cached_tokens'] ??= openai['cachedPromptTokens'];
      usage['accepted_prediction_tokens'] ??= openai['acceptedPredictionTokens'];
      usage['rejected_prediction_tokens'] ??= openai['rejectedPredictionTokens'];
      usage['output_reasoning_tokens'] ??= openai['reasoningTokens'];
    }
    if ('anthropic' in parsed && 'usage' in parsed.anthropic) {
      const anthropic = parsed.anthropic.usage as Record<string, unknown>;
      usage['input_cache_creation'] ??= anthropic['cache_creation_input_tokens'] as number;
      usage['input_cached_tokens'] ??= anthropic['cache_read_input_tokens'] as number;
      const creation = anthropic['cache_creation'];
      if (typeof creation === 'object' && creation !== null) {
        const c = creation as Record<string, unknown>;
        if (typeof c['ephemeral_5m_input_tokens'] === 'number') usage['input_cache_creation_5m'] ??= c['ephemeral_5m_input_tokens'];
        if (typeof c['ephemeral_1h_input_tokens'] === 'number') usage['input_cache_creation_1h'] ??= c['ephemeral_1h_input_tokens'];
        usage['input_cache_creation'] = Math.max((usage['input_cache_creation'] ?? 0) - (usage['input_cache_creation_5m'] ?? 0) - (usage['input_cache_creation_1h'] ?? 0), 0);
      }
    }
    if ('bedrock' in parsed && parsed.bedrock?.usage) {
      const bedrock = parsed.bedrock.usage as Record<string, number>;
      if (bedrock['cacheReadInputTokens'] !== undefined) usage['input_cache_read'] ??= bedrock['cacheReadInputTokens'];
      if (bedrock['cacheWriteInputTokens'] !== undefined) usage['input_cache_write'] ??= bedrock['cacheWriteInputTokens'];
      if (bedrock['cacheCreationInputTokens'] !== undefined) usage['input_cache_creation'] ??= bedrock['cacheCreationInputTokens'];
    }
  }
  usage['input'] = Math.max(
    (usage['input'] ?? 0) -
      (usage['input_cached_tokens'] ?? 0) -
      (usage['input_cache_creation'] ?? 0) -
      (usage['input_cache_creation_5m'] ?? 0) -
      (usage['input_cache_creation_1h'] ?? 0) -
      (usage['input_cache_read'] ?? 0),
    0,
  );
  usage['output'] = Math.max((usage['output'] ?? 0) - (usage['output_reasoning_tokens'] ?? 0), 0);
  return usage;
}

export function usageDetailsOf(a: Attributes, scopeName: string): Record<string, unknown> {
  const explicit = jsonObjectAttribute(a, 'langfuse.observation.usage_details');
  if (explicit !== null) return explicit;

  if (scopeName === 'genkit-tracer') {
    const usage = parseJsonPayload(a['genkit:output'])?.usage as Record<string, number> | undefined;
    if (usage) {
      const { inputTokens: input, thoughtsTokens: thoughts, outputTokens: output, totalTokens: total } = usage;
      const out: Record<string, number> = {};
      if (input) out['input'] = input;
      if (output) out['output'] = Math.max(output - (thoughts ?? 0), 0);
      if (total) out['total'] = total;
      if (thoughts) out['output_reasoning'] = thoughts;
      return out;
    }
  }

  if (scopeName === 'ai') {
    try {
      return vercelAiUsage(a);
    } catch {
      // Unreadable provider metadata: the generic reading below applies.
    }
  }

  if (scopeName === 'pydantic-ai') {
    const usage = genericUsageDetails(a);
    if (Object.keys(usage).length > 0) return usage;
  }

  if (scopeName === 'gcp.vertex.agent' && 'gcp.vertex.agent.llm_response' in a) {
    const usage: Record<string, number> = genericUsageDetails(a);
    if (usage['input_cached_tokens'] === undefined) {
      const cached = parseJsonPayload(a['gcp.vertex.agent.llm_response'])?.usage_metadata?.cached_content_token_count;
      if (typeof cached === 'number' && !Number.isNaN(cached) && cached > 0) {
        usage['input_cached_tokens'] = cached;
        if (usage['input'] !== undefined) usage['input'] = Math.max(usage['input'] - cached, 0);
      }
    }
    return usage;
  }

  return genericUsageDetails(a);
}

export function costDetailsOf(a: Attributes): Record<string, unknown> {
  const explicit = jsonObjectAttribute(a, 'langfuse.observation.cost_details');
  if (explicit !== null) return explicit;
  const genAiCost = a['gen_ai.usage.cost'];
  if (genAiCost != null && genAiCost !== '') return { total: genAiCost };
  const openInference = a['llm.cost.total'];
  if (openInference != null && openInference !== '') return { total: openInference };
  return {};
}
