// `llmobs labels ...` in-process against the local server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalCli, localCli } from '../../helpers/local-cli.js';

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

describe('labels list', () => {
  it('maps each label to its version with one request per label', async () => {
    await threeVersions('n/list');
    const result = await cli.run(['labels', 'list', 'n/list', '--json']);
    expect(JSON.parse(result.stdout)).toEqual({ name: 'n/list', labels: { latest: 3, production: 1, staging: 2 } });
    expect(result.sent.map((r) => r.path)).toEqual([
      '/api/public/v2/prompts?name=n%2Flist&limit=1',
      '/api/public/v2/prompts/n%2Flist?label=latest&resolve=false',
      '/api/public/v2/prompts/n%2Flist?label=production&resolve=false',
      '/api/public/v2/prompts/n%2Flist?label=staging&resolve=false',
    ]);
    expect((await cli.run(['labels', 'ls', 'n/list'])).stdout).toBe('latest\t3\nproduction\t1\nstaging\t2\n');
    expect((await cli.run(['labels', 'list', 'n/none'])).exitCode).toBe(8);
  });
});

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

describe('labels set', () => {
  it('moves a label to a version and names the rollback', async () => {
    await threeVersions('n/set');
    const result = await cli.run(['labels', 'set', 'n/set', 'production', '--version', '3']);
    expect(result.exitCode).toBe(0);
    expect(patches(result.sent)).toEqual([['/api/public/v2/prompts/n%2Fset/versions/3', { newLabels: ['production'] }]]);
    expect(result.stdout).toBe('Prompt\tn/set\nLabel\tproduction\nWas on\tversion 1\nNow on\tversion 3\n');
    expect(result.stderr).toContain('Roll back with: llmobs labels set n/set production --version 1 --expect-current 3');
  });

  it('refuses latest, an unknown version (8) and a wrong expectation (9)', async () => {
    const latest = await cli.run(['labels', 'set', 'n/set', 'latest', '--version', '1']);
    expect([latest.exitCode, latest.sent]).toEqual([2, []]);
    const missing = await cli.run(['labels', 'set', 'n/set', 'production', '--version', '9']);
    expect(missing.exitCode).toBe(8);
    expect(missing.stderr).toContain('Version 9 does not exist; the highest version is 3.');
    const expectation = await cli.run(['labels', 'set', 'n/set', 'production', '--version', '2', '--expect-current', '1']);
    expect(expectation.exitCode).toBe(9);
    expect(patches([...missing.sent, ...expectation.sent])).toEqual([]);
    const noVersion = await cli.run(['labels', 'set', 'n/set', 'production']);
    expect([noVersion.exitCode, noVersion.sent]).toEqual([2, []]);
    expect(noVersion.stderr).toContain('--version: is required');
  });

  it('refuses a new label create would refuse, but moves an existing one', async () => {
    const bad = await cli.run(['labels', 'set', 'n/set', 'Prod', '--version', '1']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('use only lowercase letters');
    expect(patches(bad.sent)).toEqual([]);
    await cli.seedLabels('n/set', 1, ['Legacy Label']);
    const moved = await cli.run(['labels', 'set', 'n/set', 'Legacy Label', '--version', '2', '--json']);
    expect(moved.exitCode).toBe(0);
    expect(JSON.parse(moved.stdout)).toMatchObject({ previousVersion: 1, version: 2, rollbackCommand: "llmobs labels set n/set 'Legacy Label' --version 1 --expect-current 2" });
    // The command names the profile or server that was chosen on the command line, as a rollback must reach the same project.
    const chosen = await cli.run(['labels', 'set', 'n/set', 'Legacy Label', '--version', '1', '--base-url', cli.server.url, '--json']);
    expect(JSON.parse(chosen.stdout).rollbackCommand).toBe(`llmobs labels set n/set 'Legacy Label' --version 2 --expect-current 1 --base-url ${cli.server.url}`);
  });
});

describe('labels remove', () => {
  it('explains that the API cannot remove labels and how to move one, exit 2, sending nothing', async () => {
    const result = await cli.run(['labels', 'remove', 'n/set', 'production']);
    expect([result.exitCode, result.sent, result.stdout]).toEqual([2, [], '']);
    expect(result.stderr).toContain('labels cannot be removed through the Langfuse API');
    expect(result.stderr).toContain('llmobs labels set n/set production --version N');
  });
});
