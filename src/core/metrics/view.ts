// The metrics API's `observations` view: the dimensions a query groups and filters by, and the
// measures it aggregates, each read from one observation and its trace's fields, as the
// service's data model declares them for the v2 API, in its order (packages/shared/src/
// features/query/dataModel.ts, `eventsObservationsView`). Not here: what this server does not
// record (tool definitions and calls, scores per observation, the root flag of app roots).
import type { Dimension, MetricsView } from './declaration.js';

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

const string = (read: (row: MetricsRow) => unknown, highCardinality = false): Dimension<MetricsRow> => (highCardinality ? { read, type: 'string', highCardinality } : { read, type: 'string' });
const nothing = () => null;

const { trunc } = Math;
const usage = (r: MetricsRow) => r.observation.usageDetails;
const totalTokens = (r: MetricsRow) => Number(usage(r)?.total ?? 0);

export const OBSERVATIONS_VIEW: MetricsView<MetricsRow> = {
  name: 'observations',
  dimensions: {
    id: string((r) => r.observation.id, true),
    traceId: string((r) => r.observation.traceId, true),
    environment: string((r) => r.observation.environment || null),
    parentObservationId: string((r) => r.observation.parentObservationId, true),
    type: string((r) => r.observation.type),
    name: string((r) => r.observation.name),
    level: string((r) => r.observation.level),
    version: string((r) => r.observation.version),
    userId: string((r) => r.userId, true),
    sessionId: string((r) => r.sessionId, true),
    tags: { read: (r) => r.tags, type: 'string[]' },
    // The service's events carry the trace's release; `release` and `traceRelease` both read it.
    release: string((r) => r.release),
    traceName: string((r) => r.traceName),
    traceRelease: string((r) => r.release),
    traceVersion: string((r) => r.traceVersion),
    providedModelName: string((r) => r.observation.providedModelName),
    promptName: string((r) => r.observation.promptName),
    promptVersion: string((r) => r.observation.promptVersion),
    startTimeMonth: string((r) => r.observation.startTime.slice(0, 7)),
    // This server records no experiments: every observation has none.
    experimentName: string(nothing, true),
    experimentDatasetId: string(nothing, true),
    experimentId: string(nothing, true),
  },
  // `nullable`: the columns the service reads through a Nullable type (end and completion start
  // times, toNullable(total_cost), a division by nullIf(…, 0)).
  measures: {
    count: { value: () => 1, type: 'integer' },
    traceId: { value: (r) => r.observation.traceId, type: 'string' },
    uniqueUserIds: { value: (r) => r.userId, type: 'string' },
    uniqueSessionIds: { value: (r) => r.sessionId, type: 'string' },
    latency: { value: (r) => millisBetween(r.observation.startTime, r.observation.endTime), type: 'integer', nullable: true },
    streamingLatency: { value: (r) => millisBetween(r.observation.completionStartTime, r.observation.endTime), type: 'integer', nullable: true },
    inputTokens: { value: (r) => sumOfKeys(usage(r), 'input'), type: 'integer' },
    outputTokens: { value: (r) => sumOfKeys(usage(r), 'output'), type: 'integer' },
    totalTokens: { value: totalTokens, type: 'integer' },
    // Tokens per whole second; null under a second.
    outputTokensPerSecond: {
      value: (r) => {
        const seconds = trunc((millisBetween(r.observation.completionStartTime, r.observation.endTime) ?? 0) / 1000);
        return seconds ? sumOfKeys(usage(r), 'output') / seconds : null;
      },
      type: 'decimal',
      nullable: true,
    },
    tokensPerSecond: {
      value: (r) => {
        const seconds = trunc((millisBetween(r.observation.startTime, r.observation.endTime) ?? 0) / 1000);
        return seconds ? totalTokens(r) / seconds : null;
      },
      type: 'decimal',
      nullable: true,
    },
    inputCost: { value: (r) => sumOfKeys(r.observation.costDetails, 'input'), type: 'decimal' },
    outputCost: { value: (r) => sumOfKeys(r.observation.costDetails, 'output'), type: 'decimal' },
    // cost_details['total'] of the events table: 0 where the map has no total, never NULL per
    // observation; only toNullable makes the column Nullable (an aggregate over nothing is null).
    totalCost: { value: (r) => r.observation.totalCost ?? 0, type: 'decimal', nullable: true },
    timeToFirstToken: { value: (r) => millisBetween(r.observation.startTime, r.observation.completionStartTime), type: 'integer', nullable: true },
  },
  timeDimension: 'start_time',
  time: (r) => r.observation.startTime,
  metadata: (r) => r.observation.metadata ?? {},
};
