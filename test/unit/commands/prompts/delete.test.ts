// `llmobs prompts delete` in-process against the local server: --yes, the question on a terminal, and what goes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCli, localCli } from '../../../helpers/local-cli.js';
import type { Prompter } from '../../../../src/prompter.js';

let cli: LocalCli;

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

describe('prompts delete', () => {
  const yes: Prompter = { confirm: async () => true } as unknown as Prompter;
  const no: Prompter = { confirm: async () => false } as unknown as Prompter;

  it('needs --yes without a terminal, and sends nothing without it', async () => {
    await cli.seed({ name: 'd/one', prompt: 'x' });
    const result = await cli.run(['prompts', 'delete', 'd/one']);
    expect([result.exitCode, result.sent]).toEqual([2, []]);
    expect(result.stderr).toContain('Pass --yes');
  });

  it('deletes one version, or the version a label is on (by its number), with --yes', async () => {
    await cli.seed({ name: 'd/two', prompt: 'a', labels: ['production'] });
    await cli.seed({ name: 'd/two', prompt: 'b', labels: ['staging'] });
    await cli.seed({ name: 'd/two', prompt: 'c' });
    const byVersion = await cli.run(['prompts', 'rm', 'd/two', '--version', '3', '--yes', '--json']);
    expect(byVersion.sent.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/public/v2/prompts/d%2Ftwo?version=3&resolve=false', 'DELETE /api/public/v2/prompts/d%2Ftwo?version=3']);
    expect(JSON.parse(byVersion.stdout)).toEqual({ name: 'd/two', deletedVersions: [3], removedLabels: [] });
    const byLabel = await cli.run(['prompts', 'delete', 'd/two', '--label', 'staging', '-y']);
    expect(byLabel.sent.at(-1)!.path).toBe('/api/public/v2/prompts/d%2Ftwo?version=2');
    expect(byLabel.stderr).toContain("Deleted version 2 of prompt 'd/two' (labels: staging, latest)");
    const left = await cli.run(['prompts', 'get', 'd/two', '--label', 'latest', '--json']);
    expect(JSON.parse(left.stdout)).toMatchObject({ version: 1, labels: ['production', 'latest'] });
  });

  it('asks on a terminal, saying how many versions go, and does nothing when declined', async () => {
    await cli.seed({ name: 'd/all', prompt: 'a', labels: ['production'] });
    await cli.seed({ name: 'd/all', prompt: 'b' });
    let asked = '';
    const declining: Prompter = { confirm: async (options: { message: string }) => ((asked = options.message), false) } as unknown as Prompter;
    const declined = await cli.run(['prompts', 'delete', 'd/all'], { tty: true, prompter: declining });
    expect(asked).toBe("Delete all 2 versions of prompt 'd/all' (1-2)?");
    expect(declined.sent.map((r) => r.method)).toEqual(['GET']);
    expect(declined.stderr).toContain('Nothing deleted.');
    expect((await cli.run(['prompts', 'delete', 'd/all', '--version', '9'], { tty: true, prompter: no })).exitCode).toBe(8);
    const accepted = await cli.run(['prompts', 'delete', 'd/all'], { tty: true, prompter: yes });
    expect(accepted.sent.map((r) => `${r.method} ${r.path}`).at(-1)).toBe('DELETE /api/public/v2/prompts/d%2Fall');
    expect((await cli.run(['prompts', 'get', 'd/all', '--label', 'latest'])).exitCode).toBe(8);
  });
});
