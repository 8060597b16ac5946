// The smaller readings of span attributes (OtelIngestionProcessor's extract* helpers): name,
// environment, metadata, user and session, model name and parameters, completion start, tags,
// public flag, prompt link of the Vercel AI SDK, observation level.
import type { ObservationLevel } from '../../records.js';
import { DEFAULT_ENVIRONMENT, normalizeEnvironment } from '../schemas.js';
import { type Attributes, isValidDateString, parseJsonPayload } from './values.js';

const asString = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

export function spanName(name: unknown, a: Attributes): string {
  if ('gen_ai.tool.name' in a && a['gen_ai.tool.name']) return asString(a['gen_ai.tool.name']);
  if ('genkit:name' in a) return a['genkit:name'] as string;
  if (a['logfire.msg']) return asString(a['logfire.msg']);
  if ('ai.toolCall.name' in a) return a['ai.toolCall.name'] as string;
  if ('ai.operationId' in a) {
    const prefix = a['ai.telemetry.functionId'] ? `${a['ai.telemetry.functionId']}:` : '';
    return prefix + a['ai.operationId'];
  }
  return name as string;
}

export function environmentOf(a: Attributes, resource: Attributes): string {
  for (const key of ['langfuse.environment', 'deployment.environment.name', 'deployment.environment']) {
    if (a[key]) return normalizeEnvironment(a[key]);
    if (resource[key]) return normalizeEnvironment(resource[key]);
  }
  return DEFAULT_ENVIRONMENT;
}

function parseMetadataAttribute(value: unknown): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') {
    try {
      const parsed = JSON.parse(value);
      return parsed && typeof parsed === 'object' ? parsed : {};
    } catch {
      return {};
    }
  }
  return typeof value === 'object' ? (value as Record<string, unknown>) : {};
}

const EXCLUDED_AI_METADATA = new Set(['ai.telemetry.metadata.userId', 'ai.telemetry.metadata.sessionId', 'ai.telemetry.metadata.tags', 'ai.telemetry.metadata.langfusePrompt']);

/** Metadata of the observation or the trace: the JSON attribute, then `<prefix>.<key>` attributes. */
export function metadataOf(a: Attributes, domain: 'trace' | 'observation'): Record<string, unknown> {
  const prefix = domain === 'observation' ? 'langfuse.observation.metadata' : 'langfuse.trace.metadata';
  const out: Record<string, unknown> = { ...parseMetadataAttribute(a[prefix] || a['langfuse.metadata']) };
  for (const [key, value] of Object.entries(a)) {
    for (const p of [prefix, 'langfuse.metadata', 'ai.telemetry.metadata']) {
      if (!key.startsWith(`${p}.`) || EXCLUDED_AI_METADATA.has(key)) continue;
      const sub = key.slice(p.length + 1);
      if (sub && sub !== '__proto__') out[sub] = value;
    }
  }
  return out;
}

function firstString(a: Attributes, keys: string[]): string | undefined {
  for (const key of keys) if (a[key]) return asString(a[key]);
  return undefined;
}

export const userIdOf = (a: Attributes): string | undefined =>
  firstString(a, ['langfuse.user.id', 'user.id', 'langfuse.observation.metadata.langfuse_user_id', 'langfuse.trace.metadata.langfuse_user_id', 'ai.telemetry.metadata.userId']);

export const sessionIdOf = (a: Attributes): string | undefined =>
  firstString(a, [
    'langfuse.session.id',
    'session.id',
    'gen_ai.conversation.id',
    'langfuse.observation.metadata.langfuse_session_id',
    'langfuse.trace.metadata.langfuse_session_id',
    'ai.telemetry.metadata.sessionId',
  ]);

export function publicOf(a: Attributes): boolean | undefined {
  const value = a['langfuse.trace.public'] ?? a['langfuse.public'];
  if (value == null) return undefined;
  return value === true || value === 'true';
}

export function tagsOf(a: Attributes): string[] {
  const value =
    a['langfuse.trace.tags'] ||
    a['langfuse.tags'] ||
    a['langfuse.observation.metadata.langfuse_tags'] ||
    a['langfuse.trace.metadata.langfuse_tags'] ||
    a['ai.telemetry.metadata.tags'] ||
    a['tag.tags'];
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.map(String);
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      const parsed = JSON.parse(value);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      // Not JSON: read as text below.
    }
  }
  if (typeof value === 'string' && value.includes(',')) return value.split(',').map((t) => t.trim());
  if (typeof value === 'string') return [value];
  return [];
}

export function modelNameOf(a: Attributes): string | undefined {
  const keys = ['langfuse.observation.model.name', 'gen_ai.response.model', 'ai.model.id', 'gen_ai.request.model', 'llm.response.model', 'llm.model_name', 'model'];
  if (a['genkit:metadata:subtype'] === 'model') keys.push('genkit:name');
  return firstString(a, keys);
}

/** Model parameters hold strings and numbers; anything else is JSON-encoded. */
function sanitize(params: unknown): any {
  if (typeof params === 'object' && params !== null) {
    return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, typeof v === 'string' || typeof v === 'number' ? v : JSON.stringify(v)]));
  }
  return params;
}

