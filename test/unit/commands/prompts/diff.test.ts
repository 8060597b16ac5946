// `prompts diff` in-process against the local server, and its --exit-code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCli, localCli } from '../../../helpers/local-cli.js';

let cli: LocalCli;

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

describe('prompts diff', () => {
  beforeAll(async () => {
    await cli.seed({ name: 'k/diff', type: 'chat', prompt: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: '{{q}}' }], config: { temperature: 0, model: 'a' }, labels: ['production'] });
    await cli.seed({ name: 'k/diff', type: 'chat', prompt: [{ role: 'system', content: 'Be very brief.' }, { role: 'user', content: '{{q}}' }], config: { model: 'a', temperature: 0.5 }, labels: ['staging'] });
  });

  it('shows a unified diff of the messages, one block each, and of the config', async () => {
    const result = await cli.run(['prompts', 'diff', 'k/diff', 'production', '2']);
    expect(result.exitCode).toBe(0);
    expect(result.sent.map((r) => r.path)).toEqual(['/api/public/v2/prompts/k%2Fdiff?label=production', '/api/public/v2/prompts/k%2Fdiff?version=2']);
    expect(result.stdout).toBe(
      [
        '--- k/diff@v1 (production)',
        '+++ k/diff@v2 (staging, latest)',
        '@@ -1,4 +1,4 @@',
        ' --- [0] system',
        '-Be brief.',
        '+Be very brief.',
        ' --- [1] user',
        ' {{q}}',
        '--- k/diff@v1 (production) config',
        '+++ k/diff@v2 (staging, latest) config',
        '@@ -1,4 +1,4 @@',
        ' {',
        '   "model": "a",',
        '-  "temperature": 0',
        '+  "temperature": 0.5',
        ' }',
        '',
      ].join('\n'),
    );
  });

  it('prints the diff as JSON, and says when there is no difference', async () => {
    const json = JSON.parse((await cli.run(['prompts', 'diff', 'k/diff', '1', 'staging', '--json'])).stdout);
    expect(json).toMatchObject({ name: 'k/diff', a: { ref: '1', version: 1 }, b: { ref: 'staging', version: 2 }, same: false });
    expect(json.content).toContain('+Be very brief.');
    const same = await cli.run(['prompts', 'diff', 'k/diff', 'latest', 'staging']);
    expect([same.exitCode, same.stdout]).toEqual([0, '']);
    expect(same.stderr).toContain('latest and staging are both version 2.');
  });

  it('fails with exit 8 for an unknown side and 2 for a bad one', async () => {
    expect((await cli.run(['prompts', 'diff', 'k/diff', '1', 'qa'])).exitCode).toBe(8);
    const bad = await cli.run(['prompts', 'diff', 'k/diff', '1', '0']);
    expect([bad.exitCode, bad.sent]).toEqual([2, []]);
  });
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
