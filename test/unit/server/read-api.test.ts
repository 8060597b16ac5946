// The read API over recorded traffic (API.md sections 5–7), with records seeded through the store:
// a trace by id with field groups, the traces list, deletion, v1 and v2 observations, v2 metrics,
// and scores (POST with either auth, the v3 list).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../../../src/server/records.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { aggregate } from '../../../src/core/metrics/index.js';
import { Store } from '../../../src/server/store/index.js';
import { tempDir } from '../../helpers/cli.js';
import { apiCaller } from '../../helpers/server-api.js';

let server: RunningServer;
let projectId: string;
const call = apiCaller(() => server);
const get = async (path: string) => call('GET', path, undefined, { unchecked: true });

const T0 = '2026-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
const gpt4o = builtInDefinitions().find((d) => d.modelName === 'gpt-4o' && d.inputPrice !== null)!;

function trace(id: string, fields: Partial<TraceRecord>): TraceRecord {
  return {
    id, projectId, timestamp: T0, name: null, userId: null, sessionId: null, release: null, version: null, environment: 'default',
    public: false, bookmarked: false, tags: [], metadata: {}, input: null, output: null, createdAt: T0, updatedAt: T0, ...fields,
  };
}

function observation(id: string, fields: Partial<ObservationRecord>): ObservationRecord {
  return {
    id, projectId, traceId: null, parentObservationId: null, type: 'SPAN', name: null, environment: 'default', startTime: T0, endTime: null,
    completionStartTime: null, level: 'DEFAULT', statusMessage: null, version: null, input: null, output: null, metadata: {},
    providedModelName: null, internalModelId: null, modelParameters: null, providedUsageDetails: {}, providedCostDetails: {},
    usageDetails: {}, costDetails: {}, totalCost: null, usagePricingTierId: null, usagePricingTierName: null, promptId: null,
    promptName: null, promptVersion: null, createdAt: T0, updatedAt: T0, ...fields,
  };
}

function score(id: string, fields: Partial<ScoreRecord>): ScoreRecord {
  return {
    id, projectId, timestamp: T0, name: 'quality', value: 0.9, stringValue: null, dataType: 'NUMERIC', source: 'API', traceId: null,
    observationId: null, sessionId: null, datasetRunId: null, comment: null, metadata: {}, environment: 'default', configId: null,
    queueId: null, authorUserId: null, createdAt: T0, updatedAt: T0, ...fields,
  };
}

beforeAll(async () => {
  const dir = tempDir();
  const { store } = Store.open({ dataDir: dir, now: () => new Date(T0) });
  projectId = store.project.id;
  store.write((tx) => {
    tx.traces.put(trace('t1', { name: 'chat', userId: 'u1', sessionId: 's1', tags: ['a', 'b'], environment: 'production', input: { q: 'hi' }, output: 'hello', metadata: { k: 'v' }, release: 'r1' }));
    tx.traces.put(trace('t2', { name: 'batch', userId: 'u2', tags: ['a'], timestamp: at(3600), createdAt: at(3600), updatedAt: at(3600) }));
    tx.traces.put(trace('t3', { name: 'old', userId: 'u1', timestamp: '2026-02-27T08:00:00.000Z' }));
    tx.observations.put(observation('o1', { traceId: 't1', name: 'root', environment: 'production', startTime: T0, endTime: at(2) }));
    tx.observations.put(
      observation('o2', {
        traceId: 't1', parentObservationId: 'o1', type: 'GENERATION', name: 'llm', environment: 'production', startTime: at(0.25), endTime: at(1.5),
        completionStartTime: at(0.75), providedModelName: 'gpt-4o', internalModelId: gpt4o.id, input: [{ role: 'user', content: 'hi' }], output: 'hello',
        usageDetails: { input: 10, input_cached_tokens: 2, output: 5, total: 17 }, costDetails: { input: 0.000025, output: 0.00005, total: 0.000075 },
        totalCost: 0.000075, usagePricingTierName: 'Standard', promptName: 'greeting', promptVersion: 2,
      }),
    );
    tx.observations.put(
      observation('o3', {
        traceId: 't2', type: 'GENERATION', name: 'llm', startTime: at(3600), endTime: at(3603), providedModelName: 'claude-x',
        usageDetails: { input: 100, output: 50, total: 150 }, costDetails: { total: 0.001 }, totalCost: 0.001, metadata: { step: 2 },
      }),
    );
    tx.scores.put(score('sc1', { traceId: 't1', value: 0.9 }));
    tx.scores.put(score('sc2', { traceId: 't1', observationId: 'o2', name: 'ok', dataType: 'BOOLEAN', value: 1, stringValue: 'True', timestamp: at(1) }));
    tx.scores.put(score('sc3', { traceId: 't2', name: 'label', dataType: 'CATEGORICAL', value: null, stringValue: 'good', timestamp: at(2), comment: 'fine' }));
  });
  store.close();
  server = await startServer({ port: 0, dataDir: dir });
});
afterAll(() => server.close());

