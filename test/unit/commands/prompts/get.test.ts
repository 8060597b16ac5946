// `llmobs prompts get` in-process against the local server: fetched by label or version, shown whole or raw, with the references it resolves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCli, localCli } from '../../../helpers/local-cli.js';

let cli: LocalCli;

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

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
