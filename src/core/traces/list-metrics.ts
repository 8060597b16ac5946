// Per-trace cost, latency and observation count for traces listed through the v2 observations
// API (where the v3 trace list is gone): one Metrics API v2 query per 100 listed traces, grouped
// by traceId. The public v2 API has no traces view (packages/shared/src/features/query/types.ts,
// viewsV2), so the observations view is grouped (dataModel.ts, eventsObservationsView): traceId
// is a high-cardinality dimension there, which the service allows only in a top-N query with
// config.row_limit and an orderBy descending on a measure (validateQuery.ts); the filter on the
// listed ids bounds the answer to them. One request for a page of 100 answers a few numbers per
// trace, where reading the traces' observations would answer all of them.
import type { MetricsQuery } from '../spend/report.js';
import { lenientNumber } from '../numbers.js';

/** Trace ids per query: their JSON in the URL stays a few kilobytes, well under the limits of servers and proxies. */
export const TRACE_METRICS_CHUNK = 100;

/**
 * Observations are counted from an hour before the earliest trace in the list (Langfuse reads a
 * trace's observations from then on: TRACE_TO_OBSERVATIONS_INTERVAL in repositories/constants.ts)
 * to a minute after `now`.
 */
export function traceMetricsQuery(ids: readonly string[], earliest: Date, now: Date): MetricsQuery {
  const from = new Date(earliest.getTime() - 3_600_000);
  const to = new Date(Math.max(now.getTime(), earliest.getTime()) + 60_000);
  return {
    view: 'observations',
    dimensions: [{ field: 'traceId' }],
    metrics: [
      { measure: 'totalCost', aggregation: 'sum' },
      { measure: 'count', aggregation: 'count' },
      { measure: 'latency', aggregation: 'max' },
    ],
    filters: [{ column: 'traceId', operator: 'any of', value: [...ids], type: 'stringOptions' }],
    timeDimension: null,
    fromTimestamp: from.toISOString(),
    toTimestamp: to.toISOString(),
    orderBy: [{ field: 'sum_totalCost', direction: 'desc' }],
    config: { row_limit: ids.length },
  };
}

export interface TraceMetrics {
  /** USD; null when no observation of the trace has a cost. */
  totalCost: number | null;
  /** Observations counted, Langfuse's synthetic trace span included (see observationCount). */
  count: number;
  /** Seconds of the trace's longest observation; null when none has ended. */
  longest: number | null;
}

/** The answer's rows by trace id. */
export function readTraceMetrics(rows: readonly Record<string, unknown>[]): Map<string, TraceMetrics> {
  const out = new Map<string, TraceMetrics>();
  for (const row of rows) {
    if (typeof row.traceId !== 'string') continue;
    const ms = lenientNumber(row.max_latency);
    out.set(row.traceId, { totalCost: lenientNumber(row.sum_totalCost), count: lenientNumber(row.count_count) ?? 0, longest: ms === null ? null : ms / 1000 });
  }
  return out;
}

/**
 * The trace's observations, as Langfuse v4 counts them: every one but the span it makes of a
 * trace written through the batch route in dual mode, `t-<traceId>` (EVENTS_AGGREGATION_FIELDS
 * observation_count in packages/shared/src/server/queries/clickhouse-sql/event-query-builder.ts,
 * convertTraceToStagingObservation in repositories/definitions.ts). That span is a root
 * observation, so the listing shows it when there is one.
 */
export function observationCount(metrics: TraceMetrics, traceId: string, rootIds: readonly string[]): number {
  return Math.max(0, metrics.count - (rootIds.includes(`t-${traceId}`) ? 1 : 0));
}
