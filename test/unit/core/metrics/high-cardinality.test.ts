// The high-cardinality rule of the metrics API v2 (packages/shared/src/features/query/
// validateQuery.ts); the fields and the expected refusal are those of the service's tests
// (web/src/__tests__/server/metrics-v2-api.servertest.ts, "High Cardinality Dimension Validation").
import { describe, expect, it } from 'vitest';
import { highCardinalityProblem, type TopNQuery } from '../../../../src/core/metrics/index.js';

const count = [{ measure: 'count' }];
const query = (view: TopNQuery['view'], field: string, rest: Partial<TopNQuery> = {}): TopNQuery => ({ view, dimensions: [{ field }], metrics: count, ...rest });

describe('highCardinalityProblem', () => {
  it.each([
    ['id', 'observations'],
    ['traceId', 'observations'],
    ['userId', 'observations'],
    ['sessionId', 'observations'],
    ['parentObservationId', 'observations'],
    ['id', 'scores-numeric'],
    ['traceId', 'scores-numeric'],
    ['userId', 'scores-numeric'],
    ['sessionId', 'scores-numeric'],
    ['observationId', 'scores-numeric'],
  ] as const)('refuses %s in %s without a row limit and a descending order', (field, view) => {
    expect(highCardinalityProblem(query(view, field))).toBe(`High cardinality dimension(s) '${field}' require both 'config.row_limit' and 'orderBy' with direction 'desc' on a measure field.`);
  });

  it('takes a top-N query: a row limit, and every descending order on a measure of the query (by name or as aggregation_name)', () => {
    expect(highCardinalityProblem(query('observations', 'traceId', { config: { row_limit: 10 }, orderBy: [{ field: 'sum_latency', direction: 'desc' }], metrics: [{ measure: 'latency' }] }))).toBeNull();
    expect(highCardinalityProblem(query('observations', 'traceId', { config: { row_limit: 10 }, orderBy: [{ field: 'count', direction: 'desc' }, { field: 'traceId', direction: 'asc' }] }))).toBeNull();
    // The servertest "should reject high cardinality dimension without LIMIT".
    expect(highCardinalityProblem(query('observations', 'traceId', { orderBy: [{ field: 'sum_latency', direction: 'desc' }], metrics: [{ measure: 'latency' }] }))).toMatch(
      /require both 'config.row_limit' and 'orderBy' with direction 'desc'/,
    );
  });

  it('names every high-cardinality field, refuses a time series, and descending fields that are not measures', () => {
    const both = { view: 'observations', dimensions: [{ field: 'name' }, { field: 'userId' }, { field: 'sessionId' }], metrics: count } as const;
    expect(highCardinalityProblem({ ...both, timeDimension: { granularity: 'day' } })).toBe(
      "High cardinality dimension(s) 'userId, sessionId' cannot be used with timeDimension. Time series queries with high cardinality dimensions produce unbounded result sets.",
    );
    expect(highCardinalityProblem({ ...both, config: { row_limit: 5 }, orderBy: [{ field: 'name', direction: 'desc' }, { field: 'userId', direction: 'desc' }] })).toBe(
      "High cardinality dimension(s) 'userId, sessionId' require 'orderBy' with direction 'desc' on a measure field. 'name, userId' are not a measure in this query.",
    );
    expect(highCardinalityProblem({ ...both, config: { row_limit: 5 }, orderBy: [{ field: 'userId', direction: 'desc' }] })).toMatch(/'userId' is not a measure in this query\.$/);
  });

  it('lets other dimensions, and dimensions the view lacks, through', () => {
    expect(highCardinalityProblem(query('observations', 'name'))).toBeNull();
    expect(highCardinalityProblem(query('observations', 'observationId'))).toBeNull();
    expect(highCardinalityProblem(query('scores-categorical', 'stringValue'))).toBeNull();
  });
});
