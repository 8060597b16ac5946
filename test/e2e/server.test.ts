// `llmobs server` as a process: start, keys, a refused second server, a restart that keeps data.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, llmobs } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { type Started, startServerProcess } from '../helpers/server-process.js';

const startBinary = (args: string[], env: Record<string, string | undefined>) => startServerProcess(args, env);

describe('llmobs server', () => {
  it('serves the API, refuses a second server on its data dir, and keeps its keys across restarts', async () => {
    const env = isolatedEnv();
    const dataDir = join(tempDir(), 'data');
    const first = startBinary(['--data-dir', dataDir], env);
    const started = await first.ready;
    expect(started).toMatchObject({ created: true, dataDir });
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const health = await llmobs(['health', '--base-url', started.url, '--json'], { env });
    expect(JSON.parse(health.stdout).status).toBe('OK');

    const second = await execa(process.execPath, [BIN, 'server', '--port', '0', '--data-dir', dataDir], { env, extendEnv: false, reject: false });
    expect(second.exitCode).toBe(6);
    expect(second.stderr).toContain(`data directory ${dataDir} is in use by another llmobs server`);
    expect(second.stderr).toContain(started.url);

    first.child.kill('SIGTERM');
    const exited = await first.child;
    expect(exited.exitCode).toBe(0);

    const again = startBinary(['--data-dir', dataDir], env);
    const restarted = await again.ready;
    expect(restarted).toMatchObject({ created: false, publicKey: started.publicKey, secretKey: started.secretKey });
    const who = await llmobs(['whoami', '--json'], {
      env: { ...env, LANGFUSE_HOST: restarted.url, LANGFUSE_PUBLIC_KEY: restarted.publicKey, LANGFUSE_SECRET_KEY: restarted.secretKey },
    });
    expect(who.exitCode).toBe(0);
    again.child.kill('SIGKILL');
    await again.child;

    // Killed without cleanup: the stale lock is taken over.
    const third = startBinary(['--data-dir', dataDir], env);
    expect((await third.ready).publicKey).toBe(started.publicKey);
    third.child.kill('SIGTERM');
    await third.child;
  });

  it('prints the command that points a profile at it and makes it active', async () => {
    const env = isolatedEnv();
    const first = await untilPrinted(['--ephemeral'], env, '--secret-key-stdin');
    const command = /printf %s '(sk-lf-[^']+)' \| llmobs profile add local --base-url (\S+) --public-key (\S+) --secret-key-stdin --default\n/.exec(first.text);
    expect(command, first.text).not.toBeNull();
    expect(first.text).toContain('in memory, gone on exit');
    expect(first.text.split('\n')[0]).toMatch(/^llmobs server listening on http:\/\/127\.0\.0\.1:\d+ \(Langfuse v4 write mode: events_only\)$/);
    expect(first.text).toContain('Or start the server with --profile local to do that for you');
    const [, secret, url, publicKey] = command!;
    // Run while an older active profile exists: the printed command makes "local" the active one.
    expect((await llmobs(['profile', 'add', 'prod-us', '--region', 'us', '--public-key', 'pk-lf-prod-12345678', '--secret-key-stdin'], { env, input: 'sk-lf-prod-12345678' })).exitCode).toBe(0);
    expect((await llmobs(['profile', 'add', 'local', '--base-url', url!, '--public-key', publicKey!, '--secret-key-stdin', '--default'], { env, input: secret })).exitCode).toBe(0);
    const whoami = await llmobs(['whoami', '--json'], { env });
    expect(whoami.exitCode, whoami.stderr).toBe(0);
    expect(JSON.parse(whoami.stdout)).toMatchObject({ profile: 'local', baseUrl: url });
    await first.stop();

    // A new server (another port, other keys): the command replaces "local", and says so.
    const second = await untilPrinted(['--ephemeral'], env, '--secret-key-stdin');
    expect(second.text).toMatch(/this replaces your profile "local", which points at http:\/\/127\.0\.0\.1:\d+/);
    expect(second.text).toMatch(/--secret-key-stdin --default --force\n/);
    await second.stop();
  });

  it('with --profile NAME saves the profile and makes it active; never replaces one for another server', async () => {
    const env = isolatedEnv();
    expect((await llmobs(['profile', 'add', 'prod-us', '--region', 'us', '--public-key', 'pk-lf-prod-12345678', '--secret-key-stdin'], { env, input: 'sk-lf-prod-12345678' })).exitCode).toBe(0);
    const { child, ready } = startBinary(['--ephemeral', '--profile', 'dev'], env);
    const started = (await ready) as Started & { profile: { name: string; saved: boolean; active: boolean }; profileCommand: string | null };
    try {
      expect(started.profile).toEqual({ name: 'dev', saved: true, active: true, pointsHere: true });
      expect(started.profileCommand).toBeNull();
      const whoami = await llmobs(['whoami', '--json'], { env });
      expect(whoami.exitCode, whoami.stderr).toBe(0);
      expect(JSON.parse(whoami.stdout)).toMatchObject({ profile: 'dev', baseUrl: started.url, credentialsFrom: 'profile "dev"' });
    } finally {
      child.kill('SIGTERM');
      await child;
    }
    const refused = await llmobs(['server', '--port', '0', '--ephemeral', '--profile', 'prod-us'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('profile "prod-us" points at the us region, not at a server on this machine');
    expect(refused.stdout).toBe('');
    expect(JSON.parse((await llmobs(['profile', 'show', 'prod-us', '--json'], { env })).stdout).baseUrl).toBe('https://us.cloud.langfuse.com');
  });

  it('stops cleanly on SIGTERM sent as soon as its start line is read, profile saved or not', async () => {
    for (const args of [['--ephemeral', '--profile', 'dev'], ['--ephemeral']]) {
      const { child, ready } = startBinary(args, isolatedEnv());
      await ready;
      child.kill('SIGTERM');
      const exited = await child;
      // Closed by its own handler, not killed by the signal.
      expect(exited.exitCode, args.join(' ')).toBe(0);
      expect(String(exited.stderr)).toContain('server stopped');
    }
  });

  it('listening on every interface, gives clients a loopback address, not 0.0.0.0', async () => {
    const env = isolatedEnv();
    const { child, ready } = startBinary(['--ephemeral', '--host', '0.0.0.0', '--profile', 'lan'], env);
    const started = (await ready) as Started & { listening: string; otherAddresses: string[] };
    try {
      expect(started.listening).toMatch(/^http:\/\/0\.0\.0\.0:\d+$/);
      expect(started.url).toBe(started.listening.replace('0.0.0.0', '127.0.0.1'));
      for (const address of started.otherAddresses) expect(address).toMatch(/^http:\/\/[\d.]+:\d+$/);
      const health = await llmobs(['whoami'], { env });
      expect(health.exitCode, health.stderr).toBe(0);
      // No "sent over plain http" warning: the profile points at loopback.
      expect(health.stderr).toBe('');
      expect(health.stdout).toContain(started.url);
    } finally {
      child.kill('SIGTERM');
      await child;
    }
  });
});