describe('GET /api/public/traces/{id}', () => {
  it('returns the trace with its observations (v1 shape, default-tier prices), scores, latency and cost', async () => {
    const answer = await get('/api/public/traces/t1');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: 't1', projectId, name: 'chat', userId: 'u1', sessionId: 's1', tags: ['a', 'b'], environment: 'production', input: { q: 'hi' },
      output: 'hello', metadata: { k: 'v' }, externalId: null, htmlPath: `/project/${projectId}/traces/t1`, latency: 2, totalCost: 0.000075,
    });
    expect(answer.body.scores.map((s: { id: string }) => s.id).sort()).toEqual(['sc1', 'sc2']);
    const generation = answer.body.observations.find((o: { id: string }) => o.id === 'o2');
    expect(generation).toMatchObject({
      type: 'GENERATION', model: 'gpt-4o', modelId: gpt4o.id, inputPrice: gpt4o.inputPrice, outputPrice: gpt4o.outputPrice,
      usageDetails: { input: 10, input_cached_tokens: 2, output: 5, total: 17 }, promptTokens: 12, completionTokens: 5, totalTokens: 17,
      usage: { unit: 'TOKENS', input: 12, output: 5, total: 17 }, calculatedInputCost: 0.000025, calculatedOutputCost: 0.00005,
      calculatedTotalCost: 0.000075, latency: 1.25, timeToFirstToken: 0.5, promptName: 'greeting', promptVersion: 2, unit: 'TOKENS',
    });
    // A span matched to no model: prices 0 on this route, no costs.
    expect(answer.body.observations.find((o: { id: string }) => o.id === 'o1')).toMatchObject({ inputPrice: 0, calculatedInputCost: null, calculatedTotalCost: 0 });
  });

  it('leaves out what the fields groups do not ask for', async () => {
    const answer = await get('/api/public/traces/t1?fields=core,nonsense');
    expect(answer.body).toMatchObject({ observations: [], scores: [], latency: -1, totalCost: -1, metadata: {} });
    expect('input' in answer.body).toBe(false);
    const metrics = await get('/api/public/traces/t1?fields=metrics');
    expect(metrics.body).toMatchObject({ observations: [], latency: 2, totalCost: 0.000075 });
  });

  it('answers 404 for an unknown trace', async () => {
    expect(await get('/api/public/traces/nope')).toEqual({ status: 404, body: { message: 'Trace nope not found within authorized project', error: 'LangfuseNotFoundError' } });
  });
});

