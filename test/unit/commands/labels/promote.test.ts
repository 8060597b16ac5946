// `llmobs labels promote` in-process against the local server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCli, localCli } from '../../../helpers/local-cli.js';

let cli: LocalCli;
const patches = (sent: Array<{ method: string; path: string; body: unknown }>) => sent.filter((r) => r.method === 'PATCH').map((r) => [r.path, r.body]);

beforeAll(async () => {
  cli = await localCli();
});
afterAll(() => cli.close());

async function threeVersions(name: string): Promise<void> {
  await cli.seed({ name, prompt: 'v1', labels: ['production'] });
  await cli.seed({ name, prompt: 'v2', labels: ['staging'] });
  await cli.seed({ name, prompt: 'v3' });
}

describe('labels promote', () => {
  it('puts --to on the version of --from with one PATCH, stating where it was, for a rollback', async () => {
    await threeVersions('n/promote');
    const result = await cli.run(['labels', 'promote', 'n/promote', '--from', 'staging', '--to', 'production', '--expect-current', '1', '--json']);
    expect(result.exitCode).toBe(0);
    expect(patches(result.sent)).toEqual([['/api/public/v2/prompts/n%2Fpromote/versions/2', { newLabels: ['production'] }]]);
    expect(JSON.parse(result.stdout)).toEqual({
      name: 'n/promote',
      label: 'production',
      from: { label: 'staging', version: 2 },
      previousVersion: 1,
      version: 2,
      noop: false,
      dryRun: false,
      changed: true,
      rollback: { label: 'production', version: 1 },
      rollbackCommand: 'llmobs labels set n/promote production --version 1 --expect-current 2',
    });
    expect(JSON.parse((await cli.run(['labels', 'list', 'n/promote', '--json'])).stdout).labels).toEqual({ latest: 3, production: 2, staging: 2 });
  });

  it('says a promotion that changes nothing did nothing, and exits 0 without a PATCH', async () => {
    const result = await cli.run(['labels', 'promote', 'n/promote', '--from', 'staging', '--to', 'production']);
    expect(result.exitCode).toBe(0);
    expect(patches(result.sent)).toEqual([]);
    expect(result.stderr).toContain("'production' is already on version 2; nothing to change.");
  });

  it('refuses with exit 9 when --to is not on the expected version, changing nothing', async () => {
    await threeVersions('n/race');
    const result = await cli.run(['labels', 'promote', 'n/race', '--from', 'latest', '--to', 'production', '--expect-current', '2']);
    expect(result.exitCode).toBe(9);
    expect(result.stderr).toContain("Expected the label 'production' on version 2, but it is on version 1.");
    expect(patches(result.sent)).toEqual([]);
    const none = await cli.run(['labels', 'promote', 'n/race', '--from', 'latest', '--to', 'canary', '--expect-current', 'none', '--json']);
    expect(JSON.parse(none.stdout)).toMatchObject({ label: 'canary', previousVersion: null, version: 3, rollback: null, rollbackCommand: null });
  });

  it('prints the plan and sends no PATCH with --dry-run', async () => {
    const result = await cli.run(['labels', 'promote', 'n/race', '--from', 'staging', '--to', 'production', '--dry-run']);
    expect(result.exitCode).toBe(0);
    expect(patches(result.sent)).toEqual([]);
    expect(result.stdout).toBe("Prompt\tn/race\nLabel\tproduction\nFrom\t'staging' (version 2)\nWas on\tversion 1\nWould be on\tversion 2\n");
    expect(result.stderr).toContain('Dry run: nothing was changed.');
    expect(JSON.parse((await cli.run(['labels', 'list', 'n/race', '--json'])).stdout).labels.production).toBe(1);
  });

  it('answers 8 for an unknown --from label and 2 for impossible ones, sending nothing for those', async () => {
    const unknown = await cli.run(['labels', 'promote', 'n/race', '--from', 'qa', '--to', 'production']);
    expect(unknown.exitCode).toBe(8);
    expect(unknown.stderr).toContain("prompt 'n/race' has no version labelled 'qa'");
    for (const args of [['--from', 'staging', '--to', 'latest'], ['--from', 'staging', '--to', 'staging'], ['--from', 'staging'], ['--from', 'a', '--to', 'b', '--expect-current', 'x']]) {
      const result = await cli.run(['labels', 'promote', 'n/race', ...args]);
      expect([args, result.exitCode, result.sent]).toEqual([args, 2, []]);
    }
  });
});
