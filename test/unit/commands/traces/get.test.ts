// traces get at the transport (undici MockAgent, network disabled, every interceptor used): a
// trace that is not there yet is waited for, saying so, and its input and output fit a terminal.
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../../src/output/fit.js';
import { isolatedEnv, runInProcess } from '../../../helpers/cli.js';
import { useMockAgent } from '../../../helpers/mock-agent.js';

const HOST = 'https://cloud.langfuse.test';
const agent = useMockAgent();

const env = () => isolatedEnv({ LANGFUSE_HOST: HOST, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-secret-1234' });

describe('traces get --wait', () => {
  it('says once on stderr that it waits for the trace, then shows it', async () => {
    const pool = agent().get(HOST);
    pool.intercept({ path: '/api/public/traces/t1', method: 'GET' }).reply(404, { message: 'Trace t1 not found within authorized project' }).times(2);
    pool.intercept({ path: '/api/public/traces/t1', method: 'GET' }).reply(200, { id: 't1', timestamp: '2026-05-01T10:00:00.000Z', name: 'chat', observations: [], scores: [] });
    const sleeps: number[] = [];
    const result = await runInProcess(['traces', 'get', 't1', '--wait', '10'], { env: env(), dispatcher: agent(), sleeps });
    expect(result.exitCode).toBe(0);
    expect(sleeps).toEqual([1000, 2000]);
    expect(result.stderr.split('\n')[0]).toBe('trace t1 not found yet (ingestion is asynchronous): asking again for up to 10 s');
    expect(result.stderr.match(/not found yet/g)).toHaveLength(1);
    expect(result.stdout).toContain('trace\tt1\n');
  });
});

describe('traces get --io on a terminal', () => {
  it('cuts wide characters to the terminal\'s columns, not to a count of UTF-16 units, and keeps the table aligned', async () => {
    const text = '日本語のテキストです。'.repeat(8);
    agent().get(HOST).intercept({ path: '/api/public/traces/t1', method: 'GET' }).reply(200, {
      id: 't1', timestamp: '2026-05-01T10:00:00.000Z', name: 'chat', input: text, output: '😀'.repeat(60), scores: [],
      observations: [
        { id: 'o1', type: 'GENERATION', name: '検索', parentObservationId: null, startTime: '2026-05-01T10:00:00.000Z', endTime: '2026-05-01T10:00:01.000Z', model: 'gpt-4o', input: text, output: 'ok' },
        { id: 'o2', type: 'SPAN', name: 'ascii', parentObservationId: null, startTime: '2026-05-01T10:00:01.000Z', endTime: '2026-05-01T10:00:02.000Z' },
      ],
    });
    const result = await runInProcess(['traces', 'get', 't1', '--io', '--no-color'], { env: env(), dispatcher: agent(), tty: true, columns: 70 });
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.split('\n');
    const io = lines.filter((line) => /^\s*(input|output)\s/.test(line));
    expect(io).toHaveLength(4);
    for (const line of io) {
      expect(displayWidth(line)).toBeLessThanOrEqual(70);
      expect(line.endsWith('…') || line.endsWith('ok')).toBe(true);
    }
    // Cut between characters, never inside a surrogate pair.
    expect(result.stdout).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    // The right-aligned START column ends at the same terminal column in both rows.
    const rows = lines.filter((line) => /^(GENERATION|SPAN) /.test(line));
    expect(rows).toHaveLength(2);
    const endAt = (row: string, token: string) => displayWidth(row.slice(0, row.indexOf(token) + token.length));
    expect(endAt(rows[0]!, '+0 ms')).toBe(endAt(rows[1]!, '+1.00 s'));
  });
});
