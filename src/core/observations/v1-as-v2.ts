// An observation of the v1 list (GET /api/public/observations, what a Langfuse deployment in the
// legacy write mode serves) in the shape of the v2 list, with the field groups asked for, so a
// listing or an export reads the same whichever route answered. The names, from
// web/src/features/public-api/types/observations.ts: v1's `model` is v2's providedModelName,
// `modelId` its internalModelId, `calculatedTotalCost` its totalCost; v2 gives input and output
// as the raw text stored, v1 parsed. What v1 leaves out (transformDbToApiObservation drops the
// trace's user, session, name, tags and release) is null, and `isRootObservation` is read from
// the parent.
import { FIELD_GROUPS, type FieldGroup } from './fields.js';

/** Input and output as the v2 list gives them: the stored text (v1 parses JSON). */
function rawText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A v1 price (a number) as v2's decimal string. */
function priceText(value: unknown): string | null {
  return typeof value === 'number' || typeof value === 'string' ? String(value) : null;
}

const ENRICHMENT = new Set<string>(['modelId', 'inputPrice', 'outputPrice', 'totalPrice']);

const or = (value: unknown, fallback: unknown = null): unknown => (value === undefined ? fallback : value);

export function v1AsV2(o: Record<string, unknown>, groups: readonly FieldGroup[]): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: o.id,
    traceId: or(o.traceId),
    startTime: o.startTime,
    endTime: or(o.endTime),
    projectId: o.projectId,
    parentObservationId: or(o.parentObservationId),
    type: o.type,
    name: or(o.name),
    level: o.level,
    statusMessage: or(o.statusMessage),
    version: or(o.version),
    environment: or(o.environment, 'default'),
    bookmarked: null,
    public: null,
    userId: null,
    sessionId: null,
    isRootObservation: !o.parentObservationId,
    completionStartTime: or(o.completionStartTime),
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    input: rawText(o.input),
    output: rawText(o.output),
    metadata: or(o.metadata),
    providedModelName: or(o.model),
    internalModelId: or(o.modelId),
    modelParameters: or(o.modelParameters),
    usageDetails: or(o.usageDetails, {}),
    costDetails: or(o.costDetails, {}),
    // v1 answers 0 for an observation without costs (reduceUsageOrCostDetails), v2 null.
    totalCost: o.costDetails && typeof o.costDetails === 'object' && Object.keys(o.costDetails).length ? or(o.calculatedTotalCost) : null,
    usagePricingTierName: or(o.usagePricingTierName),
    promptId: or(o.promptId),
    promptName: or(o.promptName),
    promptVersion: or(o.promptVersion),
    latency: or(o.latency),
    timeToFirstToken: or(o.timeToFirstToken),
    traceName: null,
    tags: [],
    release: null,
  };
  const out: Record<string, unknown> = {};
  for (const group of groups) {
    for (const field of FIELD_GROUPS[group]) if (!ENRICHMENT.has(field)) out[field] = all[field];
  }
  // The v2 list's enrichment fields are on every object, filled with the model group only.
  const model = groups.includes('model');
  out.modelId = model ? all.internalModelId : null;
  out.inputPrice = model ? priceText(o.inputPrice) : null;
  out.outputPrice = model ? priceText(o.outputPrice) : null;
  out.totalPrice = model ? priceText(o.totalPrice) : null;
  return out;
}

/** The fields v1 cannot give, for the note that says so. */
export const V1_MISSING_FIELDS = ['userId', 'sessionId', 'bookmarked', 'public', 'traceName', 'tags', 'release'] as const;
