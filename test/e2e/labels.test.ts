// The built binary against the local server: a CI promotion with a guard, its rollback, and
// concurrent creates of one prompt.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv } from '../helpers/cli.js';

let server: RunningServer;
let env: Record<string, string | undefined>;
const NAME = 'ci/support agent';

const run = (args: string[]) => llmobs(args, { env });
const labelsOf = async (name: string) => JSON.parse((await run(['labels', 'list', name, '--json'])).stdout).labels as Record<string, number>;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
  // CI style: keys from the environment, no profile.
  env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
});
afterAll(() => server.close());

describe('label promotion end to end', () => {
  it('promotes staging to production guarded by --expect-current, refuses a stale guard, and rolls back', async () => {
    for (const label of ['production', 'staging']) {
      expect((await run(['prompts', 'create', NAME, '--text', `v for ${label}`, '--label', label])).exitCode).toBe(0);
    }
    expect(await labelsOf(NAME)).toEqual({ latest: 2, production: 1, staging: 2 });

    const dry = await run(['labels', 'promote', NAME, '--from', 'staging', '--to', 'production', '--expect-current', '1', '--dry-run', '--json']);
    expect(JSON.parse(dry.stdout)).toMatchObject({ previousVersion: 1, version: 2, dryRun: true, changed: false });
    expect((await labelsOf(NAME)).production).toBe(1);

    const promoted = await run(['labels', 'promote', NAME, '--from', 'staging', '--to', 'production', '--expect-current', '1', '--json']);
    expect(promoted.exitCode, promoted.stderr).toBe(0);
    const result = JSON.parse(promoted.stdout);
    expect(result).toMatchObject({ label: 'production', from: { label: 'staging', version: 2 }, previousVersion: 1, version: 2, changed: true });
    expect(result.rollbackCommand).toBe("llmobs labels set 'ci/support agent' production --version 1 --expect-current 2");

    // A second pipeline that still believes production is on 1 must not act.
    const stale = await run(['labels', 'promote', NAME, '--from', 'latest', '--to', 'production', '--expect-current', '1']);
    expect(stale.exitCode).toBe(9);
    expect(stale.stderr).toContain("Expected the label 'production' on version 1, but it is on version 2.");

    const again = await run(['labels', 'promote', NAME, '--from', 'staging', '--to', 'production']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain("'production' is already on version 2; nothing to change.");

    const rollback = await run(['labels', 'set', NAME, 'production', '--version', String(result.rollback.version), '--expect-current', '2']);
    expect(rollback.exitCode, rollback.stderr).toBe(0);
    expect(await labelsOf(NAME)).toEqual({ latest: 2, production: 1, staging: 2 });
    expect((await run(['prompts', 'get', NAME, '--raw'])).stdout).toBe('v for production');
  });

  it('explains that labels cannot be removed (exit 2)', async () => {
    const result = await run(['labels', 'remove', NAME, 'staging']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('cannot be removed through the Langfuse API');
  });
});

describe('concurrent creates', () => {
  it('gives 20 simultaneous creates of one name versions 1 to 20', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => llmobs(['prompts', 'create', 'ci/busy', '--text', `attempt ${i}`, '--json'], { env, timeout: 60_000 })),
    );
    expect(results.map((r) => r.exitCode)).toEqual(Array(20).fill(0));
    const versions = results.map((r) => JSON.parse(r.stdout).version as number).sort((a, b) => a - b);
    expect(versions).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const listed = JSON.parse((await run(['prompts', 'list', '--name', 'ci/busy', '--json'])).stdout);
    expect(listed.data[0].versions).toEqual(versions);
    // The newest version holds the content of the create that was given number 20.
    const twentieth = results.map((r) => JSON.parse(r.stdout)).find((created) => created.version === 20);
    expect((await run(['prompts', 'get', 'ci/busy', '--label', 'latest', '--raw'])).stdout).toBe(twentieth.prompt);
    expect(await labelsOf('ci/busy')).toEqual({ latest: 20 });
  }, 120_000);
});
