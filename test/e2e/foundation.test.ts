// The built binary against the real local server on a random loopback port.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs, profileEnv } from '../helpers/bin.js';
import { isolatedEnv } from '../helpers/cli.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
});

afterAll(async () => {
  await server.close();
});

function assertNoSecret(...texts: string[]) {
  for (const text of texts) expect(text).not.toContain(server.keys.secretKey);
}

describe('profiles against the local server', () => {
  it('adds a profile from stdin, tests it and reports who we are', async () => {
    const env = isolatedEnv();
    const add = await llmobs(['profile', 'add', 'local', '--base-url', server.url, '--public-key', server.keys.publicKey, '--secret-key-stdin'], {
      env,
      input: `${server.keys.secretKey}\n`,
    });
    expect(add.exitCode).toBe(0);
    expect(add.stderr).toContain('Added profile "local"');

    const test = await llmobs(['profile', 'test', 'local', '--json'], { env });
    expect(test.exitCode).toBe(0);
    const tested = JSON.parse(test.stdout);
    expect(tested).toMatchObject({ ok: true, profile: 'local', baseUrl: server.url, project: { id: server.project.id, name: server.project.name } });
    expect(tested.roundTripMs).toBeGreaterThanOrEqual(0);

    const who = await llmobs(['whoami'], { env });
    expect(who.exitCode).toBe(0);
    expect(who.stdout).toContain(server.project.name);
    expect(who.stdout).toMatch(/pk-lf-…[0-9a-f]{4}/);

    const show = await llmobs(['profile', 'show', '--json'], { env });
    const shown = JSON.parse(show.stdout);
    expect(shown.secretKey.value).toMatch(/^sk-lf-…[0-9a-f]{4}$/);
    expect(shown.baseUrl).toEqual({ value: server.url, from: 'profile "local"' });
    assertNoSecret(add.stdout, add.stderr, test.stdout, test.stderr, who.stdout, who.stderr, show.stdout, show.stderr);
  });

  it('keeps the profile file private', async () => {
    const env = await profileEnv(server);
    const { statSync } = await import('node:fs');
    const { join } = await import('node:path');
    expect(statSync(join(env.LLMOBS_CONFIG_DIR!, 'config.json')).mode & 0o777).toBe(0o600);
    expect(statSync(env.LLMOBS_CONFIG_DIR!).mode & 0o777).toBe(0o700);
  });

  it('answers health without credentials, and projects and api with them', async () => {
    const env = await profileEnv(server);
    const health = await llmobs(['health', '--json', '--base-url', server.url], { env: isolatedEnv() });
    expect(health.exitCode).toBe(0);
    expect(JSON.parse(health.stdout)).toMatchObject({ status: 'OK', baseUrl: server.url });

    const projects = await llmobs(['projects'], { env });
    expect(projects.exitCode).toBe(0);
    expect(projects.stdout.trim().split('\t').slice(0, 2)).toEqual([server.project.id, server.project.name]);

    const api = await llmobs(['api', 'GET', 'projects'], { env });
    expect(api.exitCode).toBe(0);
    expect(JSON.parse(api.stdout).data[0].id).toBe(server.project.id);
  });

  it('reads LANGFUSE_* variables when no profile exists', async () => {
    const env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
    const who = await llmobs(['whoami', '--json'], { env });
    expect(who.exitCode).toBe(0);
    expect(JSON.parse(who.stdout)).toMatchObject({ profile: null, baseUrlFrom: '$LANGFUSE_HOST', project: { id: server.project.id } });
  });

  it('exits 7 with a region hint when the key is wrong', async () => {
    const env = isolatedEnv();
    await llmobs(['profile', 'add', 'wrong', '--base-url', server.url, '--public-key', server.keys.publicKey, '--secret-key-stdin'], {
      env,
      input: 'sk-lf-00000000-0000-0000-0000-000000000000',
    });
    const who = await llmobs(['whoami'], { env });
    expect(who.exitCode).toBe(7);
    expect(who.stderr).toContain('401');
    expect(who.stderr).toContain(server.url);
    expect(who.stderr).toContain('profile "wrong"');
    expect(who.stderr).toMatch(/region/);
    expect(who.stderr).not.toContain('sk-lf-00000000-0000-0000-0000-000000000000');

    const json = await llmobs(['whoami', '--json'], { env });
    expect(json.stdout).toBe('');
    expect(JSON.parse(json.stderr)).toMatchObject({ error: { code: 'unauthorized', status: 401, exitCode: 7 } });
  });

  it('exits 4 when the server is down, after retrying', async () => {
    const down = await startServer({ port: 0, ephemeral: true });
    await down.close();
    const env = isolatedEnv({ LANGFUSE_HOST: down.url, LANGFUSE_PUBLIC_KEY: 'pk-lf-x', LANGFUSE_SECRET_KEY: 'sk-lf-x', LLMOBS_RETRY_BASE_MS: '5' });
    const result = await llmobs(['projects', '--verbose'], { env });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('ECONNREFUSED');
    expect(result.stderr.match(/→ GET/g)).toHaveLength(4);
    expect(result.stderr).toMatch(/Nothing is listening/);
  });

  it('exits 3 for a missing profile or no configuration', async () => {
    const env = await profileEnv(server);
    const missing = await llmobs(['--profile', 'nope', 'whoami'], { env });
    expect(missing.exitCode).toBe(3);
    expect(missing.stderr).toContain('profile "nope" not found');
    expect(missing.stderr).toContain('llmobs profile add nope');

    const none = await llmobs(['whoami'], { env: isolatedEnv() });
    expect(none.exitCode).toBe(3);
    expect(none.stderr).toMatch(/no server configured/);

    const noTty = await llmobs(['profile', 'add', 'x', '--region', 'eu'], { env: isolatedEnv() });
    expect(noTty.exitCode).toBe(3);
    expect(noTty.stderr).toMatch(/needs a public key/);
  });

  it('refuses to remove a profile without --yes when there is no terminal', async () => {
    const env = await profileEnv(server);
    const refused = await llmobs(['profile', 'rm', 'local'], { env });
    expect(refused.exitCode).toBe(2);
    const removed = await llmobs(['profile', 'rm', 'local', '--yes'], { env });
    expect(removed.exitCode).toBe(0);
    const list = await llmobs(['profile', 'list', '--json'], { env });
    expect(JSON.parse(list.stdout)).toEqual([]);
  });
});

describe('output to a reader that stops early', () => {
  it('exits quietly when stdout is closed (llmobs ... | head)', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/bin.js');
    const child = spawn(process.execPath, [BIN, 'completion', 'bash'], { env: isolatedEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('goes on with its output and its exit code when stderr is closed (llmobs ... --verbose 2>&1 >out | head)', async () => {
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/bin.js');
    const env = await profileEnv(server);
    // --verbose writes each request and answer to stderr, before and after the table on stdout.
    const child = spawn(process.execPath, [BIN, 'models', 'list', '--all', '--verbose', '--json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stderr.destroy();
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout).data.length).toBeGreaterThan(100);
  });
});
