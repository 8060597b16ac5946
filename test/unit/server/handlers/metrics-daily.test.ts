// The daily metrics (GET /api/public/metrics/daily) in legacy mode, over the records of
// support/read-api.ts. Expected answers follow the service's query (packages/shared/src/server/
// repositories/daily-metrics.ts, with the filters of web/src/features/public-api/server/
// dailyMetrics.ts) and its servertest (web/src/__tests__/server/daily-metrics-api.servertest.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_ONLY_REMOVED_MESSAGE } from '../../../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { apiCaller } from '../../../helpers/server-api.js';
import { get, useReadApi } from './support/read-api.js';

useReadApi({ writeMode: 'legacy' });

const daily = async (query = '') => {
  const answer = await get(`/api/public/metrics/daily${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};
const byModel = (usage: Array<{ model: string | null }>) => [...usage].sort((a, b) => String(a.model).localeCompare(String(b.model)));

// o1 (no model) and o2 (gpt-4o) belong to t1 (chat, u1, production, 10:00), o3 (claude-x) to t2
// (batch, u2, 11:00), all on 2026-03-01; t3 (old, u1) is on 2026-02-27, without observations.
describe('GET /api/public/metrics/daily', () => {
  it('answers each day, newest first: traces of the day, observations per model, usage and cost', async () => {
    const answer = await daily();
    expect(answer.meta).toEqual({ page: 1, limit: 50, totalItems: 2, totalPages: 1 });
    expect(answer.data.map((d: { date: string }) => d.date)).toEqual(['2026-03-01', '2026-02-27']);
    const [first, second] = answer.data;
    expect(first).toMatchObject({ countTraces: 2, countObservations: 3 });
    expect(first.totalCost).toBeCloseTo(0.001075, 12);
    expect(byModel(first.usage)).toEqual([
      { model: 'claude-x', inputUsage: 100, outputUsage: 50, totalUsage: 150, totalCost: 0.001, countObservations: 1, countTraces: 1 },
      { model: 'gpt-4o', inputUsage: 12, outputUsage: 5, totalUsage: 17, totalCost: 0.000075, countObservations: 1, countTraces: 1 },
      { model: null, inputUsage: 0, outputUsage: 0, totalUsage: 0, totalCost: 0, countObservations: 1, countTraces: 1 },
    ]);
    expect(second).toEqual({ date: '2026-02-27', countTraces: 1, countObservations: 0, totalCost: 0, usage: [] });
  });

  it('filters by the trace’s user, name, tags and environment (the observation’s environment too)', async () => {
    const user = await daily('?userId=u1');
    expect(user.data.map((d: { date: string; countTraces: number; countObservations: number }) => [d.date, d.countTraces, d.countObservations])).toEqual([
      ['2026-03-01', 1, 2],
      ['2026-02-27', 1, 0],
    ]);
    const named = await daily('?traceName=batch');
    expect(named.data).toEqual([{ date: '2026-03-01', countTraces: 1, countObservations: 1, totalCost: 0.001, usage: [expect.objectContaining({ model: 'claude-x' })] }]);
    expect(named.meta.totalItems).toBe(1);
    expect((await daily('?tags=a,b')).data.map((d: { countObservations: number }) => d.countObservations)).toEqual([2]);
    const production = await daily('?environment=production');
    expect(production.data.map((d: { countTraces: number; countObservations: number }) => [d.countTraces, d.countObservations])).toEqual([[1, 2]]);
  });

  // With fromTimestamp alone, observations are not joined to their traces: every one that started
  // from an hour before it counts, whatever its trace's time; the traces are those from it on.
  it('counts observations from an hour before fromTimestamp, alone; with more filters, those of the traces that pass', async () => {
    const from = await daily('?fromTimestamp=2026-03-01T10:30:00Z');
    expect(from.data.map((d: { date: string; countTraces: number; countObservations: number }) => [d.date, d.countTraces, d.countObservations])).toEqual([['2026-03-01', 1, 3]]);
    const range = await daily('?fromTimestamp=2026-03-01T10:30:00Z&toTimestamp=2026-03-01T12:00:00Z');
    expect(range.data.map((d: { countTraces: number; countObservations: number }) => [d.countTraces, d.countObservations])).toEqual([[1, 1]]);
  });

  it('pages by page number over the days; totalItems counts the days with traces', async () => {
    const second = await daily('?limit=1&page=2');
    expect(second.data.map((d: { date: string }) => d.date)).toEqual(['2026-02-27']);
    expect(second.meta).toEqual({ page: 2, limit: 1, totalItems: 2, totalPages: 2 });
    expect((await get('/api/public/metrics/daily?limit=101')).status).toBe(400);
    expect((await get('/api/public/metrics/daily?fromTimestamp=yesterday')).body.message).toBe('Invalid request data');
  });
});

// metrics/daily.ts is marked rejectInEventsOnlyMode.
describe('GET /api/public/metrics/daily by write mode', () => {
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
    const dual = apiCaller(() => servers.dual!);
    expect(await dual('GET', '/api/public/metrics/daily', undefined, { unchecked: true })).toEqual({ status: 200, body: { data: [], meta: { page: 1, limit: 50, totalItems: 0, totalPages: 0 } } });
    const eventsOnly = apiCaller(() => servers.events_only!);
    expect(await eventsOnly('GET', '/api/public/metrics/daily', undefined, { auth: null, unchecked: true })).toEqual({ status: 404, body: { message: EVENTS_ONLY_REMOVED_MESSAGE } });
  });
});
