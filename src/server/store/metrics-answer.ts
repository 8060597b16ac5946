// The answer of a metrics query from the store, on the event loop (handlers/metrics.ts) or on the
// read thread (read-worker.ts): observations aggregated in SQL; scores, and a query SQL cannot
// answer as the engine does, by the engine over the rows of the range.
import { finishMetricsQuery, type MetricsAnswerRow, type MetricsQuery, runMetricsQuery } from '../../core/metrics/index.js';
import type { ObservationStore } from './observations.js';
import type { ScoreStore } from './scores.js';

export function metricsAnswer(query: MetricsQuery, store: { observations: ObservationStore; scores: ScoreStore }, from: string, to: string): MetricsAnswerRow[] {
  const groups = query.view === 'observations' ? store.observations.metrics(query, from, to) : undefined;
  if (groups) return finishMetricsQuery(query, groups);
  return runMetricsQuery(query, query.view === 'observations' ? store.observations.forMetrics(from, to) : store.scores.forMetrics(from, to));
}
