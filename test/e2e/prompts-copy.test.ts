// prompts copy between two local servers (two projects): content, labels, tags and commit
// messages arrive, children before parents, and a second copy sends nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../helpers/cli.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { type TwoProjects, twoProjects } from '../helpers/projects.js';

let p: TwoProjects;
beforeEach(async () => {
  p = await twoProjects();
});
afterEach(async () => {
  await p.close();
});

const list = async (server: TwoProjects['source'], name: string) => {
  const page = await p.get(server, `/api/public/v2/prompts?name=${encodeURIComponent(name)}`);
  return page.data[0];
};
const version = (server: TwoProjects['source'], name: string, query: string) => p.get(server, `/api/public/v2/prompts/${encodeURIComponent(name)}?${query}&resolve=false`);

async function seedSource() {
  // child: v1 production, v2, v3 latest staging
  await p.seed(p.source, { name: 'shared/tone', prompt: 'Be kind.', labels: ['production'], tags: ['core'], commitMessage: 'first' });
  await p.seed(p.source, { name: 'shared/tone', prompt: 'Be brief.' });
  await p.seed(p.source, { name: 'shared/tone', prompt: 'Be brief and kind.', labels: ['staging'], config: { temperature: 0 }, commitMessage: 'third' });
  // parent references the child by label, chat with a placeholder
  await p.seed(p.source, {
    name: 'agent',
    type: 'chat',
    prompt: [{ role: 'system', content: 'Rules: @@@langfusePrompt:name=shared/tone|label=production@@@' }, { type: 'placeholder', name: 'history' }],
    labels: ['production'],
    config: { model: 'gpt-4o' },
  });
}

