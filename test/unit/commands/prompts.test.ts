// `llmobs prompts ...` in-process against the local server: what is sent (checked against the
// contract), what is printed, exit codes, and that local mistakes send nothing.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/cli.js';
import { type LocalCli, localCli } from '../../helpers/local-cli.js';
import type { Prompter } from '../../../src/prompter.js';

let cli: LocalCli;
const dir = tempDir();
const file = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return join(dir, name);
};

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

describe('prompts create', () => {
  it('sends the text, labels, tags, config and commit message, and prints the version and labels', async () => {
    const result = await cli.run(['prompts', 'create', 'c/text', '--text', 'Hi {{name}}', '-l', 'production', '--label', 'staging', '--tag', 'team', '--config', '{"model":"gpt-4o"}', '-m', 'first']);
    expect(result.exitCode).toBe(0);
    expect(result.sent).toEqual([
      expect.objectContaining({
        method: 'POST',
        path: '/api/public/v2/prompts',
        body: { name: 'c/text', type: 'text', prompt: 'Hi {{name}}', labels: ['production', 'staging'], tags: ['team'], config: { model: 'gpt-4o' }, commitMessage: 'first' },
      }),
    ]);
    expect(result.stdout).toBe('Name\tc/text\nVersion\t1\nType\ttext\nLabels\tproduction, staging, latest\nTags\tteam\n');
    expect(result.stderr).toContain("Created version 1 of text prompt 'c/text'");
  });

  it('prints the API object with --json, keeping the tags when none are given', async () => {
    const result = await cli.run(['prompts', 'create', 'c/text', '--text', 'Hello {{name}}', '--json']);
    expect(result.sent[0]!.body).not.toHaveProperty('tags');
    expect(JSON.parse(result.stdout)).toMatchObject({ name: 'c/text', version: 2, type: 'text', labels: ['latest'], tags: ['team'], commitMessage: null });
  });

  it('sends tags: [] for --clear-tags', async () => {
    const result = await cli.run(['prompts', 'create', 'c/text', '--text', 'x', '--clear-tags']);
    expect(result.sent[0]!.body).toMatchObject({ tags: [] });
  });

  it('reads chat messages from YAML, with placeholders, and a config file', async () => {
    const chat = file('chat.yaml', '- role: system\n  content: You are {{persona}}\n- type: placeholder\n  name: history\n- role: user\n  content: "{{question}}"\n');
    const config = file('config.yaml', 'model: gpt-4o\ntemperature: 0\n');
    const result = await cli.run(['prompts', 'create', 'c/chat', '--chat-file', chat, '--config-file', config]);
    expect(result.exitCode).toBe(0);
    expect(result.sent[0]!.body).toEqual({
      name: 'c/chat',
      type: 'chat',
      prompt: [{ role: 'system', content: 'You are {{persona}}' }, { type: 'placeholder', name: 'history' }, { role: 'user', content: '{{question}}' }],
      labels: [],
      config: { model: 'gpt-4o', temperature: 0 },
    });
  });

  it('infers the type of content on stdin and drops one final line break of text', async () => {
    const chat = await cli.run(['prompts', 'create', 'c/stdin-chat'], { stdin: '[{"role":"user","content":"hi"}]\n' });
    expect(chat.sent[0]!.body).toMatchObject({ type: 'chat', prompt: [{ role: 'user', content: 'hi' }] });
    const text = await cli.run(['prompts', 'create', 'c/stdin-text'], { stdin: 'line one\nline two\n\n' });
    expect(text.sent[0]!.body).toMatchObject({ type: 'text', prompt: 'line one\nline two\n' });
  });

  it('makes --file a text prompt and warns when it looks like chat', async () => {
    const looksChat = file('looks-chat.json', '[{"role":"user","content":"hi"}]\n');
    const result = await cli.run(['prompts', 'create', 'c/file', '--file', looksChat]);
    expect(result.sent[0]!.body).toMatchObject({ type: 'text', prompt: '[{"role":"user","content":"hi"}]' });
    expect(result.stderr).toMatch(/looks like chat messages.*--chat-file/);
  });

  it('prints the body and sends nothing with --dry-run', async () => {
    const result = await cli.run(['prompts', 'create', 'c/dry', '--text', 'x', '--label', 'production', '--dry-run']);
    expect(result.exitCode).toBe(0);
    expect(result.sent).toEqual([]);
    expect(JSON.parse(result.stdout)).toEqual({ name: 'c/dry', type: 'text', prompt: 'x', labels: ['production'], config: {} });
  });

  it.each([
    ['a name with //', ['a//b', '--text', 'x'], /must not contain '\/\/'/],
    ['a reserved name', ['new', '--text', 'x'], /reserved/],
    ['an uppercase label', ['p', '--text', 'x', '--label', 'Prod'], /lowercase letters/],
    ['latest as a label', ['p', '--text', 'x', '--label', 'latest'], /'latest' cannot be set by hand/],
    ['a 37-character label', ['p', '--text', 'x', '--label', 'l'.repeat(37)], /1 to 36 characters/],
    ['two content sources', ['p', '--text', 'x', '--file', 'f.txt'], /--text, --file were given together/],
    ['a 501-character commit message', ['p', '--text', 'x', '-m', 'm'.repeat(501)], /limit is 500/],
    ['a variable named like a placeholder', ['p', '--text', '[{"role":"user","content":"{{h}}"},{"type":"placeholder","name":"h"}]', '--type', 'chat'], /variables and placeholders must be unique, the following are not: h/],
    ['--chat-file with --type text', ['p', '--chat-file', 'x.json', '--type', 'text'], /--chat-file makes a chat prompt/],
    ['bad --config JSON', ['p', '--text', 'x', '--config', '{model'], /--config is not valid JSON/],
    ['--tag with --clear-tags', ['p', '--text', 'x', '--tag', 'a', '--clear-tags'], /--tag or --clear-tags/],
    ['an unknown --type', ['p', '--text', 'x', '--type', 'html'], /Allowed choices are text, chat/],
  ] as const)('refuses %s locally with exit 2 and sends nothing', async (_, args, message) => {
    const result = await cli.run(['prompts', 'create', ...args]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.sent).toEqual([]);
  });

  it('refuses empty stdin (2) and a missing file (6) before sending', async () => {
    const empty = await cli.run(['prompts', 'create', 'p'], { stdin: '  \n' });
    expect([empty.exitCode, empty.sent]).toEqual([2, []]);
    expect(empty.stderr).toContain('stdin was empty');
    const missing = await cli.run(['prompts', 'create', 'p', '--chat-file', join(dir, 'nope.yaml')]);
    expect([missing.exitCode, missing.sent]).toEqual([6, []]);
  });

  it('explains the server refusing a change of type (exit 5)', async () => {
    const result = await cli.run(['prompts', 'create', 'c/text', '--text', '[{"role":"user","content":"x"}]', '--type', 'chat']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Previous versions have different prompt type');
    expect(result.stderr).toContain("Every version of 'c/text' has the same type");
  });
});

describe('prompts get', () => {
  beforeAll(async () => {
    await cli.seed({ name: 'g/app/summary', prompt: 'v1 {{a}}', labels: ['production'], config: { t: 1 }, tags: ['x'], commitMessage: 'one' });
    await cli.seed({ name: 'g/app/summary', prompt: 'v2 {{a}} {{b}}\n', labels: ['staging'] });
    await cli.seed({ name: 'g/chat', type: 'chat', prompt: [{ role: 'system', content: 'S {{p}}' }, { type: 'placeholder', name: 'h' }], labels: ['production'] });
    await cli.seed({ name: 'g/no-prod', prompt: 'x', labels: ['staging'] });
  });

  it('fetches production by default, URL-encoding the folder name, and shows the details', async () => {
    const result = await cli.run(['prompts', 'get', 'g/app/summary']);
    expect(result.exitCode).toBe(0);
    expect(result.sent.map((r) => r.path)).toEqual(['/api/public/v2/prompts/g%2Fapp%2Fsummary']);
    expect(result.stdout).toContain('Version\t1\n');
    expect(result.stdout).toContain('Labels\tproduction\n');
    expect(result.stdout).toContain('Config\t{"t":1}\n');
    expect(result.stdout).toContain('Commit message\tone\n');
    expect(result.stdout).toContain('Variables\ta\n');
    expect(result.stdout.endsWith('\nv1 {{a}}\n')).toBe(true);
  });

  it('fetches by --version (not the program version) and by --label', async () => {
    const byVersion = await cli.run(['prompts', 'get', 'g/app/summary', '--version', '2', '--raw']);
    expect(byVersion.sent[0]!.path).toBe('/api/public/v2/prompts/g%2Fapp%2Fsummary?version=2');
    expect(byVersion.stdout).toBe('v2 {{a}} {{b}}\n');
    const byLabel = await cli.run(['prompts', 'get', 'g/app/summary', '--label', 'staging', '--json']);
    expect(JSON.parse(byLabel.stdout)).toMatchObject({ version: 2, labels: ['staging', 'latest'], resolutionGraph: null, isActive: false });
  });

  it('prints only the content with --raw: text exactly, chat as JSON', async () => {
    const text = await cli.run(['prompts', 'get', 'g/app/summary', '--raw']);
    expect(text.stdout).toBe('v1 {{a}}');
    const chat = await cli.run(['prompts', 'get', 'g/chat', '--raw']);
    expect(JSON.parse(chat.stdout)).toEqual([{ role: 'system', content: 'S {{p}}' }, { type: 'placeholder', name: 'h' }]);
  });

  it('shows chat messages one per block with placeholders', async () => {
    const result = await cli.run(['prompts', 'get', 'g/chat']);
    expect(result.stdout).toContain('Placeholders\th\n');
    expect(result.stdout).toContain('[system]\nS {{p}}\n\n[placeholder: h]\n');
  });

  it('says when there is no production version, the default (exit 8)', async () => {
    const result = await cli.run(['prompts', 'get', 'g/no-prod']);
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain("prompt 'g/no-prod' has no version labelled 'production' — the server's default when no --version/--label is given");
    expect(result.stderr).toContain('Its labels: latest, staging.');
  });

  it('tells an unknown prompt, version and label apart (exit 8)', async () => {
    const prompt = await cli.run(['prompts', 'get', 'g/missing', '--json']);
    expect(prompt.exitCode).toBe(8);
    expect(JSON.parse(prompt.stderr).error).toMatchObject({ code: 'not_found', message: "prompt 'g/missing' not found", exitCode: 8 });
    const version = await cli.run(['prompts', 'get', 'g/app/summary', '--version', '7']);
    expect([version.exitCode, version.stderr]).toEqual([8, expect.stringContaining("prompt 'g/app/summary' has no version 7\nIts versions: 1-2.")]);
    const label = await cli.run(['prompts', 'get', 'g/app/summary', '--label', 'qa']);
    expect([label.exitCode, label.stderr]).toEqual([8, expect.stringContaining("has no version labelled 'qa'")]);
  });

  it.each([
    [['--version', '1', '--label', 'x'], /not both/],
    [['--version', '0'], /from 1 to/],
    [['--version', 'two'], /from 1 to/],
    [['--raw', '--json'], /--raw or --json/],
  ])('refuses %j with exit 2 and sends nothing', async (args, message) => {
    const result = await cli.run(['prompts', 'get', 'g/app/summary', ...args]);
    expect([result.exitCode, result.sent]).toEqual([2, []]);
    expect(result.stderr).toMatch(message);
  });
});

describe('prompts get with references to other prompts', () => {
  const ref = (inner: string) => `@@@langfusePrompt:${inner}@@@`;
  beforeAll(async () => {
    await cli.seed({ name: 'r/leaf', prompt: 'the leaf', labels: ['production'] });
    await cli.seed({ name: 'r/middle', prompt: `middle(${ref('name=r/leaf|label=production')})`, labels: ['production'] });
    await cli.seed({ name: 'r/top', prompt: `top ${ref('name=r/middle|version=1')} and ${ref('name=r/leaf|version=1')}`, labels: ['production'] });
  });

  it('shows the resolved content and the versions the references used', async () => {
    const result = await cli.run(['prompts', 'get', 'r/top']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('References\tr/middle v1, r/leaf v1 (in r/middle v1), r/leaf v1\n');
    expect(result.stdout.endsWith('\ntop middle(the leaf) and the leaf\n')).toBe(true);
    const json = JSON.parse((await cli.run(['prompts', 'get', 'r/top', '--json'])).stdout);
    expect(Object.keys(json.resolutionGraph.dependencies)).toHaveLength(2);
    expect(json.resolutionGraph.root).toMatchObject({ name: 'r/top', version: 1 });
  });

  it('shows the stored tags and no references with --no-resolve', async () => {
    const result = await cli.run(['prompts', 'get', 'r/top', '--no-resolve', '--raw']);
    expect(result.sent[0]!.path).toBe('/api/public/v2/prompts/r%2Ftop?resolve=false');
    expect(result.stdout).toBe(`top ${ref('name=r/middle|version=1')} and ${ref('name=r/leaf|version=1')}`);
    expect((await cli.run(['prompts', 'get', 'r/top', '--no-resolve'])).stdout).not.toContain('References');
    expect((await cli.run(['prompts', 'get', 'r/leaf'])).stdout).not.toContain('References');
  });

  it('explains a 409 for a reference that no longer resolves (exit 5)', async () => {
    await cli.seed({ name: 'r/hop4', prompt: 'end' });
    for (let i = 3; i >= 1; i--) await cli.seed({ name: `r/hop${i}`, prompt: ref(`name=r/hop${i + 1}|version=1`) });
    await cli.seed({ name: 'r/link', prompt: 'short', labels: ['x'] });
    await cli.seed({ name: 'r/link', prompt: ref('name=r/hop1|version=1') });
    await cli.seed({ name: 'r/broken', prompt: ref('name=r/link|label=x'), labels: ['production'] });
    await cli.seedLabels('r/link', 2, ['x']);
    const result = await cli.run(['prompts', 'get', 'r/broken']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('409 Conflict from GET /api/public/v2/prompts/r%2Fbroken: Maximum nesting depth exceeded (5)');
    expect(result.stderr).toContain('See the stored content with --no-resolve.');
  });

  it('refuses to delete a referenced version, saying which prompts reference it (exit 5)', async () => {
    const result = await cli.run(['prompts', 'delete', 'r/leaf', '--version', '1', '--yes']);
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Other prompts are depending on prompt versions you are trying to delete:\n\nr/middle v1 depends on r/leaf production\nr/top v1 depends on r/leaf v1\n\nPlease delete the dependent prompts first.');
    expect(result.stderr).toContain('The prompt versions listed reference it with @@@langfusePrompt tags; delete them first.');
    expect(result.stderr).not.toContain('fix the fields');
    expect((await cli.run(['prompts', 'get', 'r/leaf', '--raw'])).stdout).toBe('the leaf');
  });
});

describe('prompts list and versions', () => {
  beforeAll(async () => {
    for (const name of ['l/a', 'l/b', 'l/c']) await cli.seed({ name, prompt: 'x', tags: name === 'l/b' ? ['keep'] : [] });
    await cli.seed({ name: 'l/a', prompt: 'y', labels: ['production'], commitMessage: 'second' });
    await cli.seed({ name: 'l/a', prompt: 'z', commitMessage: 'third' });
  });

  it('filters by name, label and tag; a label filter shows only the versions that have it', async () => {
    const byLabel = await cli.run(['prompts', 'list', '--name', 'l/a', '--label', 'production', '--json']);
    expect(byLabel.sent[0]!.path).toBe('/api/public/v2/prompts?name=l%2Fa&label=production');
    expect(JSON.parse(byLabel.stdout).data).toEqual([expect.objectContaining({ name: 'l/a', versions: [2], labels: ['production'] })]);
    const byTag = await cli.run(['prompts', 'list', '--tag', 'keep']);
    expect(byTag.stdout).toMatch(/^l\/b\ttext\t1\tlatest\tkeep\t/);
    const none = await cli.run(['prompts', 'list', '--name', 'l/none']);
    expect([none.exitCode, none.stdout, none.stderr]).toEqual([0, '', 'No prompts match.\n']);
  });

  it('pages with --page and --limit, hints at the next page, and fetches everything with --all', async () => {
    const page = await cli.run(['prompts', 'list', '--limit', '2', '--page', '1', '--json']);
    const parsed = JSON.parse(page.stdout);
    expect(parsed.data).toHaveLength(2);
    expect(parsed.meta.totalPages).toBe(Math.ceil(parsed.meta.totalItems / 2));
    expect(page.stderr).toMatch(/Page 1 of \d+ \(\d+ prompts\)\. Next: --page 2, or --all/);
    const human = await cli.run(['prompts', 'list', '--limit', '2']);
    expect(human.stderr).toBe(`Showing 2 of ${parsed.meta.totalItems} prompts. More: --limit ${parsed.meta.totalItems}, or --all\n`);
    const all = await cli.run(['prompts', 'list', '--all', '--json']);
    expect(JSON.parse(all.stdout).data).toHaveLength(parsed.meta.totalItems);
    expect(JSON.parse(all.stdout).meta).toMatchObject({ totalItems: parsed.meta.totalItems });
    expect(all.sent[0]!.path).toContain('limit=100');
  });

  it('sends --from-updated-at and --to-updated-at as fromUpdatedAt and toUpdatedAt, on every page with --all', async () => {
    const window = ['--from-updated-at', '2000-01-01T00:00:00+01:00', '--to-updated-at', '2100-01-01T00:00:00Z'];
    const inside = await cli.run(['prompts', 'list', '--name', 'l/a', ...window, '--json']);
    expect(inside.exitCode, inside.stderr).toBe(0);
    expect(inside.sent[0]!.path).toBe('/api/public/v2/prompts?name=l%2Fa&fromUpdatedAt=2000-01-01T00%3A00%3A00%2B01%3A00&toUpdatedAt=2100-01-01T00%3A00%3A00Z');
    expect(JSON.parse(inside.stdout).data).toEqual([expect.objectContaining({ name: 'l/a', versions: [1, 2, 3] })]);
    const all = await cli.run(['prompts', 'list', '--all', ...window, '--json']);
    expect(all.sent.every((request) => request.path.includes('fromUpdatedAt=') && request.path.includes('toUpdatedAt='))).toBe(true);
    const before = await cli.run(['prompts', 'list', '--to-updated-at', '2000-01-01T00:00:00Z']);
    expect([before.exitCode, before.stdout, before.stderr]).toEqual([0, '', 'No prompts match.\n']);
  });

  it.each([
    [['--from-updated-at', '2026-05-01']],
    [['--to-updated-at', '2026-05-01T00:00:00']],
    [['--from-updated-at', '2026-06-01T00:00:00Z', '--to-updated-at', '2026-05-01T00:00:00Z']],
  ])('refuses the dates %j with exit 2, saying why, and sends nothing', async (args) => {
    const result = await cli.run(['prompts', 'list', ...args]);
    expect([result.exitCode, result.sent]).toEqual([2, []]);
    expect(result.stderr).toMatch(/--(from|to)-updated-at/);
  });

  it.each([[['--all', '--page', '2']], [['--all', '--limit', '5']], [['--limit', '101', '--page', '1']], [['--page', '0']], [['--limit', '0']]])('refuses %j with exit 2 and sends nothing', async (args) => {
    const result = await cli.run(['prompts', 'list', ...args]);
    expect([result.exitCode, result.sent]).toEqual([2, []]);
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
