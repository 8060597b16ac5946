// GET /api/public/health, with failIfNoRecentEvents looking where the write mode writes
// (web/src/features/public-api/server/health-service.ts): events in events_only mode, traces and
// then observations in the others. Status 503 with the reason, 200 "OK" otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION } from '../../../../src/server/handlers/health.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller } from '../../../helpers/server-api.js';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000).toISOString();
let eventsOnly: RunningServer;
let dual: RunningServer;
const call = apiCaller(() => dual);
const health = (target: RunningServer) => call('GET', '/api/public/health?failIfNoRecentEvents=true', undefined, { target, auth: null, unchecked: true });
const stale = (status: string) => ({ status: 503, body: { status, version: API_VERSION } });
const OK = { status: 200, body: { status: 'OK', version: API_VERSION } };

beforeAll(async () => {
  [eventsOnly, dual] = await Promise.all([startServer({ port: 0, ephemeral: true, now: () => NOW }), startServer({ port: 0, ephemeral: true, writeMode: 'dual', now: () => NOW })]);
});
afterAll(async () => {
  await Promise.all([eventsOnly.close(), dual.close()]);
});

describe('GET /api/public/health?failIfNoRecentEvents=true', () => {
  it('events_only: looks for events (observations) of the last 3 minutes', async () => {
    expect(await health(eventsOnly)).toEqual(stale('No events within the last 3 minutes'));
    const span = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 's', startTimeUnixNano: `${(NOW.getTime() - 60_000) * 1_000_000}`, endTimeUnixNano: `${NOW.getTime() * 1_000_000}` };
    await call('POST', '/api/public/otel/v1/traces', { resourceSpans: [{ scopeSpans: [{ scope: { name: 'app' }, spans: [span] }] }] }, { target: eventsOnly, unchecked: true });
    expect(await health(eventsOnly)).toEqual(OK);
    expect((await call('GET', '/api/public/health', undefined, { target: eventsOnly, auth: null })).body.status).toBe('OK');
  });

  it('legacy and dual: looks for traces, then observations', async () => {
    expect(await health(dual)).toEqual(stale('No traces within the last 3 minutes'));
    await call('POST', '/api/public/ingestion', { batch: [{ id: 'e1', type: 'trace-create', timestamp: at(-10), body: { id: 't1', timestamp: at(-10) } }] });
    expect(await health(dual)).toEqual(stale('No observations within the last 3 minutes'));
    await call('POST', '/api/public/ingestion', { batch: [{ id: 'e2', type: 'span-create', timestamp: at(-400), body: { id: 'old', traceId: 't1', startTime: at(-400) } }] });
    expect(await health(dual)).toEqual(stale('No observations within the last 3 minutes'));
    await call('POST', '/api/public/ingestion', { batch: [{ id: 'e3', type: 'span-create', timestamp: at(-5), body: { id: 'new', traceId: 't1', startTime: at(-5) } }] });
    expect(await health(dual)).toEqual(OK);
  });
});
