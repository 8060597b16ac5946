// OTLP spans as ingestion events (OtelIngestionProcessor.processToIngestionEvents): one
// observation event per span, typed by its attributes, and a trace-create event for a root span
// (full), a span that sets trace attributes (an update), or the first span of a trace not seen
// before (shallow: id, time and environment only). Shallow ones give way to a full one of the
// same trace in the same export.
import { observationTypeOf } from './observation-type.js';
import { filteredAttributes, inputAndOutput } from './input-output.js';
import {
  aiSdkPrompt,
  completionStartTimeOf,
  environmentOf,
  levelOf,
  metadataOf,
  modelNameOf,
  modelParametersOf,
  publicOf,
  sessionIdOf,
  spanName,
  tagsOf,
  userIdOf,
} from './fields.js';
import { moveToolDefinitions } from '../../../core/tools.js';
import { costDetailsOf, usageDetailsOf } from './usage.js';
import { type Attributes, attributesOf, hasMeaningfulValue, idField, spanTimes } from './values.js';

/** An event before schema validation: the same envelope as a batch event. */
export interface RawEvent {
  id: string;
  type: string;
  timestamp: string;
  body: Record<string, unknown>;
}

export interface SpanConversion {
  /** Trace ids this server already holds: their spans need no shallow trace. */
  traceSeen(id: string): boolean;
  now: Date;
  newId(): string;
}

const TRACE_UPDATE_KEYS = [
  'langfuse.trace.name',
  'langfuse.trace.input',
  'langfuse.trace.output',
  'langfuse.trace.metadata',
  'user.id',
  'session.id',
  'langfuse.trace.public',
  'langfuse.trace.tags',
  'langfuse.user.id',
  'langfuse.session.id',
  'langfuse.observation.metadata.langfuse_user_id',
  'langfuse.observation.metadata.langfuse_session_id',
  'langfuse.observation.metadata.langfuse_tags',
  'langfuse.trace.metadata.langfuse_session_id',
  'langfuse.trace.metadata.langfuse_user_id',
  'langfuse.trace.metadata.langfuse_tags',
  'ai.telemetry.metadata.sessionId',
  'ai.telemetry.metadata.userId',
  'ai.telemetry.metadata.tags',
  'tag.tags',
];

function setsTraceAttributes(a: Attributes): boolean {
  return TRACE_UPDATE_KEYS.some((key) => Boolean(a[key])) || Object.keys(a).some((key) => key.startsWith('langfuse.trace.metadata'));
}

/** The attributes of a Vercel AI SDK agent span, whose usage repeats its model calls'. */
function isAiSdkAgentSpan(a: Attributes): boolean {
  const op = a['gen_ai.operation.name'];
  return typeof op === 'string' && (op === 'invoke_agent' || op === 'agent_step');
}

function isShallowTrace(body: Record<string, unknown>): boolean {
  for (const field of ['name', 'metadata', 'userId', 'sessionId', 'public', 'tags', 'version', 'release', 'input', 'output']) {
    if (hasMeaningfulValue(body[field])) return false;
  }
  return hasMeaningfulValue(body['id']) && hasMeaningfulValue(body['timestamp']) && hasMeaningfulValue(body['environment']);
}

/** Drops shallow trace events of a trace that has a full one in the same export. */
function dropRedundantShallowTraces(events: RawEvent[]): RawEvent[] {
  const full = new Set<string>();
  for (const e of events) if (e.type === 'trace-create' && !isShallowTrace(e.body)) full.add(e.body['id'] as string);
  if (full.size === 0) return events;
  return events.filter((e) => !(e.type === 'trace-create' && full.has(e.body['id'] as string) && isShallowTrace(e.body)));
}

interface Scope {
  name?: string;
  version?: string;
  attributes?: unknown;
  [key: string]: unknown;
}

interface SpanContext {
  span: any;
  scope: Scope | undefined;
  scopeName: string;
  scopeAttributes: Attributes;
  resource: Attributes;
  resourceTraceMetadata: Record<string, unknown>;
  isLangfuseSdk: boolean;
}

function scopeObject(scope: Scope | undefined, scopeAttributes: Attributes): Record<string, unknown> {
  return { ...(scope ?? {}), attributes: scopeAttributes };
}

function traceEvent(ctx: SpanContext, a: Attributes, traceId: string, startTimeISO: string, isRoot: boolean, updates: boolean, spanMetadata: Record<string, unknown>, conv: SpanConversion): RawEvent {
  const environment = environmentOf(a, ctx.resource);
  let body: Record<string, unknown> = { id: traceId, timestamp: startTimeISO, environment };
  const common = () => ({
    version: (a['langfuse.version'] as string | undefined) ?? ctx.resource['service.version'] ?? null,
    release: (a['langfuse.release'] as string | undefined) ?? ctx.resource['langfuse.release'] ?? null,
    userId: userIdOf(a),
    sessionId: sessionIdOf(a),
    public: publicOf(a),
    tags: tagsOf(a),
    environment,
  });
  if (isRoot) {
    const io = inputAndOutput(ctx.span?.events ?? [], a, ctx.scopeName, 'trace');
    body = {
      ...body,
      name: (a['langfuse.trace.name'] as string | undefined) ?? spanName(ctx.span.name, a),
      metadata: {
        ...ctx.resourceTraceMetadata,
        ...metadataOf(a, 'trace'),
        ...spanMetadata,
        ...(ctx.isLangfuseSdk ? {} : { attributes: filteredAttributes(a) }),
        resourceAttributes: ctx.resource,
        scope: scopeObject(ctx.scope, ctx.scopeAttributes),
      },
      ...common(),
      input: io.input,
      output: io.output,
    };
  } else if (updates) {
    body = {
      ...body,
      name: a['langfuse.trace.name'],
      metadata: {
        ...ctx.resourceTraceMetadata,
        ...metadataOf(a, 'trace'),
        resourceAttributes: ctx.resource,
        scope: scopeObject(ctx.scope, ctx.scopeAttributes),
      },
      ...common(),
      input: a['langfuse.trace.input'],
      output: a['langfuse.trace.output'],
    };
  }
  return { id: conv.newId(), type: 'trace-create', timestamp: new Date(startTimeISO).toISOString(), body };
}

