// One observation from its events, as the Langfuse worker builds it
// (IngestionService.processObservationEventList): the stored record, then one partial record
// per event in time order, merged; the prompt linked by name and version; usage and cost
// inferred on the merged result.
import type { ObservationLevel, ObservationRecord, ObservationType } from '../records.js';
import { inferUsageAndCost } from './infer.js';
import { eventMetadata, mergeRecords, metadataRecord, type Partial, rowMetadata, storedMetadata } from './merge.js';
import { DEFAULT_ENVIRONMENT, type LegacyUsageBody, type ObservationEvent } from './schemas.js';
import { byTime } from './order.js';
import { moveToolDefinitions } from './tools.js';
import type { IngestLookups, IngestOptions, PromptRef } from './types.js';

const IMMUTABLE = new Set(['id', 'projectId', 'traceId', 'startTime', 'createdAt', 'environment']);

const TYPE_OF_EVENT: Record<string, ObservationType> = {
  'event-create': 'EVENT',
  'span-create': 'SPAN',
  'span-update': 'SPAN',
  'generation-create': 'GENERATION',
  'generation-update': 'GENERATION',
  'agent-create': 'AGENT',
  'tool-create': 'TOOL',
  'chain-create': 'CHAIN',
  'retriever-create': 'RETRIEVER',
  'evaluator-create': 'EVALUATOR',
  'embedding-create': 'EMBEDDING',
  'guardrail-create': 'GUARDRAIL',
};

export function observationType(event: ObservationEvent): ObservationType {
  if (event.type === 'observation-create' || event.type === 'observation-update') return event.body.type;
  return TYPE_OF_EVENT[event.type]!;
}

/**
 * Where the events come from. The server treats them differently: batch events of an id are
 * re-merged with all earlier ones and tier conditions read the last event that carried usage;
 * an OpenTelemetry span is merged with the stored row alone and tier conditions read the span.
 */
export type EventSource = 'batch' | 'otel';

export interface ObservationContext {
  projectId: string;
  lookups: IngestLookups;
  options: IngestOptions;
  newId: () => string;
  source: EventSource;
}

type Body = Record<string, unknown>;

const iso = (value: string): string => new Date(value).toISOString();

/** provided_usage_details and provided_cost_details of one event (mapObservationEventsToRecords). */
function providedOf(body: Body): { usage: Record<string, number>; cost: Record<string, number> } {
  const legacy = 'usage' in body ? (body['usage'] as LegacyUsageBody | null | undefined) : undefined;
  const details = 'usageDetails' in body ? ((body['usageDetails'] as Record<string, number | null> | null | undefined) ?? {}) : {};
  const input = legacy?.input ?? undefined;
  const output = legacy?.output ?? undefined;
  const total = legacy?.total || (Object.keys(details).length === 0 ? (input && output ? input + output : (input ?? output)) : undefined);
  const usage: Record<string, number> = {};
  if (input != null) usage['input'] = input;
  if (output != null) usage['output'] = output;
  if (total != null) usage['total'] = total;
  for (const [key, value] of Object.entries(details)) if (value != null) usage[key] = value;

  const cost: Record<string, number> = {};
  if (legacy?.inputCost != null) cost['input'] = legacy.inputCost;
  if (legacy?.outputCost != null) cost['output'] = legacy.outputCost;
  if (legacy?.totalCost != null) cost['total'] = legacy.totalCost;
  const costDetails = 'costDetails' in body ? ((body['costDetails'] as Record<string, number | null> | null | undefined) ?? {}) : {};
  for (const [key, value] of Object.entries(costDetails)) if (value != null) cost[key] = value;
  return { usage, cost };
}

function partialOf(event: ObservationEvent, id: string, prompt: PromptRef | undefined, ctx: ObservationContext): Partial {
  const body = event.body as Body;
  const provided = providedOf(body);
  const modelParameters = body['modelParameters'];
  return {
    id,
    projectId: ctx.projectId,
    traceId: (body['traceId'] as string | null | undefined) ?? ctx.newId(),
    type: observationType(event),
    name: body['name'],
    environment: 'environment' in body ? body['environment'] : DEFAULT_ENVIRONMENT,
    startTime: iso((body['startTime'] as string | null | undefined) ?? event.timestamp),
    endTime: body['endTime'] ? iso(body['endTime'] as string) : undefined,
    completionStartTime: body['completionStartTime'] ? iso(body['completionStartTime'] as string) : undefined,
    metadata: body['metadata'] ? metadataRecord(body['metadata']) : {},
    providedModelName: 'model' in body ? body['model'] : undefined,
    modelParameters: modelParameters ? modelParameters : undefined,
    providedUsageDetails: provided.usage,
    providedCostDetails: provided.cost,
    level: body['level'],
    statusMessage: body['statusMessage'] ?? undefined,
    parentObservationId: body['parentObservationId'] ?? undefined,
    version: body['version'] ?? undefined,
    promptId: prompt?.id,
    promptName: prompt?.name,
    promptVersion: prompt?.version,
    updatedAt: ctx.options.now.toISOString(),
  };
}

