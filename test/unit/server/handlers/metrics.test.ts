// The v2 metrics of the read API, over the records of support/read-api.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V4_ONLY_MESSAGES } from '../../../../src/api/write-mode.js';
import { aggregate } from '../../../../src/core/metrics/index.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller } from '../../../helpers/server-api.js';
import { at, get, useReadApi } from './support/read-api.js';

useReadApi();

describe('GET /api/public/v2/metrics', () => {
  const metrics = (query: Record<string, unknown>) => get(`/api/public/v2/metrics?query=${encodeURIComponent(JSON.stringify({ view: 'observations', fromTimestamp: '2026-03-01T00:00:00Z', toTimestamp: '2026-03-02T00:00:00Z', ...query }))}`);

  it('sums cost and tokens by model, with 64-bit integers as strings as the service returns them', async () => {
    const answer = await metrics({
      dimensions: [{ field: 'providedModelName' }],
      metrics: [{ measure: 'totalCost', aggregation: 'sum' }, { measure: 'inputTokens', aggregation: 'sum' }, { measure: 'totalTokens', aggregation: 'sum' }, { measure: 'count', aggregation: 'count' }],
      orderBy: [{ field: 'sum_totalCost', direction: 'desc' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      { providedModelName: 'claude-x', sum_totalCost: 0.001, sum_inputTokens: '100', sum_totalTokens: '150', count_count: '1' },
      { providedModelName: 'gpt-4o', sum_totalCost: 0.000075, sum_inputTokens: '12', sum_totalTokens: '17', count_count: '1' },
      // An observation without a cost counts 0 (the events table's cost_details['total']).
      { providedModelName: null, sum_totalCost: 0, sum_inputTokens: '0', sum_totalTokens: '0', count_count: '1' },
    ]);
  });

  it('buckets by hour over the whole range, filters, and takes percentiles of latency', async () => {
    const answer = await metrics({
      metrics: [{ measure: 'latency', aggregation: 'p50' }, { measure: 'count', aggregation: 'count' }],
      timeDimension: { granularity: 'hour' },
      filters: [{ column: 'type', operator: '=', value: 'GENERATION', type: 'string' }],
    });
    expect(answer.body.data).toHaveLength(24);
    // An empty bucket holds WITH FILL's default: NULL for a percentile of the Nullable latency.
    expect(answer.body.data[0]).toEqual({ time_dimension: '2026-03-01T00:00:00Z', p50_latency: null, count_count: '0' });
    expect(answer.body.data[10]).toEqual({ time_dimension: '2026-03-01T10:00:00Z', p50_latency: 1250, count_count: '1' });
    expect(answer.body.data[11]).toEqual({ time_dimension: '2026-03-01T11:00:00Z', p50_latency: 3000, count_count: '1' });
    const byUser = await metrics({
      dimensions: [{ field: 'userId' }],
      metrics: [{ measure: 'count', aggregation: 'count' }],
      filters: [{ column: 'userId', operator: 'any of', value: ['u1'], type: 'stringOptions' }],
      orderBy: [{ field: 'count_count', direction: 'desc' }],
      config: { row_limit: 10 },
    });
    expect(byUser.body.data).toEqual([{ userId: 'u1', count_count: '2' }]);
  });

  it('filters on the start time (datetime), on metadata (stringObject), and on tags (arrayOptions)', async () => {
    const count = [{ measure: 'count', aggregation: 'count' }];
    const late = await metrics({ metrics: count, filters: [{ column: 'start_time', type: 'datetime', operator: '>=', value: at(1) }] });
    expect(late.body.data).toEqual([{ count_count: '1' }]);
    const tagged = await metrics({ metrics: count, filters: [{ column: 'tags', type: 'arrayOptions', operator: 'all of', value: ['a', 'b'] }] });
    expect(tagged.body.data).toEqual([{ count_count: '2' }]);
    const described = await metrics({ metrics: count, filters: [{ column: 'metadata', type: 'stringObject', key: 'step', operator: '=', value: '2' }] });
    expect(described.body.data).toEqual([{ count_count: '1' }]);
  });

  it('answers one row over no observations without dimensions or buckets, aggregated in SQL or by the engine', async () => {
    const metrics_ = [{ measure: 'count', aggregation: 'count' }, { measure: 'totalCost', aggregation: 'sum' }, { measure: 'inputTokens', aggregation: 'sum' }, { measure: 'latency', aggregation: 'avg' }];
    const empty = { count_count: '0', sum_totalCost: null, sum_inputTokens: '0', avg_latency: null };
    const range = { fromTimestamp: '2020-01-01T00:00:00Z', toTimestamp: '2020-01-02T00:00:00Z' };
    expect((await metrics({ metrics: metrics_, ...range })).body.data).toEqual([empty]);
    // A metadata filter is the engine's, not SQL's.
    expect((await metrics({ metrics: metrics_, filters: [{ column: 'metadata', type: 'stringObject', key: 'step', operator: '=', value: 'none' }] })).body.data).toEqual([empty]);
    expect((await metrics({ view: 'scores-numeric', metrics: [{ measure: 'value', aggregation: 'sum' }, { measure: 'count', aggregation: 'count' }], ...range })).body.data).toEqual([{ sum_value: 0, count_count: '0' }]);
  });

  it('answers null for sum, min and max of a nullable measure over a group without values, aggregated in SQL', async () => {
    // o1, the only SPAN, has no completion start: its time to first token is NULL.
    const answer = await metrics({
      dimensions: [{ field: 'type' }],
      metrics: [{ measure: 'timeToFirstToken', aggregation: 'sum' }, { measure: 'timeToFirstToken', aggregation: 'min' }, { measure: 'timeToFirstToken', aggregation: 'max' }, { measure: 'timeToFirstToken', aggregation: 'p50' }, { measure: 'inputTokens', aggregation: 'sum' }],
      orderBy: [{ field: 'type', direction: 'desc' }],
    });
    expect(answer.body.data).toEqual([
      { type: 'SPAN', sum_timeToFirstToken: null, min_timeToFirstToken: null, max_timeToFirstToken: null, p50_timeToFirstToken: null, sum_inputTokens: '0' },
      { type: 'GENERATION', sum_timeToFirstToken: '500', min_timeToFirstToken: '500', max_timeToFirstToken: '500', p50_timeToFirstToken: 500, sum_inputTokens: '112' },
    ]);
  });

  it('answers count(*) as `count` for a query without metrics, in SQL, by the engine, and for the score views', async () => {
    // QueryBuilder.buildOuterMetricsPart: no metrics select `count(*) as count` (queryBuilder.servertest.ts
    // "should use default count metric when no metrics are provided"). Without an orderBy the first dimension sorts.
    expect((await metrics({ metrics: [], dimensions: [{ field: 'type' }] })).body.data).toEqual([{ type: 'GENERATION', count: '2' }, { type: 'SPAN', count: '1' }]);
    expect((await metrics({ metrics: [] })).body.data).toEqual([{ count: '3' }]);
    expect((await metrics({ metrics: [], fromTimestamp: '2020-01-01T00:00:00Z', toTimestamp: '2020-01-02T00:00:00Z' })).body.data).toEqual([{ count: '0' }]);
    // A metadata filter is the engine's.
    expect((await metrics({ metrics: [], filters: [{ column: 'metadata', type: 'stringObject', key: 'step', operator: '=', value: '2' }] })).body.data).toEqual([{ count: '1' }]);
    const hours = (await metrics({ metrics: [], timeDimension: { granularity: 'hour' } })).body.data;
    expect(hours.slice(0, 2)).toEqual([{ time_dimension: '2026-03-01T00:00:00Z', count: '0' }, { time_dimension: '2026-03-01T01:00:00Z', count: '0' }]);
    expect(hours.slice(10, 12)).toEqual([{ time_dimension: '2026-03-01T10:00:00Z', count: '2' }, { time_dimension: '2026-03-01T11:00:00Z', count: '1' }]);
    expect((await metrics({ view: 'scores-categorical', metrics: [], dimensions: [{ field: 'name' }] })).body.data).toEqual([{ name: 'label', count: '1' }]);
    // `count` is no metric of the query: an orderBy cannot name it.
    expect((await metrics({ metrics: [], orderBy: [{ field: 'count', direction: 'desc' }] })).body.message).toBe('Invalid orderBy field: count. Must be one of the dimension or metric fields.');
  });

  it('refuses filters the service refuses: a type the dimension does not take, an unknown column, metadata without stringObject', async () => {
    const count = [{ measure: 'count', aggregation: 'count' }];
    expect((await metrics({ metrics: count, filters: [{ column: 'promptVersion', type: 'number', operator: '=', value: 2 }] })).body).toEqual({
      message: "Invalid filter for field 'promptVersion': Filter type 'number' is not supported for dimension type 'string'. Expected 'string' or 'stringOptions'.",
      error: 'InvalidRequestError',
    });
    expect((await metrics({ metrics: count, filters: [{ column: 'tags', type: 'stringOptions', operator: 'any of', value: ['a'] }] })).body.message).toBe(
      "Invalid filter for field 'tags': Filter type 'stringOptions' is not supported for dimension type 'string[]'. Expected 'arrayOptions'.",
    );
    expect((await metrics({ metrics: count, filters: [{ column: 'startTime', type: 'datetime', operator: '>', value: at(0) }] })).body.message).toMatch(/^Invalid filter column startTime\. Must be one of id,traceId,.* or start_time$/);
    expect((await metrics({ metrics: count, filters: [{ column: 'metadata', type: 'string', operator: '=', value: 'x' }] })).body.message).toMatch(/^Invalid filter for field 'metadata': Metadata filters require type 'stringObject'/);
    expect((await metrics({ metrics: [{ measure: 'traceId', aggregation: 'histogram' }] })).body.message).toBe(
      'Aggregation "histogram" is not valid for measure "traceId" (type: string). Valid aggregations: count, uniq',
    );
  });

  it('answers the histogram aggregation as the service’s ClickHouse histogram(bins): [lower, upper, height] bins', async () => {
    // Latencies of the day: 2000 (o1), 1250 (o2), 3000 (o3) ms.
    const tenBins = await metrics({ metrics: [{ measure: 'latency', aggregation: 'histogram' }, { measure: 'count', aggregation: 'count' }] });
    expect(tenBins.status).toBe(200);
    expect(tenBins.body.data).toEqual([{ histogram_latency: [[1250, 1625, 1], [1625, 2500, 1], [2500, 3000, 1]], count_count: '3' }]);
    // config.bins: the two closest fuse into one point of weight 2 at 1625.
    const twoBins = await metrics({ metrics: [{ measure: 'latency', aggregation: 'histogram' }], config: { bins: 2 } });
    expect(twoBins.body.data).toEqual([{ histogram_latency: [[1250, 2312.5, 1.875], [2312.5, 3000, 1.125]] }]);
    // An empty time bucket has no bins.
    const hourly = await metrics({ metrics: [{ measure: 'latency', aggregation: 'histogram' }], timeDimension: { granularity: 'hour' } });
    expect(hourly.body.data[0]).toEqual({ time_dimension: '2026-03-01T00:00:00Z', histogram_latency: [] });
    expect(hourly.body.data[11]).toEqual({ time_dimension: '2026-03-01T11:00:00Z', histogram_latency: [[3000, 3000, 1]] });
  });

  it('fills time buckets only as far as the rows returned: a range of millennia by the day answers at once', async () => {
    const answer = await metrics({ metrics: [{ measure: 'count', aggregation: 'count' }], timeDimension: { granularity: 'day' }, fromTimestamp: '0001-01-01T00:00:00Z', toTimestamp: '9999-12-31T00:00:00Z', config: { row_limit: 3 } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      { time_dimension: '0001-01-01', count_count: '0' },
      { time_dimension: '0001-01-02', count_count: '0' },
      { time_dimension: '0001-01-03', count_count: '0' },
    ]);
    // Buckets with data still come in their place among the empty ones, as over a short range.
    const query = { metrics: [{ measure: 'count', aggregation: 'count' }], timeDimension: { granularity: 'day' }, fromTimestamp: '2026-02-26T00:00:00Z', config: { row_limit: 5 } };
    const long = await metrics({ ...query, toTimestamp: '9999-12-31T00:00:00Z' });
    const short = await metrics({ ...query, toTimestamp: '2026-03-03T00:00:00Z' });
    expect(short.body.data).toHaveLength(5);
    expect(short.body.data.filter((row: { count_count: string }) => row.count_count !== '0')).toHaveLength(1);
    expect(long.body.data).toEqual(short.body.data);
  }, 10_000);

  it('max and min of a group of 300,000 observations (more than a call can take as arguments)', () => {
    const values = Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 300_001);
    expect(aggregate(values, 'max', true)).toBe(String(values.reduce((a, b) => (b > a ? b : a))));
    expect(aggregate(values, 'min', false)).toBe(0);
    expect(aggregate([3, null, 1], 'max', false)).toBe(3);
  });

  it('refuses a bad query with the service\'s messages', async () => {
    expect((await get('/api/public/v2/metrics?query=nope')).body).toEqual({ message: 'Invalid JSON in query parameter', error: 'InvalidRequestError' });
    const reversed = await metrics({ metrics: [{ measure: 'count', aggregation: 'count' }], fromTimestamp: '2026-03-02T00:00:00Z', toTimestamp: '2026-03-01T00:00:00Z' });
    expect(reversed.body.error[0].message).toBe('fromTimestamp must be before toTimestamp');
    expect((await metrics({ metrics: [{ measure: 'nope', aggregation: 'sum' }] })).status).toBe(400);
  });
  // validateQuery before the query runs (packages/shared/src/features/query/validateQuery.ts);
  // the service's test: web/src/__tests__/server/metrics-v2-api.servertest.ts.
  it('refuses a high-cardinality dimension outside a top-N query, with the service’s message', async () => {
    const count = [{ measure: 'count', aggregation: 'count' }];
    for (const field of ['id', 'traceId', 'userId', 'sessionId', 'parentObservationId']) {
      expect((await metrics({ dimensions: [{ field }], metrics: count })).body).toEqual({
        message: `High cardinality dimension(s) '${field}' require both 'config.row_limit' and 'orderBy' with direction 'desc' on a measure field.`,
        error: 'InvalidRequestError',
      });
    }
    const topN = await metrics({ dimensions: [{ field: 'traceId' }], metrics: count, orderBy: [{ field: 'count_count', direction: 'desc' }], config: { row_limit: 1 } });
    expect(topN.body.data).toEqual([{ traceId: 't1', count_count: '2' }]);
    // In a filter it needs nothing.
    expect((await metrics({ dimensions: [{ field: 'name' }], metrics: count, filters: [{ column: 'traceId', operator: '=', value: 't2', type: 'string' }] })).body.data).toEqual([{ name: 'llm', count_count: '1' }]);
  });

  // dataModel.ts eventsObservationsView: `release` beside `traceRelease`, both the trace's.
  it('groups by release', async () => {
    const answer = await metrics({ dimensions: [{ field: 'release' }, { field: 'traceRelease' }], metrics: [{ measure: 'count', aggregation: 'count' }] });
    expect(answer.body.data).toEqual([
      { release: 'r1', traceRelease: 'r1', count_count: '2' },
      { release: null, traceRelease: null, count_count: '1' },
    ]);
  });

  // The route's zod schema parses the query inside its `query` parameter: "Invalid request data"
  // with the issue at ["query", "view"] (the servertest "should reject traces view with 400 error").
  it('answers the traces view, which v2 lacks, as the service does', async () => {
    const answer = await metrics({ view: 'traces', metrics: [{ measure: 'count', aggregation: 'count' }] });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      message: 'Invalid request data',
      error: [
        {
          code: 'invalid_value',
          values: ['observations', 'scores-numeric', 'scores-categorical', 'scores-boolean'],
          path: ['query', 'view'],
          message: 'Invalid option: expected one of "observations"|"scores-numeric"|"scores-categorical"|"scores-boolean"',
        },
      ],
    });
    expect((await get('/api/public/v2/metrics')).body.error).toEqual([expect.objectContaining({ path: ['query'] })]);
  });

  it('answers the score views over the stored scores, with their traces and observations', async () => {
    const scores = (view: string, query: Record<string, unknown> = {}) => metrics({ view, metrics: [{ measure: 'count', aggregation: 'count' }], ...query });
    expect((await scores('scores-numeric', { dimensions: [{ field: 'name' }, { field: 'dataType' }], metrics: [{ measure: 'value', aggregation: 'sum' }] })).body.data).toEqual([
      { name: 'ok', dataType: 'BOOLEAN', sum_value: 1 },
      { name: 'quality', dataType: 'NUMERIC', sum_value: 0.9 },
    ]);
    expect((await scores('scores-boolean', { dimensions: [{ field: 'booleanValue' }, { field: 'observationName' }, { field: 'observationModelName' }, { field: 'traceName' }] })).body.data).toEqual([
      { booleanValue: true, observationName: 'llm', observationModelName: 'gpt-4o', traceName: 'chat', count_count: '1' },
    ]);
    expect((await scores('scores-categorical', { dimensions: [{ field: 'stringValue' }, { field: 'tags' }], timeDimension: { granularity: 'day' } })).body.data).toEqual([
      { stringValue: 'good', tags: ['a'], time_dimension: '2026-03-01', count_count: '1' },
    ]);
    expect((await scores('scores-numeric', { dimensions: [{ field: 'observationId' }] })).body.message).toMatch(/^High cardinality dimension\(s\) 'observationId' require both/);
  });
});

