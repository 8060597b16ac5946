// The cost commands at the transport (undici MockAgent, network disabled, every interceptor used):
// what --budget accepts as an amount and what it says when the total is over it; how amounts
// and what was left out read.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../../helpers/cli.js';
import { useMockAgent } from '../../../helpers/mock-agent.js';

const HOST = 'https://cloud.langfuse.test';
const agent = useMockAgent();

const env = () => isolatedEnv({ LANGFUSE_HOST: HOST, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-secret-1234' });
const answer = (cost: number) =>
  agent().get(HOST).intercept({ path: (p: string) => p.startsWith('/api/public/v2/metrics?'), method: 'GET' }).reply(200, { data: [{ providedModelName: 'gpt-4o', sum_totalCost: cost, sum_inputTokens: 10, sum_outputTokens: 2, count_count: 1 }] });
const report = (budget: string) => runInProcess(['cost', 'report', '--month', '2026-05', '--no-cache', '--budget', budget], { env: env(), dispatcher: agent() });

describe('cost report --budget', () => {
  it('with a budget of 0, says by how much without a share of nothing', async () => {
    answer(2.5);
    const result = await report('0');
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain('error: the total cost $2.50 exceeds the budget of $0.00 by $2.50\n');
  });

  it('takes amounts with thousands separators, and refuses a comma that is not one', async () => {
    answer(1500);
    const result = await report('$1,000');
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain('exceeds the budget of $1,000.00 by $500.00 (150.0% of the budget)');
    for (const amount of ['1,5', '1,0000', ',100']) {
      const refused = await report(amount);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toContain('--budget: must be an amount in USD');
    }
  });
});

describe('what the cost commands left out', () => {
  it('is counted in the singular when there is one', async () => {
    agent().get(HOST).intercept({ path: (p: string) => p.startsWith('/api/public/v2/metrics?'), method: 'GET' }).reply(200, { data: [{ providedModelName: 'gpt-4o', sum_totalCost: 1, count_count: 1 }, {}] });
    const reported = await runInProcess(['cost', 'report', '--month', '2026-05', '--no-cache'], { env: env(), dispatcher: agent() });
    expect(reported.stderr).toContain('warning: 1 row had no readable cost or count and was left out');

    const dir = tempDir();
    writeFileSync(join(dir, 'export.jsonl'), `${JSON.stringify({ id: 's1', type: 'SPAN', providedModelName: null })}\n${JSON.stringify({ id: 'g1', type: 'GENERATION', providedModelName: 'gpt-4o', usageDetails: { input: 10, output: 2, total: 12 }, costDetails: { total: 0.001 }, totalCost: 0.001, startTime: '2026-05-01T00:00:00Z' })}\n`);
    const recomputed = await runInProcess(['cost', 'recompute', '--input', 'export.jsonl', '--offline'], { env: isolatedEnv(), cwd: dir });
    expect(recomputed.exitCode).toBe(0);
    expect(recomputed.stderr).toContain('; 1 observation without a model or cost skipped');
  });
});

describe('cost report refused by the server', () => {
  it('names the route, not a kilobyte of encoded query, and says what to try', async () => {
    agent().get(HOST).intercept({ path: (p: string) => p.startsWith('/api/public/v2/metrics?'), method: 'GET' }).reply(400, { message: 'Invalid query: dimension not supported', error: 'InvalidRequestError' });
    const result = await runInProcess(['cost', 'report', '--month', '2026-05', '--no-cache'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(5);
    const [message, hint] = result.stderr.split('\n');
    expect(message).toBe('error: 400 Bad Request from GET /api/public/v2/metrics?query=(the report\'s query, shown by --verbose): Invalid query: dimension not supported');
    expect(hint).toContain('--verbose');
    expect(hint).not.toContain('fix the fields named above');
  });
});

describe('cost report cut at the row limit', () => {
  it('asks for the total on its own, so the total and the budget gate are not the sum of the first 1,000 groups', async () => {
    const pool = agent().get(HOST);
    const rows = Array.from({ length: 1000 }, (_, i) => ({ userId: `u${i}`, sum_totalCost: 0.001, sum_inputTokens: 1, sum_outputTokens: 1, count_count: 1 }));
    const grouped = (p: string) => p.startsWith('/api/public/v2/metrics?') && JSON.parse(new URLSearchParams(p.split('?')[1]).get('query')!).dimensions.length === 1;
    const totalOnly = (p: string) => p.startsWith('/api/public/v2/metrics?') && JSON.parse(new URLSearchParams(p.split('?')[1]).get('query')!).dimensions.length === 0;
    pool.intercept({ path: grouped, method: 'GET' }).reply(200, { data: rows });
    pool.intercept({ path: totalOnly, method: 'GET' }).reply(200, { data: [{ sum_totalCost: 5, sum_inputTokens: 4000, sum_outputTokens: 4000, count_count: 4000 }] });
    const result = await runInProcess(['cost', 'report', '--month', '2026-05', '--no-cache', '--by', 'user', '--budget', '2', '--json'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(9);
    const report = JSON.parse(result.stdout);
    expect(report.truncated).toBe(true);
    expect(report.groups).toHaveLength(1000);
    expect(report.groups[0].share).toBeCloseTo(0.001 / 5, 12);
    expect(report.total).toEqual({ cost: 5, inputTokens: 4000, outputTokens: 4000, count: 4000 });
    expect(result.stderr).toContain('the total cost $5.00 exceeds the budget of $2.00 by $3.00');
  });
});
