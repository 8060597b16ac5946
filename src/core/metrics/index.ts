// The metrics engine: a query of the metrics API (`parseMetricsQuery`) answered over the rows of
// its view (`runMetricsQuery`), as the service's query layer answers it. Pure: the rows come from
// the caller (the local server's store, a test's fake server).
export { MetricsQueryError, MetricsResourceError } from './errors.js';
export { type Aggregation, type MetricsQuery, parseMetricsQuery, queryRange } from './query.js';
export { DEFAULT_BINS, finishMetricsQuery, MAX_V1_ROWS, type MetricsAnswerRow, metricsGranularity, type MetricsGroup, runMetricsQuery } from './run.js';
export { filterDimensionName } from './query.js';
export type { Granularity } from './time-buckets.js';
export { v1Relations } from './v1-declaration.js';
export { v1Declaration } from './views.js';
export type { V1ObservationEntity, V1Trace, V1TraceEntity } from './v1-views.js';
export type { V1ScoreEntity } from './v1-scores-view.js';
export { aggregate, aggregateSummary, type ValueSummary } from './aggregate.js';
export { highCardinalityProblem, type TopNQuery } from './high-cardinality.js';
export { millisBetween, type MetricsObservation, type MetricsRow, sumOfKeys } from './view.js';
export type { MetricsScore, MetricsScoreRow } from './scores-view.js';
export { metricsView } from './views.js';
