// Exit codes that mean one thing wherever they come from.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli.js';
import { type LocalCli, localCli } from '../helpers/local-cli.js';

describe('a profile that does not exist', () => {
  it.each([[['profile', 'use', 'nope']], [['profile', 'show', 'nope']], [['profile', 'remove', 'nope', '--yes']], [['profile', 'test', 'nope']], [['--profile', 'nope', 'whoami']]])(
    '%j exits 3 with one message',
    async (argv) => {
      const result = await runInProcess([...argv, '--json']);
      expect(result.exitCode).toBe(3);
      expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'profile_not_found', exitCode: 3, hint: 'Add it with: llmobs profile add nope' });
      expect(JSON.parse(result.stderr).error.message).toMatch(/^profile "nope" not found( \(from --profile\))?; no profiles are configured$/);
    },
  );
});

describe('prompts diff --exit-code', () => {
  let cli: LocalCli;
  beforeAll(async () => {
    cli = await localCli();
    await cli.seed({ name: 'd/p', type: 'text', prompt: 'one', labels: ['production'] });
    await cli.seed({ name: 'd/p', type: 'text', prompt: 'two', labels: ['staging'] });
  });
  afterAll(() => cli.close());

  it('exits 9 when the versions differ and 0 when they do not, as prompts status --exit-code', async () => {
    const differ = await cli.run(['prompts', 'diff', 'd/p', 'production', 'staging', '--exit-code']);
    expect(differ.exitCode).toBe(9);
    expect(differ.stdout).toContain('+two');
    const json = await cli.run(['prompts', 'diff', 'd/p', 'production', 'staging', '--exit-code', '--json']);
    expect([json.exitCode, JSON.parse(json.stdout).same]).toEqual([9, false]);
    const same = await cli.run(['prompts', 'diff', 'd/p', 'staging', 'latest', '--exit-code']);
    expect(same.exitCode).toBe(0);
    const without = await cli.run(['prompts', 'diff', 'd/p', 'production', 'staging']);
    expect(without.exitCode).toBe(0);
  });

  it('prompts get --raw is exact when piped and ends with a line break on a terminal', async () => {
    await cli.seed({ name: 'd/raw', type: 'text', prompt: 'no final newline', labels: ['production'] });
    expect((await cli.run(['prompts', 'get', 'd/raw', '--raw'])).stdout).toBe('no final newline');
    expect((await cli.run(['prompts', 'get', 'd/raw', '--raw'], { tty: true })).stdout).toBe('no final newline\n');
  });
});
