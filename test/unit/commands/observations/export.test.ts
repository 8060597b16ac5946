// observations export at the transport (undici MockAgent, network disabled, every interceptor used).
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