export function modelParametersOf(a: Attributes, scopeName: string): unknown {
  let explicit: Record<string, unknown> | undefined;
  if (a['langfuse.observation.model.parameters']) {
    try {
      explicit = sanitize(JSON.parse(a['langfuse.observation.model.parameters'] as string));
    } catch {
      // Unparsable: the other sources apply.
    }
  }
  if (explicit && scopeName !== 'ai') return explicit;

  if (scopeName === 'genkit-tracer') {
    const config = parseJsonPayload(a['genkit:input'])?.config ?? parseJsonPayload(a['genkit:output'])?.request?.config;
    if (config) return sanitize(config);
  }

  if (scopeName === 'ai') {
    const tier = parseJsonPayload(a['ai.response.providerMetadata'])?.openai?.serviceTier;
    const text = (key: string): string | null => (key in a ? (a[key]?.toString() ?? null) : null);
    return {
      maxSteps: text('ai.settings.maxSteps'),
      toolChoice: text('ai.prompt.toolChoice'),
      maxTokens: text('gen_ai.request.max_tokens'),
      finishReason: 'gen_ai.response.finish_reasons' in a ? text('gen_ai.response.finish_reasons') : text('gen_ai.finishReason'),
      system: 'gen_ai.system' in a ? text('gen_ai.system') : text('ai.model.provider'),
      maxRetries: text('ai.settings.maxRetries'),
      mode: text('ai.settings.mode'),
      temperature: text('gen_ai.request.temperature'),
      service_tier: typeof tier === 'string' ? tier : text('gen_ai.request.service_tier'),
      ...explicit,
    };
  }

  if (explicit) return explicit;
  for (const key of ['llm.invocation_parameters', 'model_config']) {
    if (!a[key]) continue;
    try {
      return sanitize(JSON.parse(a[key] as string));
    } catch {
      // Unparsable: the next source applies.
    }
  }
  const out: Record<string, unknown> = {};
  for (const prefix of ['gen_ai.request.', 'llm.invocation_parameters.']) {
    for (const key of Object.keys(a)) {
      if (!key.startsWith(prefix)) continue;
      const name = key.replace(prefix, '');
      if (name !== 'model') out[name] = a[key];
    }
  }
  return sanitize(out);
}

export function completionStartTimeOf(a: Attributes, startTimeISO: string): string | null {
  const value = a['langfuse.observation.completion_start_time'];
  // Absent on most spans: looked at only when there (a parse that throws costs more than the span).
  if (value !== undefined) {
    try {
      if (isValidDateString(value)) return value as string;
      // Older SDKs send the time JSON-encoded twice.
      const parsed = JSON.parse(value as string);
      if (isValidDateString(parsed)) return parsed;
    } catch {
      // Unreadable: the AI SDK's time to first chunk may say.
    }
  }
  try {
    const ms = a['ai.response.msToFirstChunk'] ?? a['ai.stream.msToFirstChunk'];
    if (ms && startTimeISO) return new Date(new Date(startTimeISO).getTime() + Math.ceil(Number(ms))).toISOString();
  } catch {
    // An invalid time: none.
  }
  return null;
}

/** The `ai.telemetry.metadata.langfusePrompt` of the Vercel AI SDK integration. */
export function aiSdkPrompt(a: Attributes): { name?: unknown; version?: unknown } | undefined {
  const raw = a['ai.telemetry.metadata.langfusePrompt'];
  if (!raw) return undefined;
  try {
    const parsed = JSON.parse(raw as string);
    return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
  } catch {
    return undefined;
  }
}

const LEVEL_ALIASES: Record<string, ObservationLevel> = {
  DEBUG: 'DEBUG',
  TRACE: 'DEBUG',
  VERBOSE: 'DEBUG',
  DEFAULT: 'DEFAULT',
  INFO: 'DEFAULT',
  LOG: 'DEFAULT',
  NOTICE: 'DEFAULT',
  OK: 'DEFAULT',
  SUCCESS: 'DEFAULT',
  WARNING: 'WARNING',
  WARN: 'WARNING',
  ERROR: 'ERROR',
  FATAL: 'ERROR',
  CRITICAL: 'ERROR',
};

const LIVEKIT_DEBUG_SPANS = new Set([
  'user_speaking',
  'eou_detection',
  'llm_request_run',
  'tts_node',
  'tts_request',
  'tts_request_run',
  'tts_stream_adapter',
  'agent_speaking',
  'drain_agent_activity',
  'on_exit',
  'on_enter',
  'llm_fallback_adapter',
  'tts_fallback_adapter',
  'start_agent_activity',
]);

/** `langfuse.observation.level` (foreign level names mapped), else ERROR for an error status. */
export function levelOf(a: Attributes, statusCode: unknown, scopeName: string | undefined, name: unknown): ObservationLevel {
  const value = a['langfuse.observation.level'];
  if (typeof value === 'string') {
    const mapped = LEVEL_ALIASES[value.trim().toUpperCase()];
    if (mapped) return mapped;
  }
  if (statusCode === 2) return 'ERROR';
  if (scopeName === 'livekit-agents' && LIVEKIT_DEBUG_SPANS.has(name as string)) return 'DEBUG';
  return 'DEFAULT';
}

