// The profile store: locked read-modify-write, atomic replacement, permission and symlink checks.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openProfileStore } from '../../../src/config/store.js';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';

const SECRET = 'sk-lf-7f3a9c2e-1b4d-4e8f-9a6b-5c3d2e1f0a9b';

function open(dir: string, warnings: string[] = [], lockTimeoutMs = 10_000) {
  return openProfileStore({ env: { LLMOBS_CONFIG_DIR: dir }, warn: (m) => warnings.push(m), lockTimeoutMs });
}

function privateDir(): string {
  const dir = join(tempDir(), 'config');
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}

describe('profile store', () => {
  it('keeps the format conf wrote: tab-indented JSON, unknown keys kept, mode 600 in a 700 directory', () => {
    const dir = privateDir();
    writeFileSync(join(dir, 'config.json'), '{\n\t"profiles": {\n\t\t"old": {\n\t\t\t"region": "eu",\n\t\t\t"publicKey": "pk-lf-1",\n\t\t\t"secretKey": "sk-lf-1"\n\t\t}\n\t},\n\t"activeProfile": "old",\n\t"__internal__": {"migrations": {"version": "0.1.0"}}\n}', { mode: 0o600 });
    const store = open(dir);
    expect(store.names()).toEqual(['old']);
    store.put('new', { region: 'us', publicKey: 'pk-lf-2', secretKey: 'sk-lf-2' }, false);
    const file = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
    expect(file).toEqual({
      profiles: { old: { region: 'eu', publicKey: 'pk-lf-1', secretKey: 'sk-lf-1' }, new: { region: 'us', publicKey: 'pk-lf-2', secretKey: 'sk-lf-2' } },
      activeProfile: 'old',
      __internal__: { migrations: { version: '0.1.0' } },
    });
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
    // No temporary or lock file left behind.
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('creates a missing directory with mode 700', () => {
    const dir = join(tempDir(), 'a', 'b');
    open(dir).put('x', { region: 'eu' }, true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'config.json')).mode & 0o777).toBe(0o600);
  });

  it('changes the file as it is on disk, not as it was read: two stores opened together both land', () => {
    const dir = privateDir();
    const a = open(dir);
    const b = open(dir);
    a.put('one', { region: 'eu' }, true);
    b.put('two', { region: 'us' }, false);
    expect(open(dir).names()).toEqual(['one', 'two']);
    expect(b.add('one', { region: 'us' }, false)).toBe(false);
    expect(open(dir).get('one')).toEqual({ region: 'eu' });
  });

  it('waits for a lock held by a live command, and fails loudly (nothing written) when it is not released', () => {
    const dir = privateDir();
    const store = open(dir, [], 150);
    writeFileSync(join(dir, 'config.json.lock'), `${process.pid} ${Date.now()}\n`);
    expect(() => store.put('x', { region: 'eu' }, true)).toThrow(/locked by another llmobs command/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });

  it('recovers a lock left by a command that died', () => {
    const dir = privateDir();
    const lock = join(dir, 'config.json.lock');
    // A pid that cannot be running (above the kernel's maximum), written 5 s ago.
    writeFileSync(lock, '4194305 0\n');
    const past = new Date(Date.now() - 5_000);
    utimesSync(lock, past, past);
    open(dir, [], 150).put('x', { region: 'eu' }, true);
    expect(open(dir).names()).toEqual(['x']);
    // And one simply too old, whoever wrote it.
    writeFileSync(lock, `${process.pid} 0\n`);
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    open(dir, [], 150).put('y', { region: 'eu' }, false);
    expect(open(dir).names()).toEqual(['x', 'y']);
  });

  it('warns about a directory or file others can read or write', () => {
    for (const [dirMode, fileMode, expected] of [
      [0o755, 0o600, /config directory .* can be read by other users \(mode 755\)/],
      [0o777, 0o600, /config directory .* can be written by other users \(mode 777\)/],
      [0o700, 0o644, /config file .* is readable by other users \(mode 644\)/],
      [0o700, 0o666, /config file .* is writable by other users \(mode 666\)/],
    ] as const) {
      const dir = join(tempDir(), 'config');
      mkdirSync(dir);
      writeFileSync(join(dir, 'config.json'), '{}');
      chmodSync(join(dir, 'config.json'), fileMode);
      chmodSync(dir, dirMode);
      const warnings: string[] = [];
      open(dir, warnings);
      expect(warnings.join('\n'), `${dirMode.toString(8)} ${fileMode.toString(8)}`).toMatch(expected);
    }
    const quiet: string[] = [];
    open(privateDir(), quiet);
    expect(quiet).toEqual([]);
  });

  it('never writes through a symbolic link planted in a directory others can write', () => {
    const shared = join(tempDir(), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const attacker = join(tempDir(), 'attacker.json');
    writeFileSync(attacker, '{"profiles": {}}');
    chmodSync(attacker, 0o666);
    symlinkSync(attacker, join(shared, 'config.json'));
    const store = open(shared);
    expect(() => store.put('prod', { region: 'eu', publicKey: 'pk-lf-1', secretKey: SECRET }, true)).toThrow(/symbolic link in a directory other users can write/);
    expect(readFileSync(attacker, 'utf8')).toBe('{"profiles": {}}');
    expect(lstatSync(join(shared, 'config.json')).isSymbolicLink()).toBe(true);
  });

  it('follows a link in a private directory (dotfile managers), replacing its target atomically', () => {
    const dir = privateDir();
    const dotfiles = join(tempDir(), 'dotfiles');
    mkdirSync(dotfiles, { mode: 0o700 });
    writeFileSync(join(dotfiles, 'llmobs.json'), '{"profiles": {"a": {"region": "eu"}}}', { mode: 0o600 });
    symlinkSync(join(dotfiles, 'llmobs.json'), join(dir, 'config.json'));
    open(dir).put('b', { region: 'us' }, false);
    expect(lstatSync(join(dir, 'config.json')).isSymbolicLink()).toBe(true);
    expect(Object.keys(JSON.parse(readFileSync(join(dotfiles, 'llmobs.json'), 'utf8')).profiles)).toEqual(['a', 'b']);
  });
});

describe('a broken config file', () => {
  it.each([
    ['a stray character after the secret', `{"profiles": {"p": {"publicKey": "pk-lf-1", "secretKey": "${SECRET}"x}}}`],
    ['a missing quote', `{"profiles": {"p": {"secretKey": "${SECRET}}}}`],
    ['a truncated file', `{"profiles": {"p": {"secretKey": "${SECRET}"`],
    ['a single quote', `{'profiles': {"p": {"secretKey": "${SECRET}"}}}`],
  ])('is reported by line and column, without a character of the key (%s)', async (_label, text) => {
    const env = isolatedEnv();
    mkdirSync(env.LLMOBS_CONFIG_DIR!, { mode: 0o700 });
    writeFileSync(join(env.LLMOBS_CONFIG_DIR!, 'config.json'), text, { mode: 0o600 });
    for (const json of [false, true]) {
      const result = await runInProcess(['profile', 'list', ...(json ? ['--json'] : [])], { env });
      expect(result.exitCode).toBe(3);
      expect(result.stderr).toContain('is not valid JSON');
      const output = result.stdout + result.stderr;
      // Any 6 consecutive characters of the key's random part would be a leak.
      const random = SECRET.slice('sk-lf-'.length);
      for (let i = 0; i + 6 <= random.length; i++) expect(output).not.toContain(random.slice(i, i + 6));
    }
  });

  it.skipIf(!existsSync('/dev/zero') || process.platform === 'win32')('refuses, unread, a config file that is a device, a FIFO or far too large; a lock that is one is removed', () => {
    for (const plant of ['device', 'fifo', 'huge'] as const) {
      const dir = join(tempDir(), 'shared');
      mkdirSync(dir);
      chmodSync(dir, 0o777);
      const file = join(dir, 'config.json');
      if (plant === 'device') symlinkSync('/dev/zero', file);
      if (plant === 'fifo') execFileSync('mkfifo', [file]);
      if (plant === 'huge') {
        writeFileSync(file, '');
        truncateSync(file, 2 ** 40);
      }
      const warnings: string[] = [];
      // Before: /dev/zero was read until the heap was spent, a FIFO waited for a writer for ever.
      expect(() => open(dir, warnings).names(), plant).toThrow(plant === 'huge' ? /cannot be read: it is 1099511627776 bytes, more than/ : /cannot be read: it is not a regular file/);
    }
    const dir = privateDir();
    symlinkSync('/dev/zero', join(dir, 'config.json.lock'));
    open(dir, [], 150).put('x', { region: 'eu' }, true);
    expect(open(dir).names()).toEqual(['x']);
  });
});
