// The v1 metrics (GET /api/public/metrics) of the read API in legacy mode, over the records of
// support/read-api.ts. Expected answers follow the service's v1 query (packages/shared/src/
// features/query/server/queryBuilder.ts, version "v1"; dataModel.ts traceView, observationsView,
// scores*ViewBase("v1")) and its servertest (web/src/__tests__/server/metrics-api.servertest.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_ONLY_REMOVED_MESSAGE } from '../../../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { V1_METRICS_RESOURCE_MESSAGE } from '../../../../src/server/handlers/metrics-v1.js';
import { apiCaller } from '../../../helpers/server-api.js';
import { at, call, get, T0, useReadApi } from './support/read-api.js';

useReadApi({ writeMode: 'legacy' });

const DAY = { fromTimestamp: '2026-03-01T00:00:00Z', toTimestamp: '2026-03-02T00:00:00Z' };
const path = (query: unknown) => `/api/public/metrics?query=${encodeURIComponent(typeof query === 'string' ? query : JSON.stringify(query))}`;
/** A query of the day; answers of 2xx are checked against the contract. */
const metrics = (query: Record<string, unknown>) => call('GET', path({ ...DAY, ...query }));
const refused = (query: unknown) => get(path(typeof query === 'string' ? query : { ...DAY, ...(query as object) }));
const count = [{ measure: 'count', aggregation: 'count' }];