describe('GET /api/public/traces', () => {
  const ids = async (query: string) => (await get(`/api/public/traces${query}`)).body.data.map((t: { id: string }) => t.id);

  it('lists newest first with ids of observations and scores, latency and cost, and page meta', async () => {
    const answer = await get('/api/public/traces');
    expect(answer.body.meta).toEqual({ page: 1, limit: 50, totalItems: 3, totalPages: 1 });
    expect(answer.body.data.map((t: { id: string }) => t.id)).toEqual(['t2', 't1', 't3']);
    expect(answer.body.data[1]).toMatchObject({ id: 't1', observations: expect.arrayContaining(['o1', 'o2']), scores: expect.arrayContaining(['sc1', 'sc2']), latency: 2, totalCost: 0.000075, externalId: null });
    expect(answer.body.data[0]).toMatchObject({ latency: 3, totalCost: 0.001 });
    expect(answer.body.data[2]).toMatchObject({ observations: [], latency: 0, totalCost: 0 });
  });

  it('filters by user, tags (all of them), environment, name and time, and orders and pages', async () => {
    expect(await ids('?userId=u1')).toEqual(['t1', 't3']);
    expect(await ids('?tags=a')).toEqual(['t2', 't1']);
    expect(await ids('?tags=a&tags=b')).toEqual(['t1']);
    expect(await ids('?environment=production&environment=staging')).toEqual(['t1']);
    expect(await ids('?name=batch')).toEqual(['t2']);
    expect(await ids(`?fromTimestamp=${encodeURIComponent('2026-03-01T00:00:00Z')}&toTimestamp=${encodeURIComponent(at(3600))}`)).toEqual(['t1']);
    expect(await ids('?orderBy=name.asc')).toEqual(['t2', 't1', 't3']);
    const paged = await get('/api/public/traces?limit=1&page=2');
    expect(paged.body.data.map((t: { id: string }) => t.id)).toEqual(['t1']);
    expect(paged.body.meta).toEqual({ page: 2, limit: 1, totalItems: 3, totalPages: 3 });
    expect((await get('/api/public/traces?fields=core')).body.data[1]).toMatchObject({ observations: [], scores: [], latency: -1, totalCost: -1, metadata: {} });
  });

  it('refuses a bad orderBy, limit or timestamp with "Invalid request data"', async () => {
    for (const query of ['?orderBy=cost.asc', '?orderBy=name.up', '?limit=101', '?fromTimestamp=yesterday']) {
      const answer = await get(`/api/public/traces${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Invalid request data');
    }
  });
});

describe('GET /api/public/observations (v1)', () => {
  it('gets one with its matched model prices, and lists with filters', async () => {
    const one = await get('/api/public/observations/o2');
    expect(one.body).toMatchObject({ id: 'o2', traceId: 't1', model: 'gpt-4o', inputPrice: gpt4o.inputPrice, totalPrice: gpt4o.totalPrice });
    expect((await get('/api/public/observations/o3')).body).toMatchObject({ inputPrice: null, modelId: null });
    expect(await get('/api/public/observations/none')).toEqual({ status: 404, body: { message: 'Observation not found within authorized project', error: 'LangfuseNotFoundError' } });
    const list = await get('/api/public/observations?type=GENERATION');
    expect(list.body.data.map((o: { id: string }) => o.id)).toEqual(['o3', 'o2']);
    expect(list.body.meta).toEqual({ page: 1, limit: 50, totalItems: 2, totalPages: 1 });
    expect((await get('/api/public/observations?traceId=t1&userId=u1')).body.meta.totalItems).toBe(2);
    expect((await get('/api/public/observations?type=NOPE')).status).toBe(400);
  });
});

describe('GET /api/public/v2/observations', () => {
  it('returns core and basic fields by default, with empty enrichment fields', async () => {
    const answer = await get('/api/public/v2/observations');
    expect(answer.body.meta).toEqual({});
    expect(answer.body.data.map((o: { id: string }) => o.id)).toEqual(['o3', 'o2', 'o1']);
    expect(Object.keys(answer.body.data[1]).sort()).toEqual(
      ['id', 'traceId', 'startTime', 'endTime', 'projectId', 'parentObservationId', 'type', 'name', 'level', 'statusMessage', 'version', 'environment', 'bookmarked', 'public', 'userId', 'sessionId', 'isRootObservation', 'modelId', 'inputPrice', 'outputPrice', 'totalPrice'].sort(),
    );
    expect(answer.body.data[1]).toMatchObject({ userId: 'u1', sessionId: 's1', isRootObservation: false, modelId: null, inputPrice: null });
  });

  it('gives prices as decimal strings with the model group, and input and output as raw strings with io', async () => {
    const answer = await get('/api/public/v2/observations?fields=core,model,usage,io,prompt,metrics,trace_context&traceId=t1&type=GENERATION');
    const [generation] = answer.body.data;
    expect(generation).toMatchObject({
      providedModelName: 'gpt-4o', internalModelId: gpt4o.id, modelId: gpt4o.id, totalCost: 0.000075, usagePricingTierName: 'Standard',
      input: '[{"role":"user","content":"hi"}]', output: 'hello', promptName: 'greeting', latency: 1.25, traceName: 'chat', tags: ['a', 'b'], release: 'r1',
    });
    expect(typeof generation.inputPrice).toBe('string');
    expect(Number(generation.inputPrice)).toBe(gpt4o.inputPrice);
  });

  it('pages by cursor in (startTime, traceId, id) order, and refuses parseIoAsJson=true', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const answer = await get(`/api/public/v2/observations?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...answer.body.data.map((o: { id: string }) => o.id));
      cursor = answer.body.meta.cursor;
    } while (cursor && seen.length < 10);
    expect(seen).toEqual(['o3', 'o2', 'o1']);
    expect(JSON.parse(Buffer.from((await get('/api/public/v2/observations?limit=1')).body.meta.cursor, 'base64').toString())).toEqual({ lastStartTimeTo: at(3600), lastTraceId: 't2', lastId: 'o3' });
    const refused = await get('/api/public/v2/observations?parseIoAsJson=true');
    expect(refused.status).toBe(400);
    expect(refused.body.error[0].message).toMatch(/^parseIoAsJson=true is no longer supported/);
    expect((await get('/api/public/v2/observations?limit=1001')).status).toBe(400);
    expect((await get('/api/public/v2/observations?isRootObservation=true')).body.data.map((o: { id: string }) => o.id)).toEqual(['o3', 'o1']);
  });
});

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
      { providedModelName: null, sum_totalCost: null, sum_inputTokens: '0', sum_totalTokens: '0', count_count: '1' },
    ]);
  });

  it('buckets by hour over the whole range, filters, and takes percentiles of latency', async () => {
    const answer = await metrics({
      metrics: [{ measure: 'latency', aggregation: 'p50' }, { measure: 'count', aggregation: 'count' }],
      timeDimension: { granularity: 'hour' },
      filters: [{ column: 'type', operator: '=', value: 'GENERATION', type: 'string' }],
    });
    expect(answer.body.data).toHaveLength(24);
    expect(answer.body.data[0]).toEqual({ time_dimension: '2026-03-01T00:00:00Z', p50_latency: 0, count_count: '0' });
    expect(answer.body.data[10]).toEqual({ time_dimension: '2026-03-01T10:00:00Z', p50_latency: 1250, count_count: '1' });
    expect(answer.body.data[11]).toEqual({ time_dimension: '2026-03-01T11:00:00Z', p50_latency: 3000, count_count: '1' });
    const byUser = await metrics({ dimensions: [{ field: 'userId' }], metrics: [{ measure: 'count', aggregation: 'count' }], filters: [{ column: 'userId', operator: 'any of', value: ['u1'], type: 'stringOptions' }] });
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
    expect((await metrics({ metrics: count, dimensions: [{ field: 'release' }] })).status).toBe(400);
    expect((await metrics({ metrics: [{ measure: 'traceId', aggregation: 'histogram' }] })).body.message).toBe('The histogram aggregation takes numeric measures only');
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
});

