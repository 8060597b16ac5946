// Checking a metrics query as the service checks it, without HTTP: the engine's refusals carry
// the service's messages, or the schema's issues.
import { describe, expect, it } from 'vitest';
import { MetricsQueryError, parseMetricsQuery, queryRange } from '../../../../src/core/metrics/index.js';

const base = { view: 'observations', metrics: [{ measure: 'count', aggregation: 'count' }], fromTimestamp: '2026-03-01T00:00:00Z', toTimestamp: '2026-03-02T00:00:00Z' };
const text = (query: Record<string, unknown>) => JSON.stringify({ ...base, ...query });

function refusal(query: string): MetricsQueryError {
  try {
    parseMetricsQuery(query);
  } catch (error) {
    if (error instanceof MetricsQueryError) return error;
    throw error;
  }
  throw new Error('the query was accepted');
}

describe('parseMetricsQuery', () => {
  it('fills the defaults of a minimal query', () => {
    expect(parseMetricsQuery(text({}))).toEqual({ ...base, dimensions: [], filters: [], timeDimension: null, orderBy: null });
  });

  it('refuses text that is not JSON', () => {
    expect(refusal('nope')).toMatchObject({ message: 'Invalid JSON in query parameter', issues: undefined });
  });

  it('gives the schema’s issues for a query of the wrong shape', () => {
    const reversed = refusal(text({ fromTimestamp: '2026-03-02T00:00:00Z', toTimestamp: '2026-03-01T00:00:00Z' }));
    expect(reversed.issues?.map((issue) => issue.message)).toEqual(['fromTimestamp must be before toTimestamp']);
    const badAggregation = refusal(text({ metrics: [{ measure: 'count', aggregation: 'median' }] }));
    expect(badAggregation.issues?.[0]?.path).toEqual(['metrics', 0, 'aggregation']);
    expect(refusal(text({ config: { row_limit: 1001 } })).issues?.[0]?.path).toEqual(['config', 'row_limit']);
  });

  // MetricsQueryObjectV2 (web/src/features/public-api/types/metrics.ts) takes the v2 views only;
  // QueryBuilder.mapDimensions and mapMetrics (packages/shared/src/features/query/server/
  // queryBuilder.ts) name what the view has, in the order the data model declares it.
  it('refuses the views, dimensions and measures the service refuses, with its messages', () => {
    expect(refusal(text({ view: 'traces' })).issues?.map((issue) => [issue.path, issue.message])).toEqual([
      [['view'], 'Invalid option: expected one of "observations"|"scores-numeric"|"scores-categorical"|"scores-boolean"'],
    ]);
    expect(refusal(text({ dimensions: [{ field: 'nope' }] })).message).toBe(
      'Invalid dimension nope. Must be one of id,traceId,environment,parentObservationId,type,name,level,version,userId,sessionId,tags,release,traceName,traceRelease,traceVersion,providedModelName,promptName,promptVersion,startTimeMonth,experimentName,experimentDatasetId,experimentId',
    );
    expect(refusal(text({ metrics: [{ measure: 'nope', aggregation: 'sum' }] })).message).toBe(
      'Invalid metric nope. Must be one of count,traceId,uniqueUserIds,uniqueSessionIds,latency,streamingLatency,inputTokens,outputTokens,totalTokens,outputTokensPerSecond,tokensPerSecond,inputCost,outputCost,totalCost,timeToFirstToken',
    );
    expect(refusal(text({ view: 'scores-categorical', metrics: [{ measure: 'value', aggregation: 'avg' }] })).message).toBe('Invalid metric value. Must be one of count');
    expect(refusal(text({ metrics: [{ measure: 'uniqueUserIds', aggregation: 'sum' }] })).message).toBe(
      'Aggregation "sum" is not valid for measure "uniqueUserIds" (type: string). Valid aggregations: count, uniq',
    );
    expect(parseMetricsQuery(text({ dimensions: [{ field: 'release' }, { field: 'traceRelease' }] })).dimensions).toHaveLength(2);
  });

  it('checks orderBy as QueryBuilder.validateAndProcessOrderBy does: a dimension, a metric of the query (not a histogram), or the time bucket', () => {
    const orderBy = (field: string, query: Record<string, unknown> = {}) => text({ dimensions: [{ field: 'name' }], orderBy: [{ field, direction: 'asc' }], ...query });
    for (const field of ['name', 'count_count']) expect(parseMetricsQuery(orderBy(field)).orderBy).toEqual([{ field, direction: 'asc' }]);
    expect(parseMetricsQuery(orderBy('time_dimension', { timeDimension: { granularity: 'day' } })).orderBy).toHaveLength(1);
    for (const field of ['time_dimension', 'sum_count', 'type', 'histogram_latency']) {
      const query = field === 'histogram_latency' ? orderBy(field, { metrics: [{ measure: 'latency', aggregation: 'histogram' }] }) : orderBy(field);
      expect(refusal(query).message).toBe(`Invalid orderBy field: ${field}. Must be one of the dimension or metric fields.`);
    }
  });

  it('checks filters as QueryBuilder.validateFilters does, with its messages', () => {
    const filter = (f: Record<string, unknown>) => refusal(text({ filters: [f] })).message;
    expect(filter({ column: 'promptVersion', type: 'number', operator: '=', value: 2 })).toBe(
      "Invalid filter for field 'promptVersion': Filter type 'number' is not supported for dimension type 'string'. Expected 'string' or 'stringOptions'.",
    );
    expect(filter({ column: 'tags', type: 'stringOptions', operator: 'any of', value: ['a'] })).toBe(
      "Invalid filter for field 'tags': Filter type 'stringOptions' is not supported for dimension type 'string[]'. Expected 'arrayOptions'.",
    );
    expect(filter({ column: 'start_time', type: 'string', operator: '=', value: 'x' })).toBe(
      "Invalid filter for field 'start_time': Filter type 'string' is not supported for time dimension 'start_time'. Expected 'datetime'.",
    );
    expect(filter({ column: 'metadata', type: 'string', operator: '=', value: 'x' })).toMatch(/^Invalid filter for field 'metadata': Metadata filters require type 'stringObject'/);
    expect(filter({ column: 'startTime', type: 'datetime', operator: '>', value: '2026-03-01T00:00:00Z' })).toMatch(/^Invalid filter column startTime\. Must be one of id,traceId,.* or start_time$/);
  });

  it('lets through what the service lets through: null filters on any dimension, columns ending in Name (as the name)', () => {
    const filters = [
      { column: 'tags', type: 'null', operator: 'is not null', value: '' },
      { column: 'observationName', type: 'string', operator: '=', value: 'x' },
    ];
    expect(parseMetricsQuery(text({ filters })).filters).toHaveLength(2);
    // positionInTrace is not a type any dimension takes (queryBuilder.ts validateFilters).
    expect(refusal(text({ filters: [{ column: 'name', type: 'positionInTrace', operator: '=', key: 'root' }] })).message).toBe(
      "Invalid filter for field 'name': Filter type 'positionInTrace' is not supported for dimension type 'string'. Expected 'string' or 'stringOptions'.",
    );
  });
});

describe('queryRange', () => {
  it('gives the range as UTC ISO times with milliseconds, whatever the offset sent', () => {
    expect(queryRange(parseMetricsQuery(text({ fromTimestamp: '2026-03-01T01:00:00+01:00', toTimestamp: '2026-03-02T00:00:00.5Z' })))).toEqual({
      from: '2026-03-01T00:00:00.000Z',
      to: '2026-03-02T00:00:00.500Z',
    });
  });
});
