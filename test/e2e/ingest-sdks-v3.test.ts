// The legacy langfuse JS SDK v3 (npm `langfuse`, batch ingestion over POST /api/public/ingestion)
// against `llmobs server` in each write mode. legacy and dual take every event: traces, spans,
// generations (create and update events merged, priced like `llmobs estimate`) and scores read
// back. events_only refuses trace and observation events one by one (web/src/pages/api/public/
// ingestion.ts, filterBatchForEventsOnly) and stores the scores; the test records what the SDK
// does with that answer, which the README tells users.
import { Langfuse } from 'langfuse';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WriteMode } from '../../src/api/write-mode.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { apiCaller } from '../helpers/server-api.js';
import { answer, estimates, expectCommonOutcome, expectPricedAsEstimated, generations, type Name, names, PROMPT, readBack, readsOf, serverWithPrompt } from '../helpers/sdk-read-back.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(['legacy', 'dual'] as WriteMode[])('langfuse v3 SDK (batch ingestion), %s', (writeMode) => {
  it('records traces, spans, generations and scores, merging create and update events', async () => {
    const server = await serverWithPrompt(writeMode);
    const langfuse = new Langfuse({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: server.url, flushAt: 50 });
    const prompt = await langfuse.getPrompt(PROMPT, 1);
    const t = langfuse.trace({ name: 'v3 request', userId: 'u-7', tags: ['v3'] });
    const retrieval = t.span({ name: 'retrieve', input: { query: 'capital of Australia' } });
    retrieval.end({ output: ['Canberra is the capital.'] });
    const ids = {} as Record<Name, string>;
    for (const name of names) {
      const g = generations[name];
      const generation = retrieval.generation({
        name,
        model: g.model,
        input: g.input,
        ...('usageDetails' in g ? { usageDetails: g.usageDetails } : {}),
        ...(name === 'prompted' ? { prompt } : {}),
      });
      ids[name] = generation.id;
      // The output arrives in a generation-update event, merged into the create.
      generation.end({ output: g.output });
    }
    t.update({ output: answer });
    t.score({ name: 'helpful', value: 0.9, comment: 'short and right' });
    langfuse.score({ traceId: t.id, observationId: ids.withUsage, name: 'correct', value: 1, dataType: 'BOOLEAN' });
    await langfuse.shutdownAsync();

    const read = await readBack(server, t.id, ids);
    expect(read.trace).toMatchObject({ id: t.id, name: 'v3 request', userId: 'u-7', tags: ['v3'], output: answer });
    const span = read.trace.observations.find((o: { id: string }) => o.id === retrieval.id);
    expect(span).toMatchObject({ type: 'SPAN', name: 'retrieve', input: { query: 'capital of Australia' }, output: ['Canberra is the capital.'], endTime: expect.any(String) });
    expect(read.trace.scores.map((s: { name: string; value: number }) => [s.name, s.value]).sort()).toEqual([['correct', 1], ['helpful', 0.9]]);
    expect(read.scores.map((s: any) => [s.name, s.dataType, s.value, s.subject]).sort()).toEqual([
      ['correct', 'BOOLEAN', true, { kind: 'observation', id: ids.withUsage, traceId: t.id }],
      ['helpful', 'NUMERIC', 0.9, { kind: 'trace', id: t.id }],
    ]);
    const expected = await estimates(names.map((name) => generations[name]));
    names.forEach((name, i) => {
      expect(read.v1![name]).toMatchObject({ type: 'GENERATION', traceId: t.id, parentObservationId: retrieval.id, name, output: generations[name].output });
      expect(read.v1![name].endTime).toEqual(expect.any(String));
      for (const o of readsOf(read, name, ids[name])) expect(o).toMatchObject({ type: 'GENERATION', name });
      expectPricedAsEstimated(read, name, ids[name], expected[i]);
    });
    expectCommonOutcome(read, ids);
  });
});

