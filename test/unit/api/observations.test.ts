// Cursor paging of v2 observations at the transport (undici MockAgent, network disabled, every
// interceptor used): --limit across pages, a malformed page asked for again, and servers that do
// not move on (the same cursor, or the same page under a new cursor) stopped, not followed forever.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';
import { useMockAgent } from '../../helpers/mock-agent.js';

const HOST = 'https://cloud.langfuse.test';
const agent = useMockAgent();

const env = () => isolatedEnv({ LANGFUSE_HOST: HOST, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-secret-1234' });
const item = (i: number) => ({ id: `o${i}`, traceId: 't', startTime: '2026-05-01T00:00:00Z', endTime: null, projectId: 'p', parentObservationId: null, type: 'SPAN', modelId: null, inputPrice: null, outputPrice: null, totalPrice: null });
const page = (from: number, n: number, cursor?: string) => ({ data: Array.from({ length: n }, (_, i) => item(from + i)), meta: cursor ? { cursor } : {} });
const path = (query: Record<string, string>) => `/api/public/v2/observations?${new URLSearchParams(query).toString()}`;

describe('v2 observation pages', () => {
  it('asks for at most what --limit still needs, following the cursor', async () => {
    const pool = agent().get(HOST);
    pool.intercept({ path: path({ fields: 'core,basic,model,usage', limit: '1000' }), method: 'GET' }).reply(200, page(0, 1000, 'c1'));
    pool.intercept({ path: path({ fields: 'core,basic,model,usage', limit: '500', cursor: 'c1' }), method: 'GET' }).reply(200, page(1000, 500, 'c2'));
    const result = await runInProcess(['observations', 'list', '--limit', '1500', '--format', 'jsonl'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(1500);
  });

  it('asks again for a malformed page, then goes on', async () => {
    const pool = agent().get(HOST);
    pool.intercept({ path: path({ fields: 'core,basic,model,usage', limit: '2' }), method: 'GET' }).reply(200, '{"data":[{"no":"id"}],"meta":{}}');
    pool.intercept({ path: path({ fields: 'core,basic,model,usage', limit: '2' }), method: 'GET' }).reply(200, page(0, 2));
    const sleeps: number[] = [];
    const result = await runInProcess(['observations', 'list', '--limit', '2', '--format', 'jsonl'], { env: env(), dispatcher: agent(), sleeps });
    expect(result.exitCode).toBe(0);
    expect(sleeps).toEqual([500]);
  });

  it('stops a server that hands out the same cursor again, or the same page under a new one', async () => {
    const pool = agent().get(HOST);
    pool.intercept({ path: path({ fields: 'core', limit: '2' }), method: 'GET' }).reply(200, page(0, 2, 'c1'));
    pool.intercept({ path: path({ fields: 'core', limit: '2', cursor: 'c1' }), method: 'GET' }).reply(200, page(2, 2, 'c1'));
    const same = await runInProcess(['observations', 'export', '--page-size', '2', '--fields', 'core'], { env: env(), dispatcher: agent() });
    expect(same.exitCode).toBe(5);
    expect(same.stderr).toContain('a cursor it had returned before');

    pool.intercept({ path: path({ fields: 'core', limit: '2' }), method: 'GET' }).reply(200, page(0, 2, 'c1'));
    pool.intercept({ path: path({ fields: 'core', limit: '2', cursor: 'c1' }), method: 'GET' }).reply(200, page(0, 2, 'c2'));
    const again = await runInProcess(['observations', 'export', '--page-size', '2', '--fields', 'core'], { env: env(), dispatcher: agent() });
    expect(again.exitCode).toBe(5);
    expect(again.stderr).toContain('the same page twice');
  });
});

describe('waits before asking again', () => {
  it('are said on stderr, with how long and how far the export got', async () => {
    const pool = agent().get(HOST);
    pool.intercept({ path: path({ fields: 'core', limit: '2' }), method: 'GET' }).reply(200, page(0, 2, 'c1'));
    pool.intercept({ path: path({ fields: 'core', limit: '2', cursor: 'c1' }), method: 'GET' }).reply(429, { message: 'Rate limit exceeded' }, { headers: { 'retry-after': '90' } });
    pool.intercept({ path: path({ fields: 'core', limit: '2', cursor: 'c1' }), method: 'GET' }).reply(200, page(2, 1));
    const sleeps: number[] = [];
    const result = await runInProcess(['observations', 'export', '--fields', 'core', '--page-size', '2', '--output', 'out.jsonl'], { env: env(), dispatcher: agent(), sleeps, cwd: tempDir() });
    expect(result.exitCode).toBe(0);
    expect(sleeps).toEqual([90_000]);
    // The next page is asked for while the one before is written: its wait is said with what was
    // written by then, that page or not yet.
    expect(result.stderr).toMatch(/^429 rate limited: asking again in 90 s \(retry 1 of \d+; (2 observations, 1 page|0 observations, 0 pages), [\d,]+\/s so far\)$/m);
  });
});

describe('a server without the v2 observations API', () => {
  it('is said to be one, with what to do next', async () => {
    agent().get(HOST).intercept({ path: path({ fields: 'core,basic,model,usage', limit: '50' }), method: 'GET' }).reply(404, { message: 'Not Found' });
    // Nor the v1 list, which a Langfuse deployment in the legacy write mode has instead.
    agent().get(HOST).intercept({ path: (p) => p.startsWith('/api/public/observations?'), method: 'GET' }).reply(404, { message: 'Not Found' });
    const result = await runInProcess(['observations', 'list'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('This server has no v2 observations API (/api/public/v2/observations)');
    expect(result.stderr).toContain('llmobs health');
  });
});

describe('a page far larger than asked for', () => {
  it('is taken whole by list --all --json, without running out of stack', async () => {
    agent().get(HOST).intercept({ path: path({ fields: 'core,basic,model,usage', limit: '1000' }), method: 'GET' }).reply(200, page(0, 150_000));
    const result = await runInProcess(['observations', 'list', '--all', '--json'], { env: env(), dispatcher: agent() });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout).data).toHaveLength(150_000);
  });
});

describe('pages too large to read', () => {
  it('asks for the same position in smaller pages, then grows back', async () => {
    const pool = agent().get(HOST);
    const big = { ...page(0, 2, 'c1'), data: page(0, 2).data.map((o) => ({ ...o, input: 'x'.repeat(700_000) })) };
    pool.intercept({ path: path({ fields: 'core', limit: '2' }), method: 'GET' }).reply(200, JSON.stringify(big));
    pool.intercept({ path: path({ fields: 'core', limit: '1' }), method: 'GET' }).reply(200, page(0, 1, 'c1'));
    pool.intercept({ path: path({ fields: 'core', limit: '1', cursor: 'c1' }), method: 'GET' }).reply(200, page(1, 1));
    const result = await runInProcess(['observations', 'export', '--page-size', '2', '--fields', 'core', '--verbose'], { env: { ...env(), LLMOBS_MAX_RESPONSE_MB: '1' }, dispatcher: agent() });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.trimEnd().split('\n').map((l) => JSON.parse(l).id)).toEqual(['o0', 'o1']);
    expect(result.stderr).toContain('page of 2 too large; asking for 1 at a time');
  });

  it('stops a listing at --max-pages with an error, not a partial list', async () => {
    const pool = agent().get(HOST);
    pool.intercept({ path: path({ fields: 'core,basic,model,usage', limit: '1000' }), method: 'GET' }).reply(200, page(0, 1000, 'c1'));
    pool.intercept({ path: path({ fields: 'core,basic,model,usage', limit: '1000', cursor: 'c1' }), method: 'GET' }).reply(200, page(1000, 1000, 'c2'));
    const result = await runInProcess(['observations', 'list', '--all', '--max-pages', '2'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('more than 2 pages');
    expect(result.stdout).toBe('');
  });
});

// Langfuse pages strictly after the cursor's (start time, trace id, id) tuple
// (packages/shared/src/server/repositories/events.ts, applyObservationsCursorFilter): a correct
// server never sends an id twice in one listing. One whose pages overlap must not make an export
// write an observation twice, nor count it twice.
describe('pages that overlap', () => {
  const ids = (text: string) => text.trimEnd().split('\n').map((line) => JSON.parse(line).id as string);
  const overlapping = (fields: string, limit: string) => {
    const pool = agent().get(HOST);
    pool.intercept({ path: path({ fields, limit }), method: 'GET' }).reply(200, page(0, 3, 'c1'));
    pool.intercept({ path: path({ fields, limit, cursor: 'c1' }), method: 'GET' }).reply(200, page(1, 3));
  };

  it('export writes each id once, counts it once, and warns once how many were dropped', async () => {
    overlapping('core', '3');
    const dir = tempDir();
    const result = await runInProcess(['observations', 'export', '--fields', 'core', '--page-size', '3', '--output', 'o.jsonl'], { env: env(), dispatcher: agent(), cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(ids(readFileSync(join(dir, 'o.jsonl'), 'utf8'))).toEqual(['o0', 'o1', 'o2', 'o3']);
    expect(result.stderr).toContain('Exported 4 observations (2 pages)');
    expect(result.stderr.match(/warning: the server sent 2 observations again \(ids an earlier page had\): dropped, so each is kept and counted once/g)).toHaveLength(1);

    overlapping('core', '3');
    const piped = await runInProcess(['observations', 'export', '--fields', 'core', '--page-size', '3'], { env: env(), dispatcher: agent() });
    expect(ids(piped.stdout)).toEqual(['o0', 'o1', 'o2', 'o3']);
    expect(piped.stderr).toContain('Exported 4 observations');
    expect(piped.stderr).toContain('warning: the server sent 2 observations again');
  });

  it('list --all and --limit count distinct ids: --limit reads on until it has that many', async () => {
    overlapping('core,basic,model,usage', '1000');
    const all = await runInProcess(['observations', 'list', '--all', '--format', 'jsonl'], { env: env(), dispatcher: agent() });
    expect(ids(all.stdout)).toEqual(['o0', 'o1', 'o2', 'o3']);
    expect(all.stderr.match(/warning: the server sent 2 observations again/g)).toHaveLength(1);

    const pool = agent().get(HOST);
    pool.intercept({ path: path({ fields: 'core,basic,model,usage', limit: '4' }), method: 'GET' }).reply(200, { data: [0, 1, 1, 2].map(item), meta: { cursor: 'c1' } });
    pool.intercept({ path: path({ fields: 'core,basic,model,usage', limit: '1', cursor: 'c1' }), method: 'GET' }).reply(200, page(3, 1, 'c2'));
    const limited = await runInProcess(['observations', 'list', '--limit', '4', '--json'], { env: env(), dispatcher: agent() });
    expect(JSON.parse(limited.stdout).data.map((o: { id: string }) => o.id)).toEqual(['o0', 'o1', 'o2', 'o3']);
    expect(limited.stderr).toContain('warning: the server sent 1 of the observations again');
  });

  it('cost recompute from the API prices each generation once', async () => {
    const generation = (i: number) => ({ ...item(i), type: 'GENERATION', providedModelName: 'gpt-4o', usageDetails: { input: 10, output: 2, total: 12 }, costDetails: { total: 0.000045 }, totalCost: 0.000045 });
    const pool = agent().get(HOST);
    const first = (p: string) => p.startsWith('/api/public/v2/observations?') && !p.includes('cursor=');
    pool.intercept({ path: first, method: 'GET' }).reply(200, { data: [0, 1, 2].map(generation), meta: { cursor: 'c1' } });
    pool.intercept({ path: (p: string) => p.startsWith('/api/public/v2/observations?') && p.includes('cursor=c1'), method: 'GET' }).reply(200, { data: [2, 3].map(generation), meta: {} });
    const result = await runInProcess(['cost', 'recompute', '--from', '2026-04-01', '--to', '2026-06-01', '--offline', '--json'], { env: env(), dispatcher: agent() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)[0].generations).toBe(4);
    expect(result.stderr).toContain('warning: the server sent 1 of the observations again');
  });
});
