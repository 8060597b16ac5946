// `llmobs server --write-mode MODE`, the built binary, one data directory through the three modes:
// in each, a route the mode removes, the batch route, OTLP, and the v4 read; what one mode stored
// reads back in the next (web/src/pages/api/public/ingestion.ts, createAuthedProjectAPIRoute.ts,
// v2/observations/index.ts).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENTS_ONLY_REMOVED_MESSAGE, V4_ONLY_MESSAGES } from '../../src/api/write-mode.js';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { basicHeader, type Started, startServerProcess } from '../helpers/server-process.js';

async function api(started: Started, method: string, path: string, body?: unknown, auth = true): Promise<{ status: number; body: any }> {
  const response = await fetch(started.url + path, {
    method,
    headers: { ...(auth ? { authorization: basicHeader(started) } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: await response.json() };
}

const at = '2026-03-01T10:00:00.000Z';
const batch = (n: number) => ({
  batch: [
    { id: `trace-${n}`, type: 'trace-create', timestamp: at, body: { id: `t-${n}`, name: 'batch' } },
    { id: `span-${n}`, type: 'span-create', timestamp: at, body: { id: `s-${n}`, traceId: `t-${n}`, startTime: at } },
    { id: `score-${n}`, type: 'score-create', timestamp: at, body: { id: `sc-${n}`, traceId: `t-${n}`, name: 'ok', value: 1 } },
  ],
});
const otlp = (n: number) => ({
  resourceSpans: [{ scopeSpans: [{ scope: { name: 'app' }, spans: [{ traceId: `${n}`.padStart(32, 'a'), spanId: `${n}`.padStart(16, 'b'), name: 'otel', startTimeUnixNano: '1772359200000000000', endTimeUnixNano: '1772359201000000000' }] }] }],
});
const ids = (answer: { body: { data: Array<{ id: string }> } }) => answer.body.data.map((o) => o.id).sort();

describe('llmobs server --write-mode', { timeout: 60_000 }, () => {
  it('answers as each mode does, over one data directory', async () => {
    const env = isolatedEnv();
    const dataDir = join(tempDir(), 'data');
    const start = async (mode: string) => {
      const server = startServerProcess(['--data-dir', dataDir, '--write-mode', mode], env);
      return { server, started: await server.ready };
    };

    // dual: v3 and v4 routes, every event type.
    let { server, started } = await start('dual');
    expect(started).toMatchObject({ writeMode: 'dual' });
    expect((await api(started, 'POST', '/api/public/ingestion', batch(1))).body.errors).toEqual([]);
    expect((await api(started, 'POST', '/api/public/otel/v1/traces', otlp(1))).status).toBe(200);
    expect((await api(started, 'GET', '/api/public/traces')).body.meta.totalItems).toBe(2);
    expect(ids(await api(started, 'GET', '/api/public/v2/observations'))).toEqual(['bbbbbbbbbbbbbbb1', 's-1']);
    server.child.kill('SIGTERM');
    await server.child;

    // events_only, the default: v3 routes gone, trace and observation events refused, OTLP and v4 reads.
    ({ server, started } = await start('events_only'));
    expect(await api(started, 'GET', '/api/public/traces', undefined, false)).toEqual({ status: 404, body: { message: EVENTS_ONLY_REMOVED_MESSAGE } });
    const refused = await api(started, 'POST', '/api/public/ingestion', batch(2));
    expect(refused.body.successes).toEqual([{ id: 'score-2', status: 201 }]);
    expect(refused.body.errors.map((e: { id: string; status: number; message: string }) => [e.id, e.status, e.message])).toEqual([
      ['trace-2', 400, 'Event type not accepted'],
      ['span-2', 400, 'Event type not accepted'],
    ]);
    expect((await api(started, 'POST', '/api/public/otel/v1/traces', otlp(2))).status).toBe(200);
    expect(ids(await api(started, 'GET', '/api/public/v2/observations'))).toEqual(['bbbbbbbbbbbbbbb1', 'bbbbbbbbbbbbbbb2', 's-1']);
    server.child.kill('SIGTERM');
    await server.child;

    // legacy: the v4 reads refused, the v3 ones see everything stored before.
    ({ server, started } = await start('legacy'));
    expect(await api(started, 'GET', '/api/public/v2/observations')).toEqual({ status: 404, body: { message: V4_ONLY_MESSAGES.observations, error: 'LangfuseNotFoundError' } });
    expect((await api(started, 'POST', '/api/public/ingestion', batch(3))).body.errors).toEqual([]);
    expect((await api(started, 'GET', '/api/public/observations')).body.meta.totalItems).toBe(4);
    server.child.kill('SIGTERM');
    await server.child;
  });

  // Langfuse answers the Metrics API v1 in legacy mode (web/src/pages/api/public/metrics/index.ts)
  // and v2 in dual mode: a cost report reads one or the other and adds up to the same.
  it('cost report against a legacy server (Metrics API v1) gives the report a dual one (v2) gives', async () => {
    const reports: Record<string, unknown> = {};
    for (const mode of ['legacy', 'dual']) {
      const server = startServerProcess(['--ephemeral', '--write-mode', mode], isolatedEnv());
      try {
        const started = await server.ready;
        const generation = { id: 'gen-1', type: 'generation-create', timestamp: at, body: { id: 'g-1', traceId: 't-1', name: 'answer', model: 'gpt-4o', startTime: at, endTime: at, usageDetails: { input: 1000, output: 200 } } };
        expect((await api(started, 'POST', '/api/public/ingestion', { batch: [...batch(1).batch, generation] })).body.errors).toEqual([]);
        const env = isolatedEnv({ LANGFUSE_BASE_URL: started.url, LANGFUSE_PUBLIC_KEY: started.publicKey, LANGFUSE_SECRET_KEY: started.secretKey });
        const report = await llmobs(['cost', 'report', '--from', '2026-03-01', '--to', '2026-03-02', '--by', 'model', '--json', '--verbose'], { env });
        expect(report.exitCode, report.stderr).toBe(0);
        // Legacy answers v2 with its 404, then v1; dual answers v2.
        expect(/→ GET \S+\/api\/public\/metrics\?/.test(report.stderr), report.stderr).toBe(mode === 'legacy');
        reports[mode] = JSON.parse(report.stdout);
      } finally {
        server.child.kill('SIGTERM');
        await server.child;
      }
    }
    expect(reports.legacy).toMatchObject({ total: { inputTokens: 1000, outputTokens: 200, count: 1 }, groups: [{ group: { model: 'gpt-4o' } }] });
    expect((reports.legacy as { total: { cost: number } }).total.cost).toBeGreaterThan(0);
    expect(reports.dual).toEqual(reports.legacy);
  });

  it('refuses an unknown mode before starting', async () => {
    const result = await llmobs(['server', '--port', '0', '--ephemeral', '--write-mode', 'v4']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('must be one of legacy, dual, events_only');
  });
});
