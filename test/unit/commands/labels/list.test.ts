// `llmobs labels list` in-process against the local server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCli, localCli } from '../../../helpers/local-cli.js';

let cli: LocalCli;

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

async function threeVersions(name: string): Promise<void> {
  await cli.seed({ name, prompt: 'v1', labels: ['production'] });
  await cli.seed({ name, prompt: 'v2', labels: ['staging'] });
  await cli.seed({ name, prompt: 'v3' });
}

describe('labels list', () => {
  it('maps each label to its version with one request per label', async () => {
    await threeVersions('n/list');
    const result = await cli.run(['labels', 'list', 'n/list', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({ name: 'n/list', labels: { latest: 3, production: 1, staging: 2 } });
    expect(result.sent.map((r) => r.path)).toEqual([
      '/api/public/v2/prompts?name=n%2Flist&limit=1',
      '/api/public/v2/prompts/n%2Flist?label=latest&resolve=false',
      '/api/public/v2/prompts/n%2Flist?label=production&resolve=false',
      '/api/public/v2/prompts/n%2Flist?label=staging&resolve=false',
    ]);
    expect((await cli.run(['labels', 'ls', 'n/list'])).stdout).toBe('latest\t3\nproduction\t1\nstaging\t2\n');
    expect((await cli.run(['labels', 'list', 'n/none'])).exitCode).toBe(8);
  });
});
