// `llmobs labels set` in-process against the local server.
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