describe('prompts copy', { timeout: 90_000 }, () => {
  it('copies labelled versions and the latest, in order, children first; a second copy sends nothing', async () => {
    await seedSource();
    const first = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(first.stderr).toContain('Copied');
    expect(first.exitCode).toBe(0);
    expect(first.writesTo(p.source)).toEqual([]);
    const writes = first.writesTo(p.destination);
    // shared/tone v1 (production) and v3 (latest, staging), then agent: the child comes first.
    expect(writes.map((w) => `${w.method} ${(w.body as { name?: string }).name} ${JSON.stringify((w.body as { labels?: string[] }).labels)}`)).toEqual([
      'POST shared/tone ["production"]',
      'POST shared/tone ["staging"]',
      'POST agent ["production"]',
    ]);
    const tone = await list(p.destination, 'shared/tone');
    expect(tone.versions).toEqual([1, 2]);
    expect(tone.tags).toEqual(['core']);
    expect(await version(p.destination, 'shared/tone', 'label=production')).toMatchObject({ version: 1, prompt: 'Be kind.', commitMessage: 'first' });
    expect(await version(p.destination, 'shared/tone', 'label=staging')).toMatchObject({ version: 2, prompt: 'Be brief and kind.', config: { temperature: 0 }, commitMessage: 'third', labels: expect.arrayContaining(['latest', 'staging']) });
    // References stay raw.
    expect((await version(p.destination, 'agent', 'label=production')).prompt[0].content).toBe('Rules: @@@langfusePrompt:name=shared/tone|label=production@@@');

    const second = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(second.exitCode).toBe(0);
    expect(second.writesTo(p.destination)).toEqual([]);
    expect(second.stderr).toContain('Nothing to copy');
  });

  it('moves a label in the destination when it moved in the source, without a new version', async () => {
    await seedSource();
    await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
    // production moves to v3 in the source.
    await fetch(`${p.source.url}/api/public/v2/prompts/shared%2Ftone/versions/3`, {
      method: 'PATCH',
      headers: { authorization: `Basic ${Buffer.from(`${p.source.keys.publicKey}:${p.source.keys.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
      body: JSON.stringify({ newLabels: ['production'] }),
    });
    const run = await p.run(['prompts', 'copy', 'shared/tone', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(run.exitCode).toBe(0);
    expect(run.writesTo(p.destination).map((w) => `${w.method} ${w.path} ${JSON.stringify(w.body)}`)).toEqual(['PATCH /api/public/v2/prompts/shared%2Ftone/versions/2 {"newLabels":["production"]}']);
  });

  it('--all-versions copies every version in order and prints the mapping; --dry-run sends nothing', async () => {
    await seedSource();
    const dry = await p.run(['prompts', 'copy', 'shared/tone', '--all-versions', '--from-profile', 'source', '--to-profile', 'destination', '--dry-run']);
    expect(dry.exitCode).toBe(0);
    expect(dry.writesTo(p.destination)).toEqual([]);
    expect(dry.stdout).toContain('1→1 (new), 2→2 (new), 3→3 (new)');
    const run = await p.run(['prompts', 'copy', 'shared/tone', '--all-versions', '--from-profile', 'source', '--to-profile', 'destination', '--json']);
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout).prompts[0].mapping).toEqual([
      { source: 1, destination: 1, created: true },
      { source: 2, destination: 2, created: true },
      { source: 3, destination: 3, created: true },
    ]);
    const again = await p.run(['prompts', 'copy', 'shared/tone', '--all-versions', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(again.writesTo(p.destination)).toEqual([]);
  });

  it('rewrites a reference by version number to the number that version has in the destination', async () => {
    await p.seed(p.source, { name: 'child', prompt: 'old' });
    await p.seed(p.source, { name: 'child', prompt: 'kept', labels: ['production'] });
    await p.seed(p.source, { name: 'child', prompt: 'newest' });
    await p.seed(p.source, { name: 'parent', prompt: 'x @@@langfusePrompt:name=child|version=2@@@' });
    const run = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(run.exitCode).toBe(0);
    // child v2 (production) is the destination's v1, v3 its v2.
    expect((await version(p.destination, 'parent', 'version=1')).prompt).toBe('x @@@langfusePrompt:name=child|version=1@@@');
    const again = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(again.writesTo(p.destination)).toEqual([]);
  });

  it('refuses before sending: a reference to a prompt that is neither copied nor in the destination', async () => {
    await p.seed(p.source, { name: 'child', prompt: 'c', labels: ['production'] });
    await p.seed(p.source, { name: 'parent', prompt: '@@@langfusePrompt:name=child|label=production@@@' });
    const run = await p.run(['prompts', 'copy', 'parent', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain("'child' is not copied and does not exist in the destination");
    expect(run.writesTo(p.destination)).toEqual([]);
  });

  it('--label copies only the versions under it, and says which prompts have none', async () => {
    await seedSource();
    await p.seed(p.source, { name: 'unlabelled', prompt: 'u' });
    const run = await p.run(['prompts', 'copy', '--all', '--label', 'staging', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain('Skipped (no version labelled staging): agent, unlabelled');
    expect(run.writesTo(p.destination).map((w) => `${(w.body as { name: string }).name} ${(w.body as { prompt: string }).prompt} ${JSON.stringify((w.body as { labels: string[] }).labels)}`)).toEqual([
      'shared/tone Be brief and kind. ["staging"]',
    ]);
  });

  it('a named prompt that is missing, or has none of the --label labels, is not found (exit 8) and nothing is sent', async () => {
    await seedSource();
    const missing = await p.run(['prompts', 'copy', 'agent', 'ghost', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(missing.exitCode).toBe(8);
    expect(missing.stderr).toContain("not in the source project (profile source): 'ghost'");
    expect(missing.writesTo(p.destination)).toEqual([]);
    const unlabelled = await p.run(['prompts', 'copy', 'agent', 'shared/tone', '--label', 'staing', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(unlabelled.exitCode).toBe(8);
    expect(unlabelled.stderr).toContain("no version labelled staing in the source project (profile source): 'agent', 'shared/tone'; nothing was sent");
    expect(unlabelled.writesTo(p.destination)).toEqual([]);
    // The hint reads the source project, with the name quoted for the shell.
    expect(unlabelled.stderr).toContain('See their labels with: llmobs labels list --profile source agent');
    // With --all, prompts without the label are skipped, and the summary says why nothing was copied.
    const all = await p.run(['prompts', 'copy', '--all', '--label', 'staing', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(all.exitCode).toBe(0);
    expect(all.stderr).toContain('Nothing to copy (profile source → profile destination): no prompt has a version labelled staing.');
  });

  it('an unknown --to-profile or --from-profile is named by its option', async () => {
    const to = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'nope']);
    expect(to.exitCode).toBe(3);
    expect(to.stderr).toContain('profile "nope" not found (from --to-profile)');
    const from = await p.run(['prompts', 'copy', '--all', '--from-profile', 'nope', '--to-profile', 'destination']);
    expect(from.exitCode).toBe(3);
    expect(from.stderr).toContain('profile "nope" not found (from --from-profile)');
    expect([...to.sent, ...from.sent]).toEqual([]);
  });

  it('refuses to copy a project onto itself, and needs names or --all', async () => {
    const self = await p.run(['prompts', 'copy', '--all', '--from-profile', 'destination', '--to-profile', 'destination']);
    expect(self.exitCode).toBe(2);
    expect(self.stderr).toContain('the same project');
    const none = await p.run(['prompts', 'copy', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(none.exitCode).toBe(2);
    expect(none.sent).toEqual([]);
  });

  it('copies tags that changed without new content as one version with the same content', async () => {
    await p.seed(p.source, { name: 'a', prompt: 'x', tags: ['one'] });
    await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
    await p.seed(p.source, { name: 'a', prompt: 'x', tags: ['two'] });
    const run = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
    // The source's latest (v2) has the same content as the destination's latest: only the tags changed.
    expect(run.writesTo(p.destination).map((w) => (w.body as { tags?: string[] }).tags)).toEqual([['two']]);
    const again = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
    expect(again.writesTo(p.destination)).toEqual([]);
  });

  it('stops at a 500 midway, says how far it got, and a re-run completes without duplicates', async () => {
    await seedSource();
    let posts = 0;
    const proxy = await startFaultProxy(p.destination.url, (request) => (request.method === 'POST' && ++posts === 2 ? { kind: 'answer', status: 500 } : { kind: 'pass' }));
    try {
      const added = await runInProcess(['profile', 'add', 'flaky', '--base-url', proxy.url, '--public-key', p.destination.keys.publicKey, '--secret-key-stdin'], { env: p.env, stdin: p.destination.keys.secretKey });
      expect(added.exitCode).toBe(0);
      const failed = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'flaky']);
      expect(failed.exitCode).toBe(5);
      expect(failed.stderr).toContain('copy stopped at \'shared/tone\' version 3: 1 of 3 writes done, 2 not done.');
      expect(failed.stderr).toContain('Run the same copy again');
      const rerun = await p.run(['prompts', 'copy', '--all', '--from-profile', 'source', '--to-profile', 'destination']);
      expect(rerun.exitCode).toBe(0);
      expect(rerun.writesTo(p.destination).map((w) => (w.body as { name: string }).name)).toEqual(['shared/tone', 'agent']);
      expect((await list(p.destination, 'shared/tone')).versions).toEqual([1, 2]);
    } finally {
      await proxy.close();
    }
  });
});
