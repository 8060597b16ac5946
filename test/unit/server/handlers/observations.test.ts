// The v1 and v2 observations of the read API (API.md section 6), over the records of
// support/read-api.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V4_ONLY_MESSAGES } from '../../../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller } from '../../../helpers/server-api.js';
import { at, get, gpt4o, useReadApi } from './support/read-api.js';

// v1 and v2 lists side by side: dual mode.
useReadApi({ writeMode: 'dual' });

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

// web/src/pages/api/public/v2/observations/index.ts: with the v4 preview off (a legacy
// deployment) the route answers 404 after authentication and the query's check.
describe('GET /api/public/v2/observations in legacy mode', () => {
  let legacy: RunningServer;
  const call = apiCaller(() => legacy);
  beforeAll(async () => {
    legacy = await startServer({ port: 0, ephemeral: true, writeMode: 'legacy' });
  });
  afterAll(() => legacy.close());

  it('answers 404 once the key and the query pass', async () => {
    expect(await call('GET', '/api/public/v2/observations', undefined, { unchecked: true })).toEqual({ status: 404, body: { message: V4_ONLY_MESSAGES.observations, error: 'LangfuseNotFoundError' } });
    expect((await call('GET', '/api/public/v2/observations?limit=1001', undefined, { unchecked: true })).status).toBe(400);
    expect((await call('GET', '/api/public/v2/observations', undefined, { auth: null, unchecked: true })).status).toBe(401);
    expect((await call('GET', '/api/public/observations')).status).toBe(200);
  });
});
