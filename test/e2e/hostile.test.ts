// A hostile project member against llmobs and the local server: planted links in a prompts
// directory, a planted model definition; in-process against the real server.
import { existsSync, mkdirSync, readdirSync, statSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { BIN } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { type LocalCli, localCli } from '../helpers/local-cli.js';

let cli: LocalCli;
let cwd: string;
beforeEach(async () => {
  // The planted-model case ingests a generation over the batch route and reads it with the v1 route.
  cli = await localCli({ writeMode: 'legacy' });
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
    // The prompt is set aside (exit 9), the others would still be written.
    expect(pull.exitCode).toBe(9);
    expect(pull.stderr).toMatch(/'team\/agent': cannot write .*symbolic link to .*elsewhere.*only inside the prompts directory/);
    expect(readdirSync(join(cwd, 'elsewhere'))).toEqual([]);
    expect(existsSync(join(cwd, 'prompts', 'team', 'agent.md'))).toBe(false);
  });
});

describe('a planted model definition with parentheses nested 20,000 deep', () => {
  const deep = `${'('.repeat(20_000)}a${')'.repeat(20_000)}`;

  it('match and estimate say it cannot be evaluated and go on; lint reports it', async () => {
    const file = join(cwd, 'models.json');
    writeFileSync(file, JSON.stringify([{ modelName: 'planted', matchPattern: deep, prices: { input: 0.000001 } }]));
    const match = await cli.run(['models', 'match', 'gpt-4o', '--offline', '--models-file', file, '--json'], { cwd });
    expect(match.exitCode).toBe(0);
    expect(JSON.parse(match.stdout).winner.modelName).toBe('gpt-4o');
    expect(match.stderr).toContain('nested more than 200 deep');
    const estimate = await cli.run(['estimate', '--model', 'gpt-4o', '--input', 'hi', '--models-file', file, '--json'], { cwd });
    expect(estimate.exitCode).toBe(0);
    const lint = await cli.run(['models', 'lint', '--offline', '--models-file', file], { cwd });
    expect(lint.stderr + lint.stdout).not.toContain('unexpected error');
  });

  it('the server stores it (Postgres may accept such nesting) and ingestion still prices generations', async () => {
    const auth = `Basic ${Buffer.from(`${cli.server.keys.publicKey}:${cli.server.keys.secretKey}`).toString('base64')}`;
    const created = await fetch(`${cli.server.url}/api/public/models`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ modelName: 'planted', matchPattern: deep, unit: 'TOKENS', inputPrice: 1 }) });
    expect(created.status).toBe(200);
    const ingested = await fetch(`${cli.server.url}/api/public/ingestion`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify({ batch: [{ id: 'e1', type: 'generation-create', timestamp: new Date().toISOString(), body: { id: 'g1', model: 'gpt-4o', usageDetails: { input: 1000 } } }] }),
    });
    expect(ingested.status).toBe(207);
    const stored = (await (await fetch(`${cli.server.url}/api/public/observations/g1`, { headers: { authorization: auth } })).json()) as { costDetails: Record<string, number> };
    expect(stored.costDetails.input).toBeGreaterThan(0);
  });
});

describe('inputs that never end or are too large', () => {
  const zero = existsSync('/dev/zero');

  it.skipIf(!zero)('prompts create --file /dev/zero: a file error, nothing sent', async () => {
    const create = await cli.run(['prompts', 'create', 'p', '--file', '/dev/zero'], { cwd });
    expect(create.exitCode).toBe(6);
    expect(create.stderr).toContain('cannot read /dev/zero: it is larger than 64 MB');
    expect(create.sent).toEqual([]);
  });

  it.skipIf(!zero)('estimate --batch and cost recompute stop at a line longer than 64 MB', async () => {
    const batch = await cli.run(['estimate', '--batch', '/dev/zero', '--offline'], { cwd });
    expect(batch.exitCode).toBe(6);
    expect(batch.stderr).toContain('cannot read /dev/zero: line 1 is longer than 64 MB');
    const recompute = await cli.run(['cost', 'recompute', '--input', '/dev/zero', '--offline'], { cwd });
    expect(recompute.exitCode).toBe(6);
    expect(recompute.stderr).toContain('cannot read /dev/zero: line 1 is longer than 64 MB');
  });

  it.skipIf(!zero)('tokens count stops at text without a word boundary', async () => {
    const count = await cli.run(['tokens', 'count', '--file', '/dev/zero'], { cwd });
    expect(count.exitCode).toBe(6);
    expect(count.stderr).toContain('cannot read /dev/zero: it has more than 4 M characters without a word boundary');
  });

  it.skipIf(process.platform === 'win32')('the built binary with an endless pipe on stdin exits 6 and sends nothing', async () => {
    const env = isolatedEnv({ LANGFUSE_HOST: cli.server.url, LANGFUSE_PUBLIC_KEY: cli.server.keys.publicKey, LANGFUSE_SECRET_KEY: cli.server.keys.secretKey });
    const result = await execa('sh', ['-c', 'yes "a line of a prompt" | "$0" "$1" prompts create endless', process.execPath, BIN], { env, extendEnv: false, reject: false, timeout: 60_000 });
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain('cannot read stdin: it is larger than 64 MB');
    const list = await cli.run(['prompts', 'list', '--json'], { cwd });
    expect(list.stdout).not.toContain('endless');
  });

  it('models pull leaves an existing file too large to read as it is', async () => {
    writeFileSync(join(cwd, 'models.yaml'), '');
    truncateSync(join(cwd, 'models.yaml'), 2 ** 40);
    const pull = await cli.run(['models', 'pull', '--file', 'models.yaml'], { cwd });
    expect(pull.exitCode).toBe(9);
    expect(pull.stderr).toContain('differs from the server and was not overwritten');
    expect(statSync(join(cwd, 'models.yaml')).size).toBe(2 ** 40);
  });
});
