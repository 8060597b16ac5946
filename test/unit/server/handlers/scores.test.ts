// Scores (API.md section 7): POST with either auth, through ingestion, and the v3 list; over the
// records of support/read-api.ts.
import { describe, expect, it } from 'vitest';
import { call, get, server, useReadApi } from './support/read-api.js';

useReadApi();

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

  it('pages with the service\'s cursor: base64url JSON {v: 1, lastTimestamp, lastId}', async () => {
    // ScoresCursorV3 (packages/shared/src/server/repositories/scores.ts); scores-api-v3.servertest.ts "cursor pagination".
    const first = await get('/api/public/v3/scores?limit=1');
    const cursor = JSON.parse(Buffer.from(first.body.meta.cursor, 'base64url').toString('utf8'));
    expect(cursor).toEqual({ v: 1, lastTimestamp: expect.any(String), lastId: first.body.data[0].id });
    const own = (v: unknown, lastTimestamp: string, lastId: string) => Buffer.from(JSON.stringify({ v, lastTimestamp, lastId })).toString('base64url');
    const next = await get(`/api/public/v3/scores?limit=1&cursor=${own(1, cursor.lastTimestamp, cursor.lastId)}`);
    expect(next.status).toBe(200);
    expect(next.body.data[0].id).not.toBe(first.body.data[0].id);
    // A stale cursor is an empty page without a cursor.
    expect(await get(`/api/public/v3/scores?cursor=${own(1, new Date(0).toISOString(), '00000000-0000-0000-0000-000000000000')}`)).toEqual({ status: 200, body: { data: [], meta: { limit: 50 } } });
    // Not base64url JSON: the InvalidRequestError the schema throws; JSON of another shape or version: a zod issue.
    expect(await get('/api/public/v3/scores?cursor=not-valid-base64!!')).toEqual({ status: 400, body: { message: 'Invalid cursor format', error: 'InvalidRequestError' } });
    expect((await get(`/api/public/v3/scores?cursor=${Buffer.from('{"foo":"bar"}').toString('base64url')}`)).body.message).toBe('Invalid request data');
    expect((await get(`/api/public/v3/scores?cursor=${own(99, cursor.lastTimestamp, 'x')}`)).status).toBe(400);
  });

  it('filters by experimentId: the scores of that dataset run', async () => {
    // buildDynamicFilters maps experimentId to dataset_run_id; scores-api-v3.servertest.ts "experimentId filter".
    expect(await call('POST', '/api/public/scores', { id: 'sc-run', name: 'accuracy', value: 0.5, datasetRunId: 'run-1' })).toEqual({ status: 200, body: { id: 'sc-run' } });
    expect((await get('/api/public/v3/scores?experimentId=run-1')).body.data.map((s: { id: string }) => s.id)).toEqual(['sc-run']);
    expect((await get('/api/public/v3/scores?experimentId=run-2,run-1&fields=subject')).body.data).toEqual([expect.objectContaining({ subject: { kind: 'experiment', id: 'run-1' } })]);
    expect((await get('/api/public/v3/scores?experimentId=run-2')).body.data).toEqual([]);
  });
});