/** The server's string map of merged metadata: non-string values JSON-encoded. */
function valuesAsStrings(metadata: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof metadata !== 'object' || metadata === null) return out;
  for (const [key, value] of Object.entries(metadata)) if (value !== undefined) out[key] = typeof value === 'string' ? value : JSON.stringify(value);
  return out;
}

function storedPartial(record: ObservationRecord, source: EventSource): Partial {
  return { ...record, metadata: source === 'otel' ? rowMetadata(record.metadata) : eventMetadata(record.metadata) };
}

/** The prompt of the last event that names one with a numeric version, if the project has it. */
function linkedPrompt(events: readonly ObservationEvent[], lookups: IngestLookups): PromptRef | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const body = events[i]!.body as Body;
    if (typeof body['promptName'] === 'string' && typeof body['promptVersion'] === 'number') {
      return lookups.prompt(body['promptName'], body['promptVersion']);
    }
  }
  return undefined;
}

/** The last truthy value of a field over the events (newest first), else the stored one. */
function lastTruthy(events: readonly ObservationEvent[], field: 'input' | 'output', stored: unknown): unknown {
  for (let i = events.length - 1; i >= 0; i--) {
    const value = (events[i]!.body as Body)[field];
    if (value) return value;
  }
  return stored ?? null;
}

/**
 * Builds the record for one observation id from this request's events for it (in batch order)
 * and the stored record. The stored record is the base only when its type matches the first
 * event's (the server looks it up by id and type). See `EventSource` for how the two paths differ.
 */
export function buildObservation(id: string, events: readonly ObservationEvent[], stored: ObservationRecord | undefined, ctx: ObservationContext): ObservationRecord {
  const base = stored && stored.type === observationType(events[0]!) ? stored : undefined;
  const sorted = byTime(events);
  const prompt = linkedPrompt(events, ctx.lookups);
  const partials = sorted.map((event) => partialOf(event, id, prompt, ctx));
  const merged = mergeRecords(base ? [storedPartial(base, ctx.source), ...partials] : partials, IMMUTABLE);

  const startTime = merged['startTime'] as string;
  let endTime = (merged['endTime'] as string | null | undefined) ?? null;
  if (endTime !== null && endTime < startTime) endTime = startTime;
  const level = ((merged['level'] as ObservationLevel | null | undefined) ?? 'DEFAULT') as ObservationLevel;
  const output = lastTruthy(sorted, 'output', base?.output);
  // The server stores metadata as strings and moves tool definitions from it into the input
  // before it tokenizes.
  const moved = moveToolDefinitions(lastTruthy(sorted, 'input', base?.input), valuesAsStrings(merged['metadata']));
  const input = moved.input;

  let tierAttributes: { modelParameters?: unknown; metadata?: unknown } | undefined;
  const pricingIndex = partials.findLastIndex((p) => Object.keys(p['providedUsageDetails'] as object).length > 0);
  const pricingEvent = ctx.source === 'otel' ? sorted[sorted.length - 1] : pricingIndex >= 0 ? sorted[pricingIndex] : undefined;
  if (pricingEvent) {
    const body = pricingEvent.body as Body;
    tierAttributes = { modelParameters: body['modelParameters'], metadata: body['metadata'] };
  } else if (base && ctx.source === 'batch' && Object.keys(base.providedUsageDetails).length > 0) {
    // The server re-reads every earlier event of the observation; the stored record stands in.
    tierAttributes = { modelParameters: base.modelParameters, metadata: base.metadata };
  }

  const inference = inferUsageAndCost(
    {
      model: merged['providedModelName'] as string | null | undefined,
      input,
      output,
      level,
      providedUsage: (merged['providedUsageDetails'] as Record<string, unknown> | undefined) ?? {},
      providedCost: (merged['providedCostDetails'] as Record<string, unknown> | undefined) ?? {},
      tierAttributes,
    },
    ctx.lookups.definitions(),
    ctx.options.count,
  );

  const now = ctx.options.now.toISOString();
  const str = (key: string): string | null => (merged[key] as string | null | undefined) ?? null;
  return {
    id,
    projectId: ctx.projectId,
    traceId: str('traceId'),
    parentObservationId: str('parentObservationId'),
    type: merged['type'] as ObservationType,
    name: str('name'),
    environment: (merged['environment'] as string | undefined) ?? DEFAULT_ENVIRONMENT,
    startTime,
    endTime,
    completionStartTime: str('completionStartTime'),
    level,
    statusMessage: str('statusMessage'),
    version: str('version'),
    input,
    output,
    metadata: storedMetadata(moved.metadata),
    providedModelName: str('providedModelName'),
    internalModelId: inference.internalModelId,
    modelParameters: (merged['modelParameters'] as Record<string, unknown> | null | undefined) ?? null,
    providedUsageDetails: inference.providedUsageDetails,
    providedCostDetails: inference.providedCostDetails,
    usageDetails: inference.usageDetails,
    costDetails: inference.costDetails,
    totalCost: inference.totalCost,
    usagePricingTierId: inference.usagePricingTierId,
    usagePricingTierName: inference.usagePricingTierName,
    promptId: str('promptId'),
    promptName: str('promptName'),
    promptVersion: (merged['promptVersion'] as number | null | undefined) ?? null,
    createdAt: base?.createdAt ?? now,
    updatedAt: now,
  };
}