describe('scores', () => {
  it('creates a score with Basic auth or the public key alone, and refuses a body without a subject', async () => {
    const created = await call('POST', '/api/public/scores', { name: 'helpful', value: 1, dataType: 'BOOLEAN', traceId: 't1', observationId: 'o2' });
    expect(created.status).toBe(200);
    expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
    const bearer = await call('POST', '/api/public/scores', { id: 'sc-sdk', name: 'sdk', value: 'great', traceId: 't2' }, { auth: `Bearer ${server.keys.publicKey}` });
    expect(bearer).toEqual({ status: 200, body: { id: 'sc-sdk' } });
    const refused = await call('POST', '/api/public/scores', { name: 'x', value: 1 }, { unchecked: true });
    expect(refused.status).toBe(400);
    expect(refused.body.error[0].message).toBe('Provide exactly one of the following: traceId (with optional observationId), sessionId or datasetRunId. ObservationId requires traceId.');
    expect((await call('POST', '/api/public/scores', { name: 'x', value: 2, dataType: 'BOOLEAN', traceId: 't1' }, { unchecked: true })).status).toBe(400);
  });

  it('sends a score through ingestion as a score-create event: a second POST of an id merges into it, an unknown config drops it', async () => {
    const first = { id: 'sc-merged', name: 'review', value: 0.4, traceId: 'trace-not-listed', comment: 'first pass', metadata: { reviewer: 'ann', scores: { a: 1 } } };
    expect(await call('POST', '/api/public/scores', first)).toEqual({ status: 200, body: { id: 'sc-merged' } });
    const second = { id: 'sc-merged', name: 'review', value: 0.8, traceId: 'trace-not-listed', metadata: { scores: { b: 2 } }, environment: 'Langfuse-Staging' };
    expect(await call('POST', '/api/public/scores', second)).toEqual({ status: 200, body: { id: 'sc-merged' } });
    const stored = (await get('/api/public/v3/scores?id=sc-merged&fields=core,details')).body.data;
    // A replacement would have lost the comment and the first metadata; the environment is the first one's, as the worker keeps it.
    expect(stored).toEqual([expect.objectContaining({ value: 0.8, comment: 'first pass', metadata: { reviewer: 'ann', scores: { a: 1, b: 2 } }, environment: 'default' })]);

    const unknownConfig = await call('POST', '/api/public/scores', { id: 'sc-config', name: 'q', value: 1, traceId: 'trace-not-listed', configId: 'no-such-config' });
    expect(unknownConfig).toEqual({ status: 200, body: { id: 'sc-config' } });
    expect((await get('/api/public/v3/scores?id=sc-config')).body.data).toEqual([]);
  });

  it('lists scores newest first by cursor, the value typed by dataType, with field groups', async () => {
    const first = await get('/api/public/v3/scores?limit=2&traceId=t1,t2&fields=core,details,subject');
    expect(first.body.meta.limit).toBe(2);
    const all = [...first.body.data];
    let cursor = first.body.meta.cursor;
    while (cursor) {
      const next = await get(`/api/public/v3/scores?limit=2&traceId=t1,t2&fields=core,details,subject&cursor=${cursor}`);
      all.push(...next.body.data);
      cursor = next.body.meta.cursor;
    }
    const byId = Object.fromEntries(all.map((s: { id: string }) => [s.id, s]));
    expect(byId.sc2).toMatchObject({ dataType: 'BOOLEAN', value: true, subject: { kind: 'observation', id: 'o2', traceId: 't1' } });
    expect(byId.sc3).toMatchObject({ dataType: 'CATEGORICAL', value: 'good', comment: 'fine', subject: { kind: 'trace', id: 't2' } });
    expect(byId['sc-sdk']).toMatchObject({ value: 'great', dataType: 'CATEGORICAL' });
    expect(all.length).toBe(5);
    const numeric = await get('/api/public/v3/scores?dataType=numeric&value=0.9');
    expect(numeric.body.data.map((s: { id: string }) => s.id)).toEqual(['sc1']);
    expect(Object.keys(numeric.body.data[0]).sort()).toEqual(['createdAt', 'dataType', 'environment', 'id', 'name', 'projectId', 'source', 'timestamp', 'updatedAt', 'value']);
    expect((await get('/api/public/v3/scores?userId=u1')).status).toBe(400);
    expect((await get('/api/public/v3/scores?unknown=1')).status).toBe(400);
  });
});

describe('DELETE traces', () => {
  it('deletes a trace with its observations and scores, one or many', async () => {
    expect(await call('DELETE', '/api/public/traces/t2')).toEqual({ status: 200, body: { message: 'Trace deleted successfully' } });
    expect((await get('/api/public/traces/t2')).status).toBe(404);
    expect((await get('/api/public/observations/o3')).status).toBe(404);
    expect((await get('/api/public/v3/scores?traceId=t2')).body.data).toEqual([]);
    const empty = await call('DELETE', '/api/public/traces', { traceIds: [] }, { unchecked: true });
    expect(empty.body.error[0].message).toBe('At least 1 traceId is required.');
    expect(await call('DELETE', '/api/public/traces', { traceIds: ['t1', 't3', 'unknown'] })).toEqual({ status: 200, body: { message: 'Traces deleted successfully' } });
    expect((await get('/api/public/traces')).body.data).toEqual([]);
  });
});
