// The metrics API's `observations` view: the dimensions a query groups and filters by, and the
// measures it aggregates, each read from one observation and its trace's fields, as the
// service's data model declares them (packages/shared/src/features/query/dataModel.ts,
// `observationsView`).

/** The fields of an observation the view reads. */
export interface MetricsObservation {
  id: string;
  traceId: string | null;
  parentObservationId: string | null;
  type: string;
  name: string | null;
  environment: string;
  level: string;
  version: string | null;
  /** ISO times. */
  startTime: string;
  endTime: string | null;
  completionStartTime: string | null;
  providedModelName: string | null;
  promptName: string | null;
  promptVersion: number | null;
  metadata: Record<string, unknown>;
  usageDetails: Record<string, number>;
  costDetails: Record<string, number>;
  totalCost: number | null;
}

/** One row of the view: an observation with the fields of its trace (null without a trace). */
export interface MetricsRow {
  observation: MetricsObservation;
  traceName: string | null;
  userId: string | null;
  sessionId: string | null;
  release: string | null;
  traceVersion: string | null;
  tags: readonly string[];
}

/**
 * Sum of the values whose key contains `part` in any case, as the service's measures
 * (`positionCaseInsensitive(key, 'input') > 0` over usage_details and cost_details) and its
 * inputTokens and inputCost filter columns count them. Its maps hold numbers only, so a value
 * that is not a finite number counts for nothing.
 */
export function sumOfKeys(details: Readonly<Record<string, number>> | null | undefined, part: string): number {
  let sum = 0;
  for (const [key, value] of Object.entries(details ?? {})) {
    if (key.toLowerCase().includes(part) && typeof value === 'number' && Number.isFinite(value)) sum += value;
  }
  return sum;
}

/** Milliseconds from one ISO time to another; null when either is missing. */
export function millisBetween(from: string | null, to: string | null): number | null {
  if (!from || !to) return null;
  const ms = Date.parse(to) - Date.parse(from);
  return Number.isFinite(ms) ? ms : null;
}

export const DIMENSIONS: Readonly<Record<string, (row: MetricsRow) => unknown>> = {
  id: (r) => r.observation.id,
  traceId: (r) => r.observation.traceId,
  traceName: (r) => r.traceName,
  environment: (r) => r.observation.environment || null,
  parentObservationId: (r) => r.observation.parentObservationId,
  type: (r) => r.observation.type,
  name: (r) => r.observation.name,
  level: (r) => r.observation.level,
  version: (r) => r.observation.version,
  userId: (r) => r.userId,
  sessionId: (r) => r.sessionId,
  traceRelease: (r) => r.release,
  traceVersion: (r) => r.traceVersion,
  tags: (r) => r.tags,
  providedModelName: (r) => r.observation.providedModelName,
  promptName: (r) => r.observation.promptName,
  promptVersion: (r) => r.observation.promptVersion,
  startTimeMonth: (r) => r.observation.startTime.slice(0, 7),
};

/** The dimensions' types (string unless listed), for the filter types each takes. */
export const DIMENSION_TYPES: Readonly<Record<string, 'string' | 'string[]'>> = { tags: 'string[]' };

/** The view's time dimension: the column a datetime filter names. */
export const TIME_DIMENSION = 'start_time';

export interface Measure {
  /** The observation's value; null counts for nothing in an aggregation. */
  value: (row: MetricsRow) => number | string | null;
  /** The service's column is a 64-bit integer (answered as a string). */
  integer: boolean;
}

const { trunc } = Math;
const usage = (r: MetricsRow) => r.observation.usageDetails;
const totalTokens = (r: MetricsRow) => Number(usage(r)?.total ?? 0);

export const MEASURES: Readonly<Record<string, Measure>> = {
  count: { value: () => 1, integer: true },
  traceId: { value: (r) => r.observation.traceId, integer: true },
  uniqueUserIds: { value: (r) => r.userId, integer: true },
  uniqueSessionIds: { value: (r) => r.sessionId, integer: true },
  latency: { value: (r) => millisBetween(r.observation.startTime, r.observation.endTime), integer: true },
  streamingLatency: { value: (r) => millisBetween(r.observation.completionStartTime, r.observation.endTime), integer: true },
  timeToFirstToken: { value: (r) => millisBetween(r.observation.startTime, r.observation.completionStartTime), integer: true },
  inputTokens: { value: (r) => sumOfKeys(usage(r), 'input'), integer: true },
  outputTokens: { value: (r) => sumOfKeys(usage(r), 'output'), integer: true },
  totalTokens: { value: totalTokens, integer: true },
  inputCost: { value: (r) => sumOfKeys(r.observation.costDetails, 'input'), integer: false },
  outputCost: { value: (r) => sumOfKeys(r.observation.costDetails, 'output'), integer: false },
  totalCost: { value: (r) => r.observation.totalCost, integer: false },
  // Tokens per whole second; null under a second.
  outputTokensPerSecond: {
    value: (r) => {
      const seconds = trunc((millisBetween(r.observation.completionStartTime, r.observation.endTime) ?? 0) / 1000);
      return seconds ? sumOfKeys(usage(r), 'output') / seconds : null;
    },
    integer: false,
  },
  tokensPerSecond: {
    value: (r) => {
      const seconds = trunc((millisBetween(r.observation.startTime, r.observation.endTime) ?? 0) / 1000);
      return seconds ? totalTokens(r) / seconds : null;
    },
    integer: false,
  },
};
