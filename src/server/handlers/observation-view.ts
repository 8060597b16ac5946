// Stored observations in the shapes the API returns them: the v1 object (`APIObservation`, with
// its legacy usage fields and the matched model's default-tier prices) and the v2 object, whose
// field groups are chosen by the caller and whose prices are decimal strings.
import { Decimal } from 'decimal.js';
import { cutMetadataValues } from '../../core/metadata.js';
import { builtInDefinitions } from '../../data/catalogue.js';
import type { ObservationRecord, TraceRecord } from '../records.js';
import type { Tx } from '../store/index.js';
import type { ObservationTexts } from '../store/observation-row.js';
import { modelResponse } from './models.js';

export interface Prices {
  input: number | null;
  output: number | null;
  total: number | null;
}

let builtInPrices: Map<string, Prices> | undefined;

/** The default-tier prices of the model an observation was matched to (project or built-in). */
export function pricesOf(tx: Tx, internalModelId: string | null, cache = new Map<string, Prices | undefined>()): Prices | undefined {
  if (!internalModelId) return undefined;
  if (cache.has(internalModelId)) return cache.get(internalModelId);
  const own = tx.models.get(internalModelId);
  let prices: Prices | undefined;
  if (own) {
    const model = modelResponse(own);
    prices = { input: model.inputPrice, output: model.outputPrice, total: model.totalPrice };
  } else {
    builtInPrices ??= new Map(builtInDefinitions().map((d) => [d.id, { input: d.inputPrice, output: d.outputPrice, total: d.totalPrice }]));
    prices = builtInPrices.get(internalModelId);
  }
  cache.set(internalModelId, prices);
  return prices;
}

/** `reduceUsageOrCostDetails`: sums of the keys containing input / output (null when none), and total. */
export function reduceDetails(details: Record<string, number> | null | undefined): { input: number | null; output: number | null; total: number } {
  let input: number | null = null;
  let output: number | null = null;
  for (const [key, value] of Object.entries(details ?? {})) {
    if (key.includes('input')) input = (input ?? 0) + Number(value);
    if (key.includes('output')) output = (output ?? 0) + Number(value);
  }
  return { input, output, total: Number(details?.total ?? 0) };
}

const seconds = (from: string | null, to: string | null): number | null => (from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : null);

/** The v1 observation object. `zeroPrices`: a missing price is 0 (the single-trace route), not null. */
export function observationV1(observation: ObservationRecord, prices: Prices | undefined, zeroPrices = false) {
  const usage = reduceDetails(observation.usageDetails);
  const cost = reduceDetails(observation.costDetails);
  const missing = zeroPrices ? 0 : null;
  const promptTokens = usage.input ?? 0;
  const completionTokens = usage.output ?? 0;
  return {
    id: observation.id,
    traceId: observation.traceId,
    projectId: observation.projectId,
    environment: observation.environment,
    type: observation.type,
    startTime: observation.startTime,
    endTime: observation.endTime,
    name: observation.name,
    metadata: observation.metadata,
    parentObservationId: observation.parentObservationId,
    level: observation.level,
    statusMessage: observation.statusMessage,
    version: observation.version,
    createdAt: observation.createdAt,
    updatedAt: observation.updatedAt,
    model: observation.providedModelName,
    modelParameters: observation.modelParameters,
    input: observation.input,
    output: observation.output,
    completionStartTime: observation.completionStartTime,
    promptId: observation.promptId,
    promptName: observation.promptName,
    promptVersion: observation.promptVersion,
    latency: seconds(observation.startTime, observation.endTime),
    timeToFirstToken: seconds(observation.startTime, observation.completionStartTime),
    usageDetails: observation.usageDetails,
    costDetails: observation.costDetails,
    usagePricingTierId: observation.usagePricingTierId,
    usagePricingTierName: observation.usagePricingTierName,
    calculatedInputCost: cost.input,
    calculatedOutputCost: cost.output,
    calculatedTotalCost: cost.total,
    unit: 'TOKENS',
    inputPrice: prices?.input ?? missing,
    outputPrice: prices?.output ?? missing,
    totalPrice: prices?.total ?? missing,
    promptTokens,
    completionTokens,
    totalTokens: usage.total,
    modelId: observation.internalModelId,
    usage: { unit: 'TOKENS', input: promptTokens, output: completionTokens, total: usage.total },
  };
}

export const OBSERVATION_FIELD_GROUPS = ['core', 'basic', 'time', 'io', 'metadata', 'model', 'usage', 'prompt', 'metrics', 'trace_context'] as const;
export type ObservationFieldGroup = (typeof OBSERVATION_FIELD_GROUPS)[number];

/** Input and output as the v2 list returns them: the raw text the service stores. */
const raw = (value: unknown): string | null => (value === null || value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value));

/** Stored JSON text as `raw` gives it: a string's JSON is read back; any other value's text is its raw text. */
const rawOfText = (text: string | null | undefined): string | null | undefined => (typeof text === 'string' && text.charCodeAt(0) === 0x22 ? (JSON.parse(text) as string) : text);

