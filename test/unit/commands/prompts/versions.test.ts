// `llmobs prompts versions` in-process against the local server: every version, newest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCli, localCli } from '../../../helpers/local-cli.js';

let cli: LocalCli;

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

describe('prompts list and versions', () => {
  beforeAll(async () => {
    for (const name of ['l/a', 'l/b', 'l/c']) await cli.seed({ name, prompt: 'x', tags: name === 'l/b' ? ['keep'] : [] });
    await cli.seed({ name: 'l/a', prompt: 'y', labels: ['production'], commitMessage: 'second' });
    await cli.seed({ name: 'l/a', prompt: 'z', commitMessage: 'third' });
  });

  it('lists every version newest first with labels, date and commit message, one request each', async () => {
    const result = await cli.run(['prompts', 'versions', 'l/a', '--json']);
    const parsed = JSON.parse(result.stdout);
    expect(parsed).toMatchObject({ name: 'l/a', type: 'text', totalVersions: 3 });
    expect(parsed.versions.map((v: { version: number; labels: string[]; commitMessage: string | null }) => [v.version, v.labels, v.commitMessage])).toEqual([
      [3, ['latest'], 'third'],
      [2, ['production'], 'second'],
      [1, [], null],
    ]);
    expect(result.sent).toHaveLength(4);
    const limited = await cli.run(['prompts', 'versions', 'l/a', '--limit', '1']);
    expect(limited.sent).toHaveLength(2);
    expect(limited.stdout).toMatch(/^3\tlatest\t\S+\tAPI\tthird\n$/);
    expect(limited.stderr).toContain('Showing the newest 1 of 3 versions.');
  });
});
