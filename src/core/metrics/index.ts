// The metrics engine: a query of the metrics API (`parseMetricsQuery`) answered over rows of the
// `observations` view (`runMetricsQuery`), as the service's query layer answers it. Pure: the
// rows come from the caller (the local server's store, a test's fake server).
export { MetricsQueryError } from './errors.js';
export { AGGREGATIONS, type Aggregation, type MetricsQuery, parseMetricsQuery, queryRange } from './query.js';
export { type MetricsAnswerRow, queryGranularity, runMetricsQuery } from './run.js';
export { aggregate } from './aggregate.js';
export { histogram } from './histogram.js';
export { bucket, type Granularity } from './time-buckets.js';
export { DIMENSIONS, MEASURES, millisBetween, type MetricsObservation, type MetricsRow, sumOfKeys } from './view.js';
