// The service's guard on grouping by a high-cardinality dimension (id, traceId, userId,
// sessionId, parentObservationId, and for scores observationId...): such a query must be a top-N
// query, with `config.row_limit` given and an `orderBy` descending on a measure, and without a
// time dimension (packages/shared/src/features/query/validateQuery.ts, `validateQuery` for v2).
// It runs before any other check of the query's fields, on the query as sent (row_limit not
// defaulted yet). The local server and the tests' fake Langfuse both apply this one rule.
import type { ViewName } from './declaration.js';
import { metricsView } from './views.js';

/** What the rule reads of a query. */
export interface TopNQuery {
  view: ViewName;
  dimensions: ReadonlyArray<{ field: string }>;
  metrics: ReadonlyArray<{ measure: string }>;
  timeDimension?: unknown;
  orderBy?: ReadonlyArray<{ field: string; direction: string }> | null | undefined;
  config?: { row_limit?: number | undefined } | undefined;
}

/** The service's 400 message for a query that breaks the rule, or null. */
export function highCardinalityProblem(query: TopNQuery): string | null {
  const view = metricsView(query.view);
  const fields = query.dimensions.filter(({ field }) => Object.hasOwn(view.dimensions, field) && view.dimensions[field]!.highCardinality).map(({ field }) => field);
  if (fields.length === 0) return null;
  const named = `High cardinality dimension(s) '${fields.join(', ')}'`;
  if (query.timeDimension) return `${named} cannot be used with timeDimension. Time series queries with high cardinality dimensions produce unbounded result sets.`;
  const descending = (query.orderBy ?? []).filter((order) => order.direction === 'desc');
  if (query.config?.row_limit === undefined || descending.length === 0) {
    return `${named} require both 'config.row_limit' and 'orderBy' with direction 'desc' on a measure field.`;
  }
  // A measure of the query, by name or as "<aggregation>_<name>".
  const measures = query.metrics.map(({ measure }) => measure);
  const notMeasures = descending.map(({ field }) => field).filter((field) => !measures.some((measure) => field === measure || field.endsWith(`_${measure}`)));
  if (notMeasures.length > 0) {
    return `${named} require 'orderBy' with direction 'desc' on a measure field. '${notMeasures.join(', ')}' ${notMeasures.length === 1 ? 'is' : 'are'} not a measure in this query.`;
  }
  return null;
}
