// The traces of the read API (API.md section 5): one by id with field groups, the list, deletion;
// over the records of support/read-api.ts; a deletion larger than one transaction.
import { describe, expect, it, vi } from 'vitest';
import { startServer } from '../../../../src/server/index.js';
import { TraceStore } from '../../../../src/server/store/index.js';
import { basicAuth } from '../../../helpers/server-api.js';
import { at, call, get, gpt4o, projectId, T0, useReadApi } from './support/read-api.js';

// The v3 routes (traces, observations v1) answer in legacy and dual mode only.
useReadApi({ writeMode: 'legacy' });

describe('GET /api/public/traces/{id}', () => {
  it('returns the trace with its observations (v1 shape, default-tier prices), scores, latency and cost', async () => {
    const answer = await get('/api/public/traces/t1');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: 't1', projectId, name: 'chat', userId: 'u1', sessionId: 's1', tags: ['a', 'b'], environment: 'production', input: { q: 'hi' },
      output: 'hello', metadata: { k: 'v' }, externalId: null, htmlPath: `/project/${projectId}/traces/t1`, latency: 2, totalCost: 0.000075,
    });
    expect(answer.body.scores.map((s: { id: string }) => s.id).sort()).toEqual(['sc1', 'sc2']);
    // The keys of APIScoreSchemaV1 (scores/interfaces/api/v1/schemas.ts): executionTraceId, no session or dataset run.
    expect(answer.body.scores.find((s: { id: string }) => s.id === 'sc1')).toEqual({
      id: 'sc1', projectId, environment: 'default', name: 'quality', value: 0.9, source: 'API', authorUserId: null, comment: null, metadata: {},
      configId: null, queueId: null, executionTraceId: null, createdAt: T0, updatedAt: T0, timestamp: T0, traceId: 't1', observationId: null,
      stringValue: null, dataType: 'NUMERIC',
    });
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
    // Input and output are null without io (traces-api.servertest.ts "core-only fields").
    expect(answer.body).toMatchObject({ observations: [], scores: [], latency: -1, totalCost: -1, metadata: {}, input: null, output: null });
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
    // Given once, a comma list (public-api-filter-builder.ts splits it).
    expect(await ids('?environment=production,staging')).toEqual(['t1']);
    expect(await ids('?name=batch')).toEqual(['t2']);
    expect(await ids(`?fromTimestamp=${encodeURIComponent('2026-03-01T00:00:00Z')}&toTimestamp=${encodeURIComponent(at(3600))}`)).toEqual(['t1']);
    expect(await ids('?orderBy=name.asc')).toEqual(['t2', 't1', 't3']);
    const paged = await get('/api/public/traces?limit=1&page=2');
    expect(paged.body.data.map((t: { id: string }) => t.id)).toEqual(['t1']);
    expect(paged.body.meta).toEqual({ page: 2, limit: 1, totalItems: 3, totalPages: 3 });
    expect((await get('/api/public/traces?fields=core')).body.data[1]).toMatchObject({ observations: [], scores: [], latency: -1, totalCost: -1, metadata: {}, input: null, output: null });
  });

  it('refuses a bad orderBy, limit or timestamp with "Invalid request data"', async () => {
    for (const query of ['?orderBy=cost.asc', '?orderBy=name.up', '?limit=101', '?fromTimestamp=yesterday']) {
      const answer = await get(`/api/public/traces${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Invalid request data');
    }
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

// After the deletions above the list is empty: these traces are the only ones.
describe('the list of one environment', () => {
  it('shows and filters on the observations and scores of that environment only', async () => {
    const ev = (id: string, type: string, body: Record<string, unknown>) => ({ id, type, timestamp: at(10), body });
    const batch = [
      ev('e1', 'trace-create', { id: 'te', name: 'mixed', environment: 'prod' }),
      ev('e2', 'span-create', { id: 'oe1', traceId: 'te', environment: 'prod', startTime: at(0), endTime: at(1) }),
      ev('e3', 'span-create', { id: 'oe2', traceId: 'te', environment: 'dev', startTime: at(0), endTime: at(9) }),
      ev('e4', 'score-create', { id: 'se1', traceId: 'te', name: 'q', value: 0.2, environment: 'prod', executionTraceId: 'run-trace' }),
      ev('e5', 'score-create', { id: 'se2', traceId: 'te', name: 'q', value: 0.9, environment: 'dev' }),
      ev('e6', 'score-create', { id: 'se3', traceId: 'te', name: 'note', value: 'fine', dataType: 'TEXT', environment: 'prod' }),
      ev('e7', 'score-create', { id: 'se4', traceId: 'te', name: 'output', value: 'better', dataType: 'CORRECTION', environment: 'prod' }),
    ];
    expect((await call('POST', '/api/public/ingestion', { batch })).body.errors).toEqual([]);
    // buildTracesBaseQuery applies every environment filter to its observation and score aggregates
    // (traces-api.servertest.ts "filtered by environment"); corrections are not listable scores.
    const list = await get('/api/public/traces?environment=prod');
    expect(list.body.data).toEqual([expect.objectContaining({ id: 'te', observations: ['oe1'], latency: 1 })]);
    expect(list.body.data[0].scores.sort()).toEqual(['se1', 'se3']);
    const filter = encodeURIComponent(JSON.stringify([{ type: 'stringOptions', column: 'environment', operator: 'any of', value: ['prod'] }]));
    expect((await get(`/api/public/traces?filter=${filter}`)).body.data[0]).toMatchObject({ observations: ['oe1'], latency: 1 });
    const avg = (op: string) => encodeURIComponent(JSON.stringify([{ type: 'numberObject', column: 'scores_avg', key: 'q', operator: op, value: 0.5 }]));
    expect((await get(`/api/public/traces?environment=prod&filter=${avg('>')}`)).body.data).toEqual([]);
    expect((await get(`/api/public/traces?environment=prod&filter=${avg('<')}`)).body.meta.totalItems).toBe(1);
    expect((await get(`/api/public/traces?filter=${avg('<')}`)).body.data).toEqual([]);
    expect((await get('/api/public/traces')).body.data[0]).toMatchObject({ observations: expect.arrayContaining(['oe1', 'oe2']), latency: 9 });

    // One trace: its scores as APIScoreSchemaV1 parses them, the evaluator's trace id as sent, TEXT without a value, no CORRECTION.
    const scores = (await get('/api/public/traces/te?fields=scores')).body.scores;
    expect(scores.map((s: { id: string }) => s.id).sort()).toEqual(['se1', 'se2', 'se3']);
    expect(scores.find((s: { id: string }) => s.id === 'se1')).toMatchObject({ executionTraceId: 'run-trace', stringValue: null });
    const text = scores.find((s: { id: string }) => s.id === 'se3');
    expect(text).toMatchObject({ dataType: 'TEXT', stringValue: 'fine' });
    expect('value' in text).toBe(false);
  });
});

describe('DELETE of a trace larger than one transaction', () => {
  it('deletes it in several, other traces kept, and answers once all of it is gone', async () => {
    const server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
    try {
      const send = async (batch: unknown[]) => {
        const answer = await fetch(`${server.url}/api/public/ingestion`, { method: 'POST', headers: { authorization: basicAuth(server), 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
        expect(answer.status).toBe(207);
      };
      const ev = (id: string, type: string, body: Record<string, unknown>) => ({ id, type, timestamp: at(0), body });
      await send([ev('big', 'trace-create', { id: 'big', name: 'big' }), ev('small', 'trace-create', { id: 'small', name: 'small' }), ev('small-o', 'span-create', { id: 'small-o', traceId: 'small', startTime: at(0) })]);
      // 4,500 observations and a score: more than two transactions' worth.
      for (let b = 0; b < 9; b++) await send(Array.from({ length: 500 }, (_, i) => ev(`o-${b}-${i}`, 'span-create', { id: `o-${b}-${i}`, traceId: 'big', startTime: at(i) })));
      await send([ev('score', 'score-create', { id: 'sc', traceId: 'big', name: 'q', value: 1 })]);
      const list = async (traceId: string) => {
        const page = await fetch(`${server.url}/api/public/v2/observations?traceId=${traceId}&limit=10`, { headers: { authorization: basicAuth(server) } });
        return ((await page.json()) as { data: Array<{ id: string }> }).data.map((o) => o.id);
      };
      const scores = async () => ((await (await fetch(`${server.url}/api/public/v3/scores?traceId=big`, { headers: { authorization: basicAuth(server) } })).json()) as { data: unknown[] }).data;
      expect(await list('big')).toHaveLength(10);
      expect(await scores()).toHaveLength(1);
      const steps = vi.spyOn(TraceStore.prototype, 'deleteStep');
      const answer = await fetch(`${server.url}/api/public/traces/big`, { method: 'DELETE', headers: { authorization: basicAuth(server) } });
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ message: 'Trace deleted successfully' });
      expect(steps.mock.calls.length).toBeGreaterThanOrEqual(3);
      steps.mockRestore();
      expect(await list('big')).toEqual([]);
      expect(await list('small')).toEqual(['small-o']);
      expect(await scores()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