/**
 * Code points a metadata value keeps where the v2 list reads metadata as Langfuse reads it from
 * events_core (0041_create_events_core_mv: `arrayMap(v -> leftUTF8(v, 200), metadata_values)`).
 */
export const METADATA_VALUE_CUT = 200;

/** Stored metadata text parsed, its values cut to `cutAt` code points when given. */
function metadataOfText(text: string, cutAt: number | undefined): unknown {
  const metadata = JSON.parse(text) as Record<string, unknown>;
  // No value's stored text is longer than the whole map's.
  return cutAt === undefined || text.length <= cutAt ? metadata : cutMetadataValues(metadata, cutAt);
}

/**
 * A record read without its large parts (ObservationStore.pageRows) with them put back for
 * observationV2: input and output as their raw text, so that stored JSON text is never parsed
 * into objects only to be written again, and metadata parsed (each value cut to `cutMetadataAt`
 * code points when given).
 */
export function withStoredTexts(record: ObservationRecord, texts: ObservationTexts, cutMetadataAt?: number): ObservationRecord {
  const out = record as unknown as Record<string, unknown>;
  if (texts.input !== undefined) out['input'] = rawOfText(texts.input);
  if (texts.output !== undefined) out['output'] = rawOfText(texts.output);
  if (texts.metadata !== undefined) out['metadata'] = texts.metadata === null ? null : metadataOfText(texts.metadata, cutMetadataAt);
  return record;
}

const decimalString = (price: number | null | undefined): string | null => (price === null || price === undefined ? null : new Decimal(price).toString());

// A page's observations share a few models: each one's prices are written as decimals once.
const priceTexts = new WeakMap<Prices, { input: string | null; output: string | null; total: string | null }>();
const NO_PRICES = { input: null, output: null, total: null };

function priceText(prices: Prices | undefined): { input: string | null; output: string | null; total: string | null } {
  if (!prices) return NO_PRICES;
  let text = priceTexts.get(prices);
  if (!text) priceTexts.set(prices, (text = { input: decimalString(prices.input), output: decimalString(prices.output), total: decimalString(prices.total) }));
  return text;
}

/**
 * The trace name of a v2 observation, as the service reads it from its events
 * (packages/shared/src/eventsTable.ts eventsTableTraceNameSql, normalizeEventsTraceName): the
 * trace's name, or for a root observation its own name; an empty name counts as none, so null.
 */
function traceName(observation: ObservationRecord, trace: TraceRecord | undefined): string | null {
  return trace?.name || (observation.parentObservationId === null ? observation.name || null : null);
}

/** The v2 observation object with the requested field groups (core always). */
export function observationV2(observation: ObservationRecord, groups: readonly ObservationFieldGroup[], trace: TraceRecord | undefined, prices: Prices | undefined): Record<string, unknown> {
  const o = observation;
  // Members are set one by one, in the order the service writes them: a page's objects then
  // share one shape, which JSON.stringify writes fastest.
  const out: Record<string, unknown> = { id: o.id, traceId: o.traceId, startTime: o.startTime, endTime: o.endTime, projectId: o.projectId, parentObservationId: o.parentObservationId, type: o.type };
  const has = (group: ObservationFieldGroup) => groups.includes(group);
  if (has('basic')) {
    out.name = o.name;
    out.level = o.level;
    out.statusMessage = o.statusMessage;
    out.version = o.version;
    out.environment = o.environment;
    out.bookmarked = trace?.bookmarked ?? false;
    out.public = trace?.public ?? false;
    out.userId = trace?.userId ?? null;
    out.sessionId = trace?.sessionId ?? null;
    out.isRootObservation = o.parentObservationId === null;
  }
  if (has('time')) {
    out.completionStartTime = o.completionStartTime;
    out.createdAt = o.createdAt;
    out.updatedAt = o.updatedAt;
  }
  if (has('io')) {
    out.input = raw(o.input);
    out.output = raw(o.output);
  }
  if (has('metadata')) out.metadata = o.metadata;
  if (has('model')) {
    out.providedModelName = o.providedModelName;
    out.internalModelId = o.internalModelId;
    out.modelParameters = o.modelParameters;
  }
  if (has('usage')) {
    out.usageDetails = o.usageDetails;
    out.costDetails = o.costDetails;
    out.totalCost = o.totalCost;
    out.usagePricingTierName = o.usagePricingTierName;
  }
  if (has('prompt')) {
    out.promptId = o.promptId;
    out.promptName = o.promptName;
    out.promptVersion = o.promptVersion;
  }
  if (has('metrics')) {
    out.latency = seconds(o.startTime, o.endTime);
    out.timeToFirstToken = seconds(o.startTime, o.completionStartTime);
  }
  if (has('trace_context')) {
    out.traceName = traceName(o, trace);
    out.tags = trace?.tags ?? [];
    out.release = trace?.release ?? null;
  }
  // Enrichment fields are on every v2 object; they are filled only with the model group.
  const model = has('model');
  const price = model ? priceText(prices) : NO_PRICES;
  out.modelId = model ? o.internalModelId : null;
  out.inputPrice = price.input;
  out.outputPrice = price.output;
  out.totalPrice = price.total;
  return out;
}