describe('langfuse v3 SDK (batch ingestion), events_only', () => {
  const send = (langfuse: Langfuse) => {
    const t = langfuse.trace({ name: 'v3 request' });
    t.span({ name: 'retrieve' }).end();
    t.generation({ name: 'answer', model: 'gpt-4o', usageDetails: { input: 10, output: 2 } }).end({ output: answer });
    t.score({ name: 'helpful', value: 0.9 });
    return t;
  };

  it('gets a 207 whose errors refuse the trace and observation events; the scores are stored', async () => {
    const server = await serverWithPrompt('events_only');
    const call = apiCaller(() => server);
    // The SDK treats a 207 with errors as a failed request and sends the batch again
    // (fetchRetryCount, 3 by default, fetchRetryDelay apart: 3 s by default, shortened here).
    const proxy = await startFaultProxy(server.url, () => ({ kind: 'pass' }));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const langfuse = new Langfuse({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: proxy.url, flushAt: 50, fetchRetryDelay: 10 });
      const warnings: unknown[] = [];
      langfuse.on('warning', (warning) => warnings.push(warning));
      const t = send(langfuse);
      // Events still queued are flushed by shutdownAsync, which prints the failure.
      await langfuse.shutdownAsync();

      const posts = proxy.seen.filter((r) => r.path === '/api/public/ingestion');
      expect(posts).toHaveLength(4);
      expect(new Set(posts.map((r) => r.body)).size).toBe(1);
      const types = (JSON.parse(posts[0]!.body).batch as Array<{ type: string }>).map((e) => e.type);
      expect(types.sort()).toEqual(['generation-create', 'generation-update', 'score-create', 'span-create', 'span-update', 'trace-create']);
      expect(warnings).toHaveLength(1);
      expect(errors).toHaveBeenCalledTimes(1);
      const printed = errors.mock.calls[0]!.map(String).join(' ');
      expect(printed).toMatch(/^\[Langfuse SDK\] 207: Unexpected error occurred\. /);
      expect(printed).toContain('Event type not accepted');
      expect(printed).toContain('Event type \\"trace-create\\" is not accepted by /api/public/ingestion when LANGFUSE_MIGRATION_V4_WRITE_MODE is events_only');

      // The answer itself, as the SDK got it: each refused event on its own, the score taken.
      const again = await call('POST', '/api/public/ingestion', JSON.parse(posts[0]!.body), { unchecked: true });
      expect(again.status).toBe(207);
      expect(again.body.successes).toEqual([{ id: expect.any(String), status: 201 }]);
      expect(again.body.errors.map((e: { status: number; message: string }) => [e.status, e.message])).toEqual(Array(5).fill([400, 'Event type not accepted']));

      // Sent four times, stored once (deduplication by event id); nothing of the trace.
      const scores = await call('GET', `/api/public/v3/scores?traceId=${t.id}`);
      expect(scores.body.data.map((s: { name: string; value: number }) => [s.name, s.value])).toEqual([['helpful', 0.9]]);
      expect((await call('GET', `/api/public/v2/observations?traceId=${t.id}`)).body.data).toEqual([]);
    } finally {
      await proxy.close();
      await server.close();
    }
  });

  it('drops batches flushed in the background without printing anything', async () => {
    const server = await serverWithPrompt('events_only');
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // flushAt 1: each event is sent as it is made, as a busy application's are.
      const langfuse = new Langfuse({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: server.url, flushAt: 1, fetchRetryDelay: 10 });
      const warnings: unknown[] = [];
      langfuse.on('warning', (warning) => warnings.push(warning));
      send(langfuse);
      await langfuse.shutdownAsync();
      // One warning event per refused event, after its retries; nothing on the console.
      expect(warnings).toHaveLength(5);
      expect(String(warnings[0])).toContain('Event type not accepted');
      expect(errors).not.toHaveBeenCalled();
    } finally {
      await server.close();
    }
  });
});