describe('GET /api/public/metrics: the traces view', () => {
  // t1 (chat) has o1, o2 and the scores sc1, sc2; t2 (batch) has o3 and sc3; t3 is days before.
  it('aggregates each trace’s observations: their count, latency from first start to last end, cost', async () => {
    const answer = await metrics({
      view: 'traces',
      dimensions: [{ field: 'name' }],
      metrics: [...count, { measure: 'observationsCount', aggregation: 'sum' }, { measure: 'latency', aggregation: 'max' }, { measure: 'totalCost', aggregation: 'sum' }],
      orderBy: [{ field: 'name', direction: 'asc' }],
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual([
      { name: 'batch', count_count: '1', sum_observationsCount: '1', max_latency: '3000', sum_totalCost: 0.001 },
      { name: 'chat', count_count: '1', sum_observationsCount: '2', max_latency: '2000', sum_totalCost: 0.000075 },
    ]);
  });

  // No metrics: `count(*) as count` over the inner rows, one per trace (queryBuilder.servertest.ts
  // "should use default count metric when no metrics are provided").
  // The OpenAPI file asks for one metric at least; the service's schema (MetricsQueryObject) does not.
  it('answers count(*) as `count` without metrics', async () => {
    expect((await get(path({ ...DAY, view: 'traces', dimensions: [{ field: 'name' }], metrics: [] }))).body.data).toEqual([{ name: 'batch', count: '1' }, { name: 'chat', count: '1' }]);
    expect((await get(path({ ...DAY, view: 'observations', metrics: [] }))).body.data).toEqual([{ count: '3' }]);
  });

  // The inner query INNER JOINs observations and scores: sum(total_cost), sumMap(usage)['total']
  // and count(*) run over every observation × score pair of a trace.
  it('counts each observation once per joined score, as the two-level query does', async () => {
    const answer = await metrics({
      view: 'traces',
      dimensions: [{ field: 'name' }],
      metrics: [{ measure: 'count', aggregation: 'sum' }, { measure: 'scoresCount', aggregation: 'sum' }, { measure: 'totalTokens', aggregation: 'sum' }, { measure: 'totalCost', aggregation: 'sum' }],
      orderBy: [{ field: 'name', direction: 'asc' }],
    });
    expect(answer.body.data).toEqual([
      { name: 'batch', sum_count: '1', sum_scoresCount: '1', sum_totalTokens: '150', sum_totalCost: 0.001 },
      { name: 'chat', sum_count: '4', sum_scoresCount: '2', sum_totalTokens: '34', sum_totalCost: 0.00015 },
    ]);
    // Without a joined relation each trace is one row.
    expect((await metrics({ view: 'traces', metrics: [{ measure: 'count', aggregation: 'sum' }, { measure: 'uniqueUserIds', aggregation: 'sum' }] })).body.data).toEqual([{ sum_count: '2', sum_uniqueUserIds: '2' }]);
  });

  it('fills the empty time buckets of the range (WITH FILL), filters on tags and metadata', async () => {
    const daily = await metrics({ view: 'traces', dimensions: [{ field: 'name' }], metrics: count, timeDimension: { granularity: 'day' }, fromTimestamp: '2026-02-27T00:00:00Z', toTimestamp: '2026-03-02T00:00:00Z' });
    expect(daily.body.data).toEqual([
      { name: 'old', time_dimension: '2026-02-27', count_count: '1' },
      { name: null, time_dimension: '2026-02-28', count_count: '0' },
      expect.objectContaining({ time_dimension: '2026-03-01', count_count: '1' }),
      expect.objectContaining({ time_dimension: '2026-03-01', count_count: '1' }),
    ]);
    const tagged = await metrics({ view: 'traces', dimensions: [{ field: 'name' }], metrics: count, filters: [{ column: 'tags', operator: 'any of', value: ['b'], type: 'arrayOptions' }] });
    expect(tagged.body.data).toEqual([{ name: 'chat', count_count: '1' }]);
    const described = await metrics({ view: 'traces', metrics: count, filters: [{ column: 'metadata', operator: 'contains', key: 'k', value: 'v', type: 'stringObject' }] });
    expect(described.body.data).toEqual([{ count_count: '1' }]);
  });
});

describe('GET /api/public/metrics: the observations view', () => {
  it('sums cost and tokens by model, as the cost report asks', async () => {
    const answer = await metrics({
      view: 'observations',
      dimensions: [{ field: 'providedModelName' }],
      metrics: [{ measure: 'totalCost', aggregation: 'sum' }, { measure: 'inputTokens', aggregation: 'sum' }, { measure: 'outputTokens', aggregation: 'sum' }, ...count],
      filters: [{ column: 'type', operator: 'none of', value: ['SPAN', 'EVENT'], type: 'stringOptions' }],
      orderBy: [{ field: 'sum_totalCost', direction: 'desc' }],
      config: { row_limit: 1000 },
    });
    expect(answer.body.data).toEqual([
      { providedModelName: 'claude-x', sum_totalCost: 0.001, sum_inputTokens: '100', sum_outputTokens: '50', count_count: '1' },
      { providedModelName: 'gpt-4o', sum_totalCost: 0.000075, sum_inputTokens: '12', sum_outputTokens: '5', count_count: '1' },
    ]);
  });

  // A trace's dimension joins traces whose timestamp is in the range; countScores joins scores.
  it('drops the observations a joined relation has no row for (INNER JOIN)', async () => {
    const byName = { view: 'observations', dimensions: [{ field: 'name' }], metrics: count, orderBy: [{ field: 'name', direction: 'asc' }] };
    expect((await metrics(byName)).body.data).toEqual([
      { name: 'llm', count_count: '2' },
      { name: 'root', count_count: '1' },
    ]);
    // Only o2 has a score of its own (sc2).
    expect((await metrics({ ...byName, metrics: [...count, { measure: 'countScores', aggregation: 'sum' }] })).body.data).toEqual([{ name: 'llm', count_count: '1', sum_countScores: '1' }]);
    // From 10:00:00.100: o2 and o3 start in range, but t1's timestamp (10:00:00.000) does not.
    const late = { fromTimestamp: at(0.1), toTimestamp: '2026-03-02T00:00:00Z' };
    expect((await metrics({ ...byName, ...late })).body.data).toEqual([{ name: 'llm', count_count: '2' }]);
    expect((await metrics({ ...byName, ...late, dimensions: [{ field: 'traceName' }], orderBy: null })).body.data).toEqual([{ traceName: 'batch', count_count: '1' }]);
  });

  it('has no high-cardinality rule and no default row limit; toTimestamp is in the range', async () => {
    expect((await metrics({ view: 'observations', dimensions: [{ field: 'id' }], metrics: count, orderBy: [{ field: 'id', direction: 'asc' }] })).body.data).toEqual([
      { id: 'o1', count_count: '1' },
      { id: 'o2', count_count: '1' },
      { id: 'o3', count_count: '1' },
    ]);
    const minutes = await metrics({ view: 'observations', metrics: count, timeDimension: { granularity: 'minute' } });
    expect(minutes.body.data).toHaveLength(1440);
    // o3 starts at 11:00:00.000, the range's last instant.
    expect((await metrics({ view: 'observations', metrics: count, fromTimestamp: T0, toTimestamp: at(3600) })).body.data).toEqual([{ count_count: '3' }]);
  });

  it('groups by the tool names this server does not record: no rows', async () => {
    expect((await metrics({ view: 'observations', dimensions: [{ field: 'toolNames' }], metrics: count })).body.data).toEqual([]);
  });
});

describe('GET /api/public/metrics: the score views', () => {
  it('reads the scores with their trace’s fields (sessionId is the trace’s) and observation’s', async () => {
    const numeric = await metrics({ view: 'scores-numeric', dimensions: [{ field: 'name' }, { field: 'sessionId' }], metrics: [...count, { measure: 'value', aggregation: 'avg' }], orderBy: [{ field: 'name', direction: 'asc' }] });
    expect(numeric.body.data).toEqual([
      { name: 'ok', sessionId: 's1', count_count: '1', avg_value: 1 },
      { name: 'quality', sessionId: 's1', count_count: '1', avg_value: 0.9 },
    ]);
    // sc1 has no observation: the observations JOIN drops it.
    expect((await metrics({ view: 'scores-numeric', dimensions: [{ field: 'observationName' }], metrics: count })).body.data).toEqual([{ observationName: 'llm', count_count: '1' }]);
    expect((await metrics({ view: 'scores-categorical', dimensions: [{ field: 'stringValue' }, { field: 'traceName' }], metrics: count })).body.data).toEqual([{ stringValue: 'good', traceName: 'batch', count_count: '1' }]);
    expect((await metrics({ view: 'scores-boolean', dimensions: [{ field: 'booleanValue' }], metrics: count })).body.data).toEqual([{ booleanValue: true, count_count: '1' }]);
  });
});

describe('GET /api/public/metrics: refused queries', () => {
  it('answers 400 with the service’s messages, from v1’s declarations', async () => {
    expect(await refused('nope')).toEqual({ status: 400, body: { message: 'Invalid JSON in query parameter', error: 'InvalidRequestError' } });
    const incomplete = await refused({ view: 'traces' });
    expect(incomplete.status).toBe(400);
    expect(incomplete.body.message).toBe('Invalid request data');
    expect(incomplete.body.error).toContainEqual(expect.objectContaining({ path: ['query', 'metrics'] }));
    expect((await refused({ view: 'traces', metrics: [{ measure: 'count', aggregation: 'median' }] })).body.message).toBe('Invalid request data');
    expect((await refused({ view: 'traces', metrics: [{ measure: 'nope', aggregation: 'sum' }] })).body).toEqual({
      message: 'Invalid metric nope. Must be one of count,observationsCount,scoresCount,uniqueUserIds,uniqueSessionIds,latency,totalTokens,totalCost',
      error: 'InvalidRequestError',
    });
    // v2's observation measures that v1 lacks.
    expect((await refused({ view: 'observations', metrics: [{ measure: 'uniqueUserIds', aggregation: 'count' }] })).body.message).toMatch(/^Invalid metric uniqueUserIds\. Must be one of count,latency,.*,countScores,toolDefinitions,toolCalls$/);
    expect((await refused({ view: 'traces', dimensions: [{ field: 'traceName' }], metrics: count })).body.message).toBe('Invalid dimension traceName. Must be one of id,name,tags,userId,sessionId,release,version,environment,timestampMonth');
    expect((await refused({ view: 'traces', metrics: count, filters: [{ column: 'tags', operator: 'contains', value: 'x', type: 'string' }] })).body.message).toBe(
      "Invalid filter for field 'tags': Filter type 'string' is not supported for dimension type 'string[]'. Expected 'arrayOptions'.",
    );
    expect((await refused({ view: 'observations', metrics: count, filters: [{ column: 'toolNames', operator: '=', value: 'x', type: 'string' }] })).body.message).toBe(
      "Invalid filter for field 'toolNames': Filter type 'string' is not supported for dimension type 'arrayString'. Expected 'arrayOptions'.",
    );
    expect((await refused({ view: 'observations', metrics: count, filters: [{ column: 'sessionId', operator: 'any of', value: ['s'], type: 'arrayOptions' }] })).body.message).toBe(
      "Invalid filter for field 'sessionId': Filter type 'arrayOptions' is not supported for dimension type 'string'. Expected 'string' or 'stringOptions'.",
    );
  });

  it('answers 422 (the service’s resource limit) for an answer too large to give', async () => {
    const answer = await refused({ view: 'observations', metrics: count, timeDimension: { granularity: 'minute' }, fromTimestamp: '2025-01-01T00:00:00Z', toTimestamp: '2026-03-02T00:00:00Z' });
    expect(answer).toEqual({ status: 422, body: { message: V1_METRICS_RESOURCE_MESSAGE, error: 'Request timed out' } });
    // A row limit bounds it.
    const limited = await metrics({ view: 'observations', metrics: count, timeDimension: { granularity: 'minute' }, fromTimestamp: '2025-01-01T00:00:00Z', config: { row_limit: 2 } });
    expect(limited.body.data).toHaveLength(2);
  }, 20_000);
});

// metrics/index.ts is marked rejectInEventsOnlyMode: dual answers as legacy does, events_only
// answers 404 before authentication.
describe('GET /api/public/metrics by write mode', () => {
  const servers: Partial<Record<'dual' | 'events_only', RunningServer>> = {};
  beforeAll(async () => {
    servers.dual = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
    servers.events_only = await startServer({ port: 0, ephemeral: true, writeMode: 'events_only' });
  });
  afterAll(async () => {
    await servers.dual?.close();
    await servers.events_only?.close();
  });

  it('answers in dual mode, and is removed in events_only mode before the key is checked', async () => {
    const query = path({ ...DAY, view: 'traces', metrics: [...count, { measure: 'totalCost', aggregation: 'sum' }] });
    const dual = apiCaller(() => servers.dual!);
    // No GROUP BY without dimensions: one row over no traces, count 0 and a NULL sum of costs.
    expect(await dual('GET', query)).toEqual({ status: 200, body: { data: [{ count_count: '0', sum_totalCost: null }] } });
    expect((await dual('GET', query, undefined, { auth: null, unchecked: true })).status).toBe(401);
    const eventsOnly = apiCaller(() => servers.events_only!);
    expect(await eventsOnly('GET', query, undefined, { auth: null, unchecked: true })).toEqual({ status: 404, body: { message: EVENTS_ONLY_REMOVED_MESSAGE } });
  });
});
