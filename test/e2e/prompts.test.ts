// The built binary against the local server: prompt versions from creation to deletion, with a
// folder name throughout.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs, profileEnv } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';

let server: RunningServer;
/** One line per request the server answered. */
const served: string[] = [];
let env: Record<string, string | undefined>;
const dir = tempDir();
const NAME = 'team/app/summary';

const run = (args: string[], input?: string) => llmobs(args, { env, ...(input === undefined ? {} : { input }) });
const json = async (args: string[]) => {
  const result = await run([...args, '--json']);
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
};

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true, log: (line) => served.push(line) });
  env = await profileEnv(server);
});
afterAll(() => server.close());

describe('prompts end to end', () => {
  it('creates text and chat prompts with labels, config and tags, then a new version from stdin', async () => {
    const first = await run(['prompts', 'create', NAME, '--text', 'Summarise {{text}} in {{n}} words.', '--label', 'production', '--config', '{"model":"gpt-4o","temperature":0}', '--tag', 'team-a', '-m', 'first']);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(first.stdout).toBe(`Name\t${NAME}\nVersion\t1\nType\ttext\nLabels\tproduction, latest\nTags\tteam-a\n`);

    writeFileSync(join(dir, 'agent.yaml'), '- role: system\n  content: You are {{persona}}.\n- type: placeholder\n  name: history\n- role: user\n  content: "{{question}}"\n');
    writeFileSync(join(dir, 'model.json'), '{"model":"gpt-4o-mini"}');
    const chat = await run(['prompts', 'create', 'team/agent', '--chat-file', join(dir, 'agent.yaml'), '--config-file', join(dir, 'model.json'), '--label', 'production']);
    expect(chat.exitCode, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('Type\tchat\n');

    const second = await run(['prompts', 'create', NAME, '--label', 'staging', '-m', 'shorter', '--json'], 'Summarise {{text}} in at most {{n}} words.\n');
    expect(second.exitCode, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ name: NAME, version: 2, type: 'text', labels: ['staging', 'latest'], tags: ['team-a'], prompt: 'Summarise {{text}} in at most {{n}} words.' });
  });

  it('gets production by default, a label, a version, and says when production is missing', async () => {
    const byDefault = await run(['prompts', 'get', NAME]);
    expect(byDefault.stdout).toContain('Version\t1\n');
    expect(byDefault.stdout).toContain('Config\t{"model":"gpt-4o","temperature":0}\n');
    expect(byDefault.stdout.endsWith('\nSummarise {{text}} in {{n}} words.\n')).toBe(true);
    expect((await run(['prompts', 'get', NAME, '--label', 'staging', '--raw'])).stdout).toBe('Summarise {{text}} in at most {{n}} words.');
    expect(await json(['prompts', 'get', NAME, '--version', '2'])).toMatchObject({ version: 2, commitMessage: 'shorter', resolutionGraph: null });

    await run(['prompts', 'create', 'team/draft', '--text', 'x']);
    const missing = await run(['prompts', 'get', 'team/draft']);
    expect(missing.exitCode).toBe(8);
    expect(missing.stderr).toContain("prompt 'team/draft' has no version labelled 'production' — the server's default when no --version/--label is given");
  });

  it('lists with filters and pages', async () => {
    const byLabel = await json(['prompts', 'list', '--label', 'staging']);
    expect(byLabel.data).toEqual([expect.objectContaining({ name: NAME, versions: [2], labels: ['latest', 'staging'] })]);
    const page = await json(['prompts', 'list', '--limit', '1', '--page', '2']);
    expect(page.meta).toEqual({ page: 2, limit: 1, totalItems: 3, totalPages: 3 });
    expect(page.data.map((item: { name: string }) => item.name)).toEqual([NAME]);
    const all = await json(['prompts', 'list', '--all', '--tag', 'team-a']);
    expect(all.data.map((item: { name: string }) => item.name)).toEqual([NAME]);
  });

  it('lists the versions updated in a time window, the bounds given with Z or an offset', async () => {
    const mark = new Date();
    // The same instant two hours ahead, written with its offset.
    const markPlus2 = new Date(mark.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const created = await run(['prompts', 'create', 'team/dated', '--text', 'new']);
    expect(created.exitCode, created.stderr).toBe(0);
    const since = await json(['prompts', 'list', '--all', '--from-updated-at', markPlus2]);
    expect(since.data.map((item: { name: string }) => item.name)).toEqual(['team/dated']);
    const before = await json(['prompts', 'list', '--all', '--to-updated-at', mark.toISOString()]);
    expect(before.data.map((item: { name: string }) => item.name)).toEqual(['team/agent', NAME, 'team/draft']);
    const table = await run(['prompts', 'list', '--from-updated-at', mark.toISOString(), '--to-updated-at', '2100-01-01T00:00:00Z']);
    expect(table.stdout).toMatch(/^team\/dated\ttext\t1\tlatest\t\t\S+\n$/);
    expect((await run(['prompts', 'delete', 'team/dated', '--yes'])).exitCode).toBe(0);

    const served0 = served.length;
    const dateOnly = await run(['prompts', 'list', '--from-updated-at', mark.toISOString().slice(0, 10)]);
    expect(dateOnly.exitCode).toBe(2);
    expect(dateOnly.stderr).toContain('--from-updated-at: must be an ISO 8601 date and time with Z or an offset');
    const reversed = await run(['prompts', 'list', '--from-updated-at', '2100-01-01T00:00:00Z', '--to-updated-at', mark.toISOString()]);
    expect(reversed.exitCode).toBe(2);
    expect(reversed.stderr).toContain('must be earlier than --to-updated-at');
    expect(served.slice(served0)).toEqual([]);
  });

  it('lists versions with labels and commit messages', async () => {
    const result = await run(['prompts', 'versions', NAME]);
    expect(result.stdout).toMatch(/^2\tstaging,latest\t\S+\tAPI\tshorter\n1\tproduction\t\S+\tAPI\tfirst\n$/);
  });

  it('compiles variables and placeholders as the SDK does, and fails --strict with exit 2', async () => {
    const text = await run(['prompts', 'compile', NAME, '--var', 'text=<p>the report</p>', '--var', 'n=20']);
    expect(text.stdout).toBe('Summarise <p>the report</p> in 20 words.');
    writeFileSync(join(dir, 'history.json'), JSON.stringify([{ role: 'user', content: 'Hi, I am {{persona}}' }]));
    const chat = await run(['prompts', 'compile', 'team/agent', '--var', 'persona=Ada', '--var', 'question=Why?', '--placeholder', `history=@${join(dir, 'history.json')}`]);
    expect(JSON.parse(chat.stdout)).toEqual([
      { role: 'system', content: 'You are Ada.' },
      { role: 'user', content: 'Hi, I am Ada' },
      { role: 'user', content: 'Why?' },
    ]);
    const strict = await run(['prompts', 'compile', NAME, '--var', 'text=x', '--var', 'extra=1', '--strict']);
    expect(strict.exitCode).toBe(2);
    expect(strict.stderr).toContain('variables not given (they render as nothing): n');
    expect(strict.stderr).toContain('variables given but not used: extra');
  });

  it('diffs two versions by label and number', async () => {
    const result = await run(['prompts', 'diff', NAME, 'production', '2']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`--- ${NAME}@v1 (production)\n+++ ${NAME}@v2 (staging, latest)\n`);
    expect(result.stdout).toContain('-Summarise {{text}} in {{n}} words.\n+Summarise {{text}} in at most {{n}} words.\n');
    expect(result.stdout).toContain('-  "model": "gpt-4o",\n-  "temperature": 0\n-}\n+{}\n');
  });

  it('refuses bad input locally without sending anything', async () => {
    const before = served.length;
    const bad = await run(['prompts', 'create', 'team/new-one', '--text', 'x', '--label', 'Production']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('use only lowercase letters');
    const both = await run(['prompts', 'get', NAME, '--version', '1', '--label', 'production']);
    expect(both.exitCode).toBe(2);
    const clash = await run(['prompts', 'create', 'team/clash', '--type', 'chat'], '[{"role":"user","content":"{{history}}"},{"type":"placeholder","name":"history"}]');
    expect(clash.exitCode).toBe(2);
    expect(served.slice(before)).toEqual([]);
  });

  it('resolves a reference to another prompt on get, and shows the stored tag with --no-resolve', async () => {
    const child = await run(['prompts', 'create', 'team/tone', '--text', 'Be brief and "plain".', '--label', 'production']);
    expect(child.exitCode, child.stderr).toBe(0);
    const content = 'Answer the user. @@@langfusePrompt:name=team/tone|label=production@@@';
    const parent = await run(['prompts', 'create', 'team/answer', '--text', content, '--label', 'production']);
    expect(parent.exitCode, parent.stderr).toBe(0);

    expect((await run(['prompts', 'get', 'team/answer', '--raw'])).stdout).toBe('Answer the user. Be brief and "plain".');
    expect((await run(['prompts', 'get', 'team/answer', '--raw', '--no-resolve'])).stdout).toBe(content);
    const details = await run(['prompts', 'get', 'team/answer']);
    expect(details.stdout).toContain('References\tteam/tone v1\n');
    const resolved = await json(['prompts', 'get', 'team/answer']);
    expect(resolved.resolutionGraph).toEqual({
      root: { name: 'team/answer', version: 1, id: resolved.id },
      dependencies: { [resolved.id]: [{ id: expect.any(String), name: 'team/tone', version: 1 }] },
    });

    const refused = await run(['prompts', 'delete', 'team/tone', '--yes']);
    expect(refused.exitCode).toBe(5);
    expect(refused.stderr).toContain('team/answer v1 depends on team/tone production');
  });

  it('deletes by version and by label, and needs --yes without a terminal', async () => {
    for (const label of ['a', 'b', 'c']) await run(['prompts', 'create', 'team/old', '--text', label, '--label', label]);
    const refused = await run(['prompts', 'delete', 'team/old']);
    expect(refused.exitCode).toBe(2);
    expect((await run(['prompts', 'delete', 'team/old', '--version', '3', '--yes'])).exitCode).toBe(0);
    expect((await run(['prompts', 'delete', 'team/old', '--label', 'a', '--yes'])).exitCode).toBe(0);
    const left = await json(['prompts', 'list', '--name', 'team/old']);
    expect(left.data).toEqual([expect.objectContaining({ versions: [2], labels: ['b', 'latest'] })]);
    expect((await run(['prompts', 'delete', 'team/old', '--yes'])).stderr).toContain("Deleted all 1 version of prompt 'team/old' (2)");
  });
});