// web/src/pages/api/public/v2/metrics.ts (isMetricsV2Available): in legacy mode the route answers
// 404 once GetMetricsV2Query passed (JSON, then the query object's schema); the view's checks,
// which run later, are not reached.
describe('GET /api/public/v2/metrics in legacy mode', () => {
  let legacy: RunningServer;
  const call = apiCaller(() => legacy);
  const metrics = (query: unknown) => call('GET', `/api/public/v2/metrics?query=${encodeURIComponent(typeof query === 'string' ? query : JSON.stringify(query))}`, undefined, { unchecked: true });
  const range = { view: 'observations', fromTimestamp: '2026-03-01T00:00:00Z', toTimestamp: '2026-03-02T00:00:00Z' };
  beforeAll(async () => {
    legacy = await startServer({ port: 0, ephemeral: true, writeMode: 'legacy' });
  });
  afterAll(() => legacy.close());

  it('answers 404 after the schema, 400 before it', async () => {
    const unavailable = { status: 404, body: { message: V4_ONLY_MESSAGES.metrics, error: 'LangfuseNotFoundError' } };
    expect(await metrics({ ...range, metrics: [{ measure: 'count', aggregation: 'count' }] })).toEqual(unavailable);
    expect(await metrics({ ...range, dimensions: [{ field: 'nope' }], metrics: [{ measure: 'count', aggregation: 'count' }] })).toEqual(unavailable);
    expect(await metrics('{nope')).toEqual({ status: 400, body: { message: 'Invalid JSON in query parameter', error: 'InvalidRequestError' } });
    expect((await metrics({ ...range })).body.message).toBe('Invalid request data');
  });
});
