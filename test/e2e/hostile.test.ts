// A hostile project member against llmobs and the local server: planted links in a prompts
// directory, in-process against the real server.
import { existsSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { type LocalCli, localCli } from '../helpers/local-cli.js';

let cli: LocalCli;
let cwd: string;
beforeEach(async () => {
  cli = await localCli();
  cwd = tempDir();
});
afterEach(async () => {
  await cli.close();
});

describe('links planted in a prompts directory', () => {
  it('push refuses a prompt file that links to a file outside the directory, and sends nothing', async () => {
    mkdirSync(join(cwd, 'prompts'));
    writeFileSync(join(cwd, 'prompts', 'fine.md'), 'hello\n');
    writeFileSync(join(cwd, '.env'), 'AWS_SECRET_ACCESS_KEY=planted-secret\n');
    symlinkSync('../.env', join(cwd, 'prompts', 'notes.md'));
    const push = await cli.run(['prompts', 'push', '--dir', 'prompts'], { cwd });
    expect(push.exitCode).toBe(2);
    expect(push.stderr).toContain('prompts/notes.md');
    expect(push.stderr).toContain('outside the prompts directory');
    expect(push.sent.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(JSON.stringify(push.sent)).not.toContain('planted-secret');
  });

  it('pull writes nothing through a linked folder that leads out of the directory', async () => {
    await cli.seed({ name: 'team/agent', type: 'text', prompt: 'planted content', labels: ['production'] });
    mkdirSync(join(cwd, 'prompts'));
    mkdirSync(join(cwd, 'elsewhere'));
    symlinkSync('../elsewhere', join(cwd, 'prompts', 'team'));
    const pull = await cli.run(['prompts', 'pull', '--dir', 'prompts'], { cwd });
    expect(pull.exitCode).toBe(6);
    expect(pull.stderr).toMatch(/symbolic link to .*elsewhere.*only inside the prompts directory/);
    expect(readdirSync(join(cwd, 'elsewhere'))).toEqual([]);
    expect(existsSync(join(cwd, 'prompts', 'team', 'agent.md'))).toBe(false);
  });
});
