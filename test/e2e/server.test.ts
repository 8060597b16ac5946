// `llmobs server` as a process: start, keys, a refused second server, a restart that keeps data.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN, llmobs } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { startServerProcess } from '../helpers/server-process.js';

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

  it('prints the profile command that points a profile at it', async () => {
    const env = isolatedEnv();
    const child = execa(process.execPath, [BIN, 'server', '--port', '0', '--ephemeral'], { env, extendEnv: false, reject: false });
    const text = await new Promise<string>((resolve) => {
      let buffer = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        if (buffer.includes('--secret-key-stdin')) resolve(buffer);
      });
    });
    child.kill('SIGTERM');
    await child;
    const command = /printf %s '(sk-lf-[^']+)' \| llmobs profile add local --base-url (\S+) --public-key (\S+) --secret-key-stdin/.exec(text);
    expect(command).not.toBeNull();
    expect(text).toContain('in memory, gone on exit');
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
