// Rows of the metrics view for the engine's tests: an observation with its trace's fields.
import type { MetricsObservation, MetricsRow } from '../../../../../src/core/metrics/index.js';

export interface RowSeed extends Partial<MetricsObservation> {
  id: string;
  startTime: string;
  traceName?: string | null;
  userId?: string | null;
  sessionId?: string | null;
  release?: string | null;
  traceVersion?: string | null;
  tags?: string[];
}

export function metricsRow(seed: RowSeed): MetricsRow {
  const { traceName = null, userId = null, sessionId = null, release = null, traceVersion = null, tags = [], ...observation } = seed;
  return {
    observation: {
      traceId: null,
      parentObservationId: null,
      type: 'GENERATION',
      name: null,
      environment: 'default',
      level: 'DEFAULT',
      version: null,
      endTime: null,
      completionStartTime: null,
      providedModelName: null,
      promptName: null,
      promptVersion: null,
      metadata: {},
      usageDetails: {},
      costDetails: {},
      totalCost: null,
      ...observation,
    },
    traceName,
    userId,
    sessionId,
    release,
    traceVersion,
    tags,
  };
}

/** A time `ms` after 2026-03-01T00:00:00Z, as the store keeps times. */
export const at = (ms: number) => new Date(Date.UTC(2026, 2, 1) + ms).toISOString();
