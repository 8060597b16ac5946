// The metrics engine: a query of the metrics API (`parseMetricsQuery`) answered over the rows of
// its view (`runMetricsQuery`), as the service's query layer answers it. Pure: the rows come from
// the caller (the local server's store, a test's fake server).
export { MetricsQueryError } from './errors.js';
export { type Aggregation, type MetricsQuery, parseMetricsQuery, queryRange } from './query.js';
export { type MetricsAnswerRow, runMetricsQuery } from './run.js';
export { aggregate } from './aggregate.js';
export { highCardinalityProblem, type TopNQuery } from './high-cardinality.js';
export { millisBetween, type MetricsObservation, type MetricsRow, sumOfKeys } from './view.js';
export type { MetricsScore, MetricsScoreRow } from './scores-view.js';