function observationEvent(ctx: SpanContext, a: Attributes, traceId: string, parentId: string | null, startTimeISO: string, endTimeISO: string, spanMetadata: Record<string, unknown>, conv: SpanConversion): RawEvent {
  const span = ctx.span;
  const io = inputAndOutput(span?.events ?? [], a, ctx.scopeName);
  const agent = isAiSdkAgentSpan(a);
  const type = observationTypeOf(a, ctx.resource, ctx.scope, span.name);
  const linksPrompt = type === 'GENERATION';
  const prompt = linksPrompt ? aiSdkPrompt(a) : undefined;
  const withTools = moveToolDefinitions(io.input, {
    ...ctx.resourceTraceMetadata,
    ...spanMetadata,
    ...(ctx.isLangfuseSdk ? {} : { attributes: filteredAttributes(a) }),
    resourceAttributes: ctx.resource,
    scope: scopeObject(ctx.scope, ctx.scopeAttributes),
  });
  const body: Record<string, unknown> = {
    id: idField(span.spanId),
    traceId,
    parentObservationId: parentId,
    name: spanName(span.name, a),
    startTime: startTimeISO,
    endTime: endTimeISO,
    environment: environmentOf(a, ctx.resource),
    completionStartTime: completionStartTimeOf(a, startTimeISO),
    metadata: withTools.metadata,
    level: levelOf(a, span.status?.code, ctx.scope?.name, span.name),
    statusMessage: a['langfuse.observation.status_message'] ?? span.status?.message ?? null,
    version: a['langfuse.version'] ?? ctx.resource['service.version'] ?? null,
    modelParameters: modelParametersOf(a, ctx.scopeName),
    model: agent ? undefined : modelNameOf(a),
    promptName: linksPrompt ? (a['langfuse.observation.prompt.name'] ?? a['langfuse.prompt.name'] ?? prompt?.name ?? null) : null,
    promptVersion: linksPrompt ? (a['langfuse.observation.prompt.version'] ?? a['langfuse.prompt.version'] ?? prompt?.version ?? null) : null,
    usageDetails: agent ? {} : usageDetailsOf(a, ctx.scopeName),
    costDetails: agent ? {} : costDetailsOf(a),
    input: withTools.input,
    output: io.output,
  };
  return { id: conv.newId(), type: `${type.toLowerCase()}-create`, timestamp: conv.now.toISOString(), body };
}

/**
 * Events for an export's resourceSpans (already checked by `validateSpans`). Trace ids seen
 * earlier in the same export count as seen.
 */
export function spansToEvents(resourceSpans: unknown, conv: SpanConversion): RawEvent[] {
  const steps = spanEvents(resourceSpans, conv);
  const events: RawEvent[] = [];
  for (let step = steps.next(); !step.done; step = steps.next()) events.push(...step.value);
  return dropRedundantShallowTraces(events);
}

/**
 * Each span's events in turn (its trace event, if any, then its observation event), so that a
 * large export can be converted a few spans at a time; `finishEvents` then takes them all.
 */
export function* spanEvents(resourceSpans: unknown, conv: SpanConversion): Generator<RawEvent[], void, undefined> {
  if (!Array.isArray(resourceSpans)) return;
  const seen = new Set<string>();
  for (const resourceSpan of resourceSpans as any[]) {
    if (!resourceSpan) continue;
    const resource = attributesOf(resourceSpan.resource?.attributes);
    const resourceTraceMetadata = metadataOf(resource, 'trace');
    for (const scopeSpan of (resourceSpan.scopeSpans ?? []) as any[]) {
      const scope = scopeSpan?.scope as Scope | undefined;
      const scopeName = (scope?.name as string | undefined) ?? '';
      const scopeAttributes = attributesOf(scope?.attributes);
      const isLangfuseSdk = typeof scope?.name === 'string' && scope.name.startsWith('langfuse-sdk');
      for (const span of (scopeSpan?.spans ?? []) as any[]) {
        const ctx: SpanContext = { span, scope, scopeName, scopeAttributes, resource, resourceTraceMetadata, isLangfuseSdk };
        const a = attributesOf(span.attributes);
        const traceId = idField(span.traceId);
        const parentId = span?.parentSpanId ? idField(span.parentSpanId) : null;
        const spanMetadata = metadataOf(a, 'observation');
        const { startTimeISO, endTimeISO } = spanTimes(span.startTimeUnixNano, span.endTimeUnixNano, conv.now);
        const isRoot = !parentId || String(a['langfuse.internal.as_root']) === 'true';
        const updates = setsTraceAttributes(a);
        const events: RawEvent[] = [];
        if (isRoot || updates || !(seen.has(traceId) || conv.traceSeen(traceId))) {
          events.push(traceEvent(ctx, a, traceId, startTimeISO, isRoot, updates, spanMetadata, conv));
          seen.add(traceId);
        }
        events.push(observationEvent(ctx, a, traceId, parentId, startTimeISO, endTimeISO, spanMetadata, conv));
        yield events;
      }
    }
  }
}

/** An export's events once every span is converted: the shallow trace events a full one makes redundant left out. */
export const finishEvents = (events: RawEvent[]): RawEvent[] => dropRedundantShallowTraces(events);
