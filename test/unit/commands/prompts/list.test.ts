// `llmobs prompts list` in-process against the local server: filters, pages and dates.
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
});
