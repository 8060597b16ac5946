// observations export at the transport (undici MockAgent, network disabled, every interceptor used).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../../helpers/cli.js';
import { useMockAgent } from '../../../helpers/mock-agent.js';

const HOST = 'https://cloud.langfuse.test';
const agent = useMockAgent();

const env = () => isolatedEnv({ LANGFUSE_HOST: HOST, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-secret-1234' });
const item = (i: number) => ({ id: `o${i}`, traceId: 't', startTime: '2026-05-01T00:00:00Z', endTime: null, projectId: 'p', parentObservationId: null, type: 'SPAN', modelId: null, inputPrice: null, outputPrice: null, totalPrice: null });
const page = (from: number, n: number, cursor?: string) => ({ data: Array.from({ length: n }, (_, i) => item(from + i)), meta: cursor ? { cursor } : {} });
const path = (query: Record<string, string>) => `/api/public/v2/observations?${new URLSearchParams(query).toString()}`;

describe('export of a single observation', () => {
  it('says so in the singular, to a file and to stdout', async () => {
    const pool = agent().get(HOST);
    pool.intercept({ path: path({ fields: 'core', limit: '1000' }), method: 'GET' }).reply(200, page(0, 1));
    const dir = tempDir();
    const toFile = await runInProcess(['observations', 'export', '--fields', 'core', '--output', 'one.jsonl'], { env: env(), dispatcher: agent(), cwd: dir });
    expect(toFile.exitCode).toBe(0);
    expect(toFile.stderr).toMatch(/^Exported 1 observation \(1 page\) to one\.jsonl in /m);
    pool.intercept({ path: path({ fields: 'core', limit: '1000' }), method: 'GET' }).reply(200, page(0, 1));
    const piped = await runInProcess(['observations', 'export', '--fields', 'core'], { env: env(), dispatcher: agent() });
    expect(piped.stderr).toMatch(/^Exported 1 observation in /m);
  });
});

describe('export of what the server sent', () => {
  const FIELDS = { fields: 'core', limit: '1000' };
  // Compact, but not as JSON.stringify writes it: an escape it would not use, a number it would
  // shorten, one it cannot hold exactly, and a key given twice.
  const SENT = ['{"id":"o1","name":"caf\\u00e9 \\/ x","n":1.50,"big":12345678901234567890,"k":1,"k":2}', '{"id":"o2","e":1E3,"s":[]}'];

  it('writes each observation as sent when the server wrote it compact', async () => {
    const dir = tempDir();
    agent().get(HOST).intercept({ path: path(FIELDS), method: 'GET' }).reply(200, `{"data":[${SENT.join(',')}],"meta":{}}`, { headers: { 'content-type': 'application/json' } });
    const run = await runInProcess(['observations', 'export', '--fields', 'core', '--output', 'o.jsonl'], { env: env(), dispatcher: agent(), cwd: dir });
    expect(run.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'o.jsonl'), 'utf8')).toBe(`${SENT.join('\n')}\n`);
  });

  it('writes compact JSON, one observation a line, when the server spaced it out; and picked columns as always', async () => {
    const dir = tempDir();
    const spaced = JSON.stringify(page(0, 3), null, 2);
    const pool = agent().get(HOST);
    pool.intercept({ path: path(FIELDS), method: 'GET' }).reply(200, spaced, { headers: { 'content-type': 'application/json' } });
    const run = await runInProcess(['observations', 'export', '--fields', 'core', '--output', 'o.jsonl'], { env: env(), dispatcher: agent(), cwd: dir });
    expect(run.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'o.jsonl'), 'utf8')).toBe(page(0, 3).data.map((o) => `${JSON.stringify(o)}\n`).join(''));
    const sent = JSON.stringify(page(0, 1)).replace('"SPAN"', '"\\u0053PAN"');
    pool.intercept({ path: path(FIELDS), method: 'GET' }).reply(200, sent, { headers: { 'content-type': 'application/json' } });
    const picked = await runInProcess(['observations', 'export', '--fields', 'id,type', '--output', 'p.jsonl'], { env: env(), dispatcher: agent(), cwd: dir });
    expect(picked.exitCode).toBe(0);
    expect(readFileSync(join(dir, 'p.jsonl'), 'utf8')).toBe('{"id":"o0","type":"SPAN"}\n');
  });
});
