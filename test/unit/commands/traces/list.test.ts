// Answers of servers that differ from Langfuse Cloud's (numbers as strings, fields left out), at
// the transport (undici MockAgent, network disabled, every
// interceptor used): traces list reads them as the same data.
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess } from '../../../helpers/cli.js';
import { useMockAgent } from '../../../helpers/mock-agent.js';

const HOST = 'https://cloud.langfuse.test';
const agent = useMockAgent();

const env = () => isolatedEnv({ LANGFUSE_HOST: HOST, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-secret-1234' });
const tracesList = (p: string) => p.startsWith('/api/public/traces?');

describe('traces list', () => {
  it('reads paging numbers sent as strings, and traces without latency or cost', async () => {
    agent().get(HOST).intercept({ path: tracesList, method: 'GET' }).reply(200, {
      data: [
        { id: 't1', timestamp: '2026-05-01T10:00:00.000Z', name: 'chat', tags: [], observations: ['o1'], totalCost: '1.5', latency: '2.25' },
        { id: 't2', timestamp: '2026-05-01T09:00:00.000Z', name: 'bare' },
      ],
      meta: { page: '1', limit: '50', totalItems: '2', totalPages: '1' },
    });
    const result = await runInProcess(['traces', 'list'], { env: env(), dispatcher: agent() });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const rows = result.stdout.trimEnd().split('\n').map((line) => line.split('\t'));
    expect(rows.map((row) => [row[1], row.at(-3), row.at(-2), row.at(-1)])).toEqual([
      ['chat', '$1.50', '2.25 s', 't1'],
      ['bare', '', '', 't2'],
    ]);
  });
});
