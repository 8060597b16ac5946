// One observation from its events, as the Langfuse worker builds it
// (IngestionService.processObservationEventList): the stored record, then one partial record
// per event in time order, merged; the prompt linked by name and version; usage and cost
// inferred on the merged result. Batch events are merged with every earlier event of the id
// (kept in its event log); an OpenTelemetry span with the stored record alone.
import type { ObservationLevel, ObservationRecord, ObservationType } from '../records.js';
import { inferUsageAndCost } from './infer.js';
import { byTime, freshItems, lastTruthy, loggedItems, type MergeItem, toLogged } from './event-log.js';
import { metadataRecord, metadataStrings } from '../../core/metadata.js';
import { moveToolDefinitions } from '../../core/tools.js';
import { eventMetadata, mergeRecords, type Partial, rowMetadata, storedMetadata } from './merge.js';
import { DEFAULT_ENVIRONMENT, type LegacyUsageBody, type ObservationEvent } from './schemas.js';
import type { EventLog, IngestLookups, IngestOptions, PromptRef, Stored } from './types.js';

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
 * re-merged with all earlier ones (the worker lists every event file of the id) and tier
 * conditions read the last event that carried usage; an OpenTelemetry span is merged with the
 * stored row alone (its job names its one file) and tier conditions read the span.
 */
export type EventSource = 'batch' | 'otel';

export interface ObservationContext {
  projectId: string;
  lookups: IngestLookups;
  options: IngestOptions;
  newId: () => string;
  source: EventSource;
  /** options.now as the records keep it, made once for the request. */
  now: string;
}

type Body = Record<string, unknown>;

// Most clients send times already in the stored form (UTC, milliseconds, "Z"): kept as they are.
const STORED_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const iso = (value: string): string => (STORED_TIME.test(value) ? value : new Date(value).toISOString());

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
    updatedAt: ctx.now,
  };
}

function storedPartial(record: ObservationRecord, source: EventSource): Partial {
  return { ...record, metadata: source === 'otel' ? rowMetadata(record.metadata) : eventMetadata(record.metadata) };
}

/** The prompt of the last event (in arrival order) that names one with a numeric version, if the project has it. */
function linkedPrompt(items: readonly MergeItem<ObservationEvent>[], lookups: IngestLookups): PromptRef | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const body = items[i]!.event.body as Body;
    if (typeof body['promptName'] === 'string' && typeof body['promptVersion'] === 'number') {
      return lookups.prompt(body['promptName'], body['promptVersion']);
    }
  }
  return undefined;
}

/**
 * Builds the record for one observation id from this request's events for it (in batch order)
 * and what is stored. Batch events are merged with the stored record and every earlier event of
 * the id, all in time order; an OpenTelemetry span with the stored record alone. The stored
 * record is the base only when its type matches the first event's (the server looks it up by id
 * and type).
 */
export function buildObservation(id: string, events: readonly ObservationEvent[], stored: Stored<ObservationRecord> | undefined, ctx: ObservationContext): Stored<ObservationRecord> {
  const batch = ctx.source === 'batch';
  const arrived = [...(batch ? loggedItems<ObservationEvent>(stored?.log, id) : []), ...freshItems(events)];
  const record = stored?.record;
  const base = record && record.type === observationType(arrived[0]!.event) ? record : undefined;
  const sorted = byTime(arrived);
  const prompt = linkedPrompt(arrived, ctx.lookups);
  const partials = sorted.map((item) => partialOf(item.event, id, prompt, ctx));
  const merged = mergeRecords(base ? [storedPartial(base, ctx.source), ...partials] : partials, IMMUTABLE);

  const startTime = merged['startTime'] as string;
  let endTime = (merged['endTime'] as string | null | undefined) ?? null;
  if (endTime !== null && endTime < startTime) endTime = startTime;
  const level = ((merged['level'] as ObservationLevel | null | undefined) ?? 'DEFAULT') as ObservationLevel;
  const output = lastTruthy(sorted, 'output', record?.output, base?.output);
  // The server stores metadata as strings and moves tool definitions from it into the input
  // before it tokenizes. A kept event's input is the one the stored record was made from.
  const rawInput = lastTruthy(sorted, 'input', stored?.log && 'rawInput' in stored.log ? stored.log.rawInput : record?.input, base?.input);
  const moved = moveToolDefinitions(rawInput, metadataStrings(merged['metadata']));
  const input = moved.input;

  let tierAttributes: { modelParameters?: unknown; metadata?: unknown } | undefined;
  const pricingIndex = partials.findLastIndex((p) => Object.keys(p['providedUsageDetails'] as object).length > 0);
  const pricingEvent = batch ? (pricingIndex >= 0 ? sorted[pricingIndex]!.event : undefined) : sorted[sorted.length - 1]!.event;
  if (pricingEvent) {
    const body = pricingEvent.body as Body;
    tierAttributes = { modelParameters: body['modelParameters'], metadata: body['metadata'] };
  } else if (base && batch && !stored?.log && Object.keys(base.providedUsageDetails).length > 0) {
    // A record stored before events were kept: its own fields stand in for its earlier events.
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

  const now = ctx.now;
  const str = (key: string): string | null => (merged[key] as string | null | undefined) ?? null;
  const observation: ObservationRecord = {
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
    createdAt: record?.createdAt ?? now,
    updatedAt: now,
  };
  return { record: observation, log: batch ? batchLog(stored?.log, events, rawInput, input) : otelLog(stored?.log, events) };
}

/** The log after a batch request: the kept events, this request's, and the raw input when it differs from the stored one. */
function batchLog(previous: EventLog | null | undefined, events: readonly ObservationEvent[], rawInput: unknown, input: unknown): EventLog {
  const log: EventLog = { events: [...(previous?.events ?? []), ...events.map(toLogged)] };
  if (rawInput !== input) log.rawInput = rawInput;
  return log;
}

/**
 * An OpenTelemetry span is not kept (the service merges spans with the stored record only); when
 * it brings an input, that input is what the kept events' inputs now stand for.
 */
function otelLog(previous: EventLog | null | undefined, events: readonly ObservationEvent[]): EventLog | null {
  if (!previous) return null;
  if (!events.some((event) => (event.body as Body)['input'])) return previous;
  const { rawInput: _replaced, ...rest } = previous;
  return rest;
}
