// The metrics engine: a query of the metrics API (`parseMetricsQuery`) answered over the rows of
// its view (`runMetricsQuery`), as the service's query layer answers it. Pure: the rows come from
// the caller (the local server's store, a test's fake server).
export { MetricsQueryError } from './errors.js';
export { type Aggregation, type MetricsQuery, parseMetricsQuery, queryRange } from './query.js';
export { DEFAULT_BINS, finishMetricsQuery, type MetricsAnswerRow, metricsGranularity, type MetricsGroup, runMetricsQuery } from './run.js';
export { filterDimensionName } from './query.js';
export type { Granularity } from './time-buckets.js';
export { aggregate, aggregateSummary, type ValueSummary } from './aggregate.js';
export { highCardinalityProblem, type TopNQuery } from './high-cardinality.js';
export { millisBetween, type MetricsObservation, type MetricsRow, sumOfKeys } from './view.js';
export type { MetricsScore, MetricsScoreRow } from './scores-view.js';
export { metricsView } from './views.js';