describe('the SQLite binding', { timeout: 120_000 }, () => {
  it('is loaded by `llmobs server` only, never by the other commands', async () => {
    const dir = tempDir();
    const log = join(dir, 'loads.txt');
    const hook = join(dir, 'hook.cjs');
    // Records every module whose path mentions libsql, in whatever process loads it.
    writeFileSync(
      hook,
      `const Module = require('module'); const fs = require('fs'); const load = Module._load;
       Module._load = function (request, ...rest) { if (String(request).includes('libsql')) fs.appendFileSync(${JSON.stringify(log)}, process.argv.slice(2).join(' ') + ' ' + request + '\\n'); return load.call(this, request, ...rest); };`,
    );
    const env = isolatedEnv({ NODE_OPTIONS: `--require ${hook}` });
    for (const args of [['--version'], ['tokens', 'count', 'hello'], ['health', '--base-url', 'http://127.0.0.1:9']]) await llmobs(args, { env });
    expect(existsSync(log) ? readFileSync(log, 'utf8') : '').toBe('');

    const server = startServerProcess(['--ephemeral'], env);
    await server.ready;
    server.child.kill('SIGTERM');
    await server.child;
    expect(readFileSync(log, 'utf8')).toMatch(/^server .*libsql$/m);
  });
});

/** Starts the server with human output and resolves once `marker` was printed. */
async function untilPrinted(args: string[], env: Record<string, string | undefined>, marker: string) {
  const child = execa(process.execPath, [BIN, 'server', '--port', '0', ...args], { env, extendEnv: false, reject: false });
  const text = await new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      if (buffer.includes(marker) && buffer.includes('--profile')) resolve(buffer);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${buffer}`)));
  });
  return {
    text,
    async stop() {
      child.kill('SIGTERM');
      await child;
    },
  };
}
