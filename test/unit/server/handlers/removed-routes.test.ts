// The v3 routes in each write mode. In events_only mode every method marked rejectInEventsOnlyMode
// (web/src/pages/api/public/**) answers createAuthedProjectAPIRoute's 404 before authentication,
// after CORS, the body parser and the method check; the methods left unmarked still work. In
// legacy and dual mode they answer as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_ONLY_REMOVED_MESSAGE } from '../../../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller, basicAuth } from '../../../helpers/server-api.js';

let eventsOnly: RunningServer;
let dual: RunningServer;
let legacy: RunningServer;
const call = apiCaller(() => eventsOnly);

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

const REMOVED = { status: 404, body: { message: EVENTS_ONLY_REMOVED_MESSAGE } };

// Method and path of every route the mode turns off, with the Langfuse file that marks it.
const ROUTES: Array<[string, string]> = [
  ['GET', '/api/public/traces'], // traces/index.ts
  ['POST', '/api/public/traces'],
  ['GET', '/api/public/traces/t1'], // traces/[traceId].ts
  ['GET', '/api/public/observations'], // observations/index.ts
  ['GET', '/api/public/observations/o1'], // observations/[observationId].ts
  ['GET', '/api/public/sessions'], // sessions/index.ts
  ['GET', '/api/public/sessions/s1'], // sessions/[sessionId].ts
  ['GET', '/api/public/metrics'], // metrics/index.ts
  ['GET', '/api/public/metrics/daily'], // metrics/daily.ts
  ['GET', '/api/public/scores'], // scores/index.ts
  ['GET', '/api/public/scores/sc1'], // scores/[scoreId].ts
  ['GET', '/api/public/v2/scores'], // v2/scores/index.ts
  ['GET', '/api/public/v2/scores/sc1'], // v2/scores/[scoreId].ts
  ['GET', '/api/public/dataset-run-items'], // dataset-run-items.ts
  ['GET', '/api/public/datasets/d1/runs'], // datasets/[name]/runs/index.ts
  ['GET', '/api/public/datasets/d1/runs/r1'], // datasets/[name]/runs/[runName].ts
  ['DELETE', '/api/public/datasets/d1/runs/r1'],
  ['POST', '/api/public/generations'], // generations.ts
  ['PATCH', '/api/public/generations'],
  ['POST', '/api/public/spans'], // spans.ts
  ['PATCH', '/api/public/spans'],
  ['POST', '/api/public/events'], // events.ts
];

describe('events_only mode', () => {
  it('answers every removed route with the 404 of createAuthedProjectAPIRoute, with or without a key', async () => {
    for (const [method, path] of ROUTES) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : {};
      expect(await call(method, path, body, { auth: null, unchecked: true }), `${method} ${path}`).toEqual(REMOVED);
      expect(await call(method, path, body, { unchecked: true }), `${method} ${path}`).toEqual(REMOVED);
    }
  });

  it('answers after CORS, the body parser and the method check', async () => {
    const preflight = await fetch(`${eventsOnly.url}/api/public/traces`, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' } });
    expect(preflight.status).toBe(204);
    const removed = await fetch(`${eventsOnly.url}/api/public/sessions`, { headers: { origin: 'https://app.example' } });
    expect([removed.status, removed.headers.get('access-control-allow-origin')]).toEqual([404, 'https://app.example']);
    // withMiddlewares: a method the service's route does not have is a 405 first.
    expect(await call('PUT', '/api/public/sessions', {}, { unchecked: true })).toEqual({ status: 405, body: { message: 'Method not allowed', error: 'MethodNotAllowedError' } });
    // Next.js parses the body before the route runs.
    const badJson = await fetch(`${eventsOnly.url}/api/public/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    expect([badJson.status, await badJson.text()]).toEqual([400, 'Invalid JSON']);
  });

  it('keeps the unmarked methods: trace deletion, score creation', async () => {
    expect(await call('DELETE', '/api/public/traces/t1')).toEqual({ status: 200, body: { message: 'Trace deleted successfully' } });
    expect(await call('DELETE', '/api/public/traces', { traceIds: ['t1'] })).toEqual({ status: 200, body: { message: 'Traces deleted successfully' } });
    expect((await call('POST', '/api/public/scores', { traceId: 't1', name: 'quality', value: 1 })).status).toBe(200);
  });
});

describe('legacy and dual mode', () => {
  it('keep the v3 routes: they ask for a key, and answer with it', async () => {
    for (const target of [dual, legacy]) {
      expect(await call('GET', '/api/public/traces', undefined, { target, auth: null, unchecked: true })).toEqual({ status: 401, body: { message: 'No authorization header' } });
      expect((await call('GET', '/api/public/traces', undefined, { target })).status).toBe(200);
      expect((await call('GET', '/api/public/observations', undefined, { target })).status).toBe(200);
      expect(await call('GET', '/api/public/traces/none', undefined, { target, unchecked: true })).toEqual({
        status: 404,
        body: { message: 'Trace none not found within authorized project', error: 'LangfuseNotFoundError' },
      });
    }
  });

  it('leave the routes this server does not implement unanswered, as before', async () => {
    for (const target of [dual, legacy]) {
      const answer = await fetch(`${target.url}/api/public/sessions`, { headers: { authorization: basicAuth(target) } });
      expect([answer.status, await answer.json()]).toEqual([404, { message: 'Route not found: GET /api/public/sessions', error: 'LangfuseNotFoundError' }]);
    }
  });
});
