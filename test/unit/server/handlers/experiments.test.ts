// GET /api/public/experiments and /experiment-items: the query checked as
// web/src/features/public-api/types/experiments.ts checks it, the cases of
// web/src/__tests__/server/experiments-public-api.servertest.ts, then the answer for a project
// without experiments (this server keeps none); 404 in legacy mode (v4 preview off).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { V4_ONLY_MESSAGES } from '../../../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller } from '../../../helpers/server-api.js';

let eventsOnly: RunningServer;
let dual: RunningServer;
let legacy: RunningServer;
const call = apiCaller(() => eventsOnly);
const get = (path: string, target = eventsOnly) => call('GET', path, undefined, { target, unchecked: true });
const from = `fromStartTime=${encodeURIComponent('2026-03-01T00:00:00.000Z')}`;
const cursor = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  [eventsOnly, dual, legacy] = await Promise.all([
    startServer({ port: 0, ephemeral: true }),
    startServer({ port: 0, ephemeral: true, writeMode: 'dual' }),
    startServer({ port: 0, ephemeral: true, writeMode: 'legacy' }),
  ]);
});
afterAll(async () => {
  await Promise.all([eventsOnly.close(), dual.close(), legacy.close()]);
});

describe.each([
  ['/api/public/experiments', 'fields=core,metadata,scores', 'fields=id', 'datasetId', V4_ONLY_MESSAGES.experiments],
  ['/api/public/experiment-items', 'fields=core,dataset,io,metadata,itemMetadata,experimentMetadata,scores', 'fields=experimentScores', 'experimentName', V4_ONLY_MESSAGES.experimentItems],
])('GET %s', (route, allFields, unknownField, filterColumn, legacyMessage) => {
  it('answers an empty page in events_only and dual mode', async () => {
    for (const target of [eventsOnly, dual]) {
      expect(await get(`${route}?${from}`, target)).toEqual({ status: 200, body: { data: [], meta: {} } });
      const filter = encodeURIComponent(JSON.stringify([{ type: 'stringOptions', column: filterColumn, operator: 'any of', value: ['x'] }]));
      const valid = cursor({ v: 1, lastTime: '2026-03-01T00:00:00Z', lastTraceId: 't', lastId: 'o', lastExperimentId: 'e' });
      expect((await get(`${route}?${from}&${allFields}&limit=100&scoreLimit=50&filter=${filter}&cursor=${valid}`, target)).status).toBe(200);
    }
  });

  it('checks the query first', async () => {
    const missing = await get(route);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ message: 'Invalid request data', error: [{ path: ['fromStartTime'] }] });
    expect((await get(`${route}?${from}&${unknownField}`)).status).toBe(400);
    expect((await get(`${route}?${from}&limit=101`)).status).toBe(400);
    expect((await get(`${route}?${from}&scoreLimit=51`)).status).toBe(400);
    const outside = encodeURIComponent(JSON.stringify([{ type: 'stringOptions', column: 'startTime', operator: 'any of', value: ['2026-06-25T00:00:00.000Z'] }]));
    expect((await get(`${route}?${from}&filter=${outside}`)).status).toBe(400);
    expect(await get(`${route}?${from}&filter=nope`)).toEqual({ status: 400, body: { message: 'Invalid JSON in filter parameter', error: 'InvalidRequestError' } });
    expect(await get(`${route}?${from}&cursor=not-json`)).toEqual({ status: 400, body: { message: 'Invalid cursor format', error: 'InvalidRequestError' } });
    const unknownVersion = await get(`${route}?${from}&cursor=${cursor({ v: 3, lastTime: '2026-03-01T00:00:00Z', lastExperimentId: 'e' })}`);
    expect(unknownVersion.status).toBe(400);
    expect(unknownVersion.body.message).toBe('Invalid request data');
  });

  it('answers 404 in legacy mode, after the key and the query', async () => {
    expect(await get(`${route}?${from}`, legacy)).toEqual({ status: 404, body: { message: legacyMessage, error: 'LangfuseNotFoundError' } });
    expect((await get(route, legacy)).status).toBe(400);
    expect((await call('GET', `${route}?${from}`, undefined, { target: legacy, auth: null, unchecked: true })).status).toBe(401);
  });
});
