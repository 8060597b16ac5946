// Files written over whole and lock files (the store's, the caches' and models pull's writes go
// through these; their own tests check what each makes of them).
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { acquireLock, LockHeldError, NotRegularError, openAtomicStream, readRegularFileSync, temporaryTarget, writeFileAtomic } from '../../../src/io/atomic.js';
import { tempDir } from '../../helpers/cli.js';

describe('writeFileAtomic', () => {
  it('replaces the file whole, with the mode asked for, and leaves nothing beside it', () => {
    const dir = tempDir();
    const file = join(dir, 'data.json');
    writeFileSync(file, 'old');
    for (const durable of [true, false]) {
      writeFileAtomic(file, `new ${durable}`, { mode: 0o600, durable });
      expect(readFileSync(file, 'utf8')).toBe(`new ${durable}`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(readdirSync(dir)).toEqual(['data.json']);
    }
  });

  it('throws the file system\'s error and leaves nothing behind', () => {
    const dir = tempDir();
    expect(() => writeFileAtomic(join(dir, 'missing', 'data.json'), 'x', { mode: 0o600 })).toThrow(/ENOENT/);
    // A directory where the file should go: the rename fails after the temporary file was written.
    mkdirSync(join(dir, 'data.json'));
    writeFileSync(join(dir, 'data.json', 'inside'), 'kept');
    expect(() => writeFileAtomic(join(dir, 'data.json'), 'x', { mode: 0o600 })).toThrow();
    expect(readdirSync(dir)).toEqual(['data.json']);
    expect(readFileSync(join(dir, 'data.json', 'inside'), 'utf8')).toBe('kept');
  });
});

describe('openAtomicStream', () => {
  it('shows the target nothing until commit, then the whole file with the mode asked for', async () => {
    const dir = tempDir();
    const file = join(dir, 'out.jsonl');
    writeFileSync(file, 'old');
    for (const durable of [true, false]) {
      const stream = await openAtomicStream(file, { mode: 0o644, durable });
      await stream.write('{"a":1}\n');
      await stream.write(Buffer.from('{"b":2}\n'));
      expect(readFileSync(file, 'utf8')).toBe('old');
      expect(readdirSync(dir).map((name) => temporaryTarget(name) ?? name).sort()).toEqual(['out.jsonl', 'out.jsonl']);
      await stream.commit();
      expect(readFileSync(file, 'utf8')).toBe('{"a":1}\n{"b":2}\n');
      expect(statSync(file).mode & 0o777).toBe(0o644);
      expect(readdirSync(dir)).toEqual(['out.jsonl']);
      writeFileSync(file, 'old');
    }
  });

  it('leaves the target as it was when discarded, and nothing beside it', async () => {
    const dir = tempDir();
    const file = join(dir, 'out.csv');
    writeFileSync(file, 'old');
    const stream = await openAtomicStream(file, { mode: 0o644 });
    await stream.write('a,b\n');
    await stream.discard();
    expect(readFileSync(file, 'utf8')).toBe('old');
    expect(readdirSync(dir)).toEqual(['out.csv']);
    await expect(openAtomicStream(join(dir, 'missing', 'out.csv'), { mode: 0o644 })).rejects.toThrow(/ENOENT/);
  });
});

describe('temporaryTarget', () => {
  it('names the file a leftover temporary file was to replace, in the old form and the new', () => {
    expect(temporaryTarget('models-0123456789abcdef.json.123.tmp')).toBe('models-0123456789abcdef.json');
    expect(temporaryTarget('models-0123456789abcdef.json.123.k3j4h5ab.tmp')).toBe('models-0123456789abcdef.json');
    expect(temporaryTarget('models-0123456789abcdef.json')).toBeUndefined();
    expect(temporaryTarget('notes.tmp')).toBeUndefined();
  });
});

describe('acquireLock', () => {
  it('is exclusive until released, and its release removes the file', () => {
    const lock = join(tempDir(), 'x.lock');
    const release = acquireLock(lock, 100);
    expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+\\n$`));
    expect(() => acquireLock(lock, 50)).toThrow(LockHeldError);
    release();
    expect(existsSync(lock)).toBe(false);
    acquireLock(lock, 50)();
  });

  it('says who holds it: the pid and the time in its file', () => {
    const lock = join(tempDir(), 'x.lock');
    writeFileSync(lock, `${process.pid} 1780000000000\n`);
    let error: unknown;
    try {
      acquireLock(lock, 20);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(LockHeldError);
    expect((error as LockHeldError).holder).toEqual({ pid: process.pid, since: new Date(1780000000000) });
  });

  it('held for a long run (keepAlive), is touched so that it never looks stale while its holder lives', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const lock = join(tempDir(), 'x.lock');
      const release = acquireLock(lock, 20, { keepAlive: true });
      const old = new Date(Date.now() - 25_000);
      utimesSync(lock, old, old);
      vi.advanceTimersByTime(10_000);
      expect(Date.now() - statSync(lock).mtimeMs).toBeLessThan(5_000);
      release();
      expect(existsSync(lock)).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  // The wait is for a short lock's holder to release it, or for a dead holder's lock to be old
  // enough to take over; a long run's holder that lives will not release it meanwhile.
  it('held for a long run by a live process, is refused at once; a short one is waited for', () => {
    const lock = join(tempDir(), 'x.lock');
    const held = `${process.pid} ${Date.now()}\n`;
    writeFileSync(lock, held);
    const wait = vi.spyOn(Atomics, 'wait');
    try {
      expect(() => acquireLock(lock, 10_000, { keepAlive: true })).toThrow(LockHeldError);
      expect(wait).not.toHaveBeenCalled();
      expect(() => acquireLock(lock, 30)).toThrow(LockHeldError);
      expect(wait).toHaveBeenCalled();
    } finally {
      wait.mockRestore();
    }
    expect(readFileSync(lock, 'utf8')).toBe(held);
  });

  it('held for a long run by a process that died just now, is taken over once a second old', () => {
    const lock = join(tempDir(), 'x.lock');
    // A pid that cannot be running (above the kernel's maximum), written now.
    writeFileSync(lock, `4194305 ${Date.now()}\n`);
    const release = acquireLock(lock, 10_000, { keepAlive: true });
    expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    release();
  });

  it('takes over a lock whose holder is gone, one too old, and one that is not a regular file', () => {
    const dir = tempDir();
    const lock = join(dir, 'x.lock');
    const past = (ms: number) => new Date(Date.now() - ms);
    // A pid that cannot be running (above the kernel's maximum), written 5 s ago.
    writeFileSync(lock, '4194305 0\n');
    utimesSync(lock, past(5_000), past(5_000));
    acquireLock(lock, 50)();
    writeFileSync(lock, `${process.pid} 0\n`);
    utimesSync(lock, past(60_000), past(60_000));
    acquireLock(lock, 50)();
    if (existsSync('/dev/zero')) {
      symlinkSync('/dev/zero', lock);
      acquireLock(lock, 50)();
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('readRegularFileSync', () => {
  it('reads a small regular file, and refuses a larger one or a device unread', () => {
    const file = join(tempDir(), 'small.txt');
    writeFileSync(file, 'hello');
    expect(readRegularFileSync(file, 5, 'a small file')).toBe('hello');
    expect(() => readRegularFileSync(file, 4, 'a small file')).toThrow(new NotRegularError('it is 5 bytes, more than the 4 a small file may hold'));
    if (existsSync('/dev/zero')) expect(() => readRegularFileSync('/dev/zero', 4, 'a small file')).toThrow(NotRegularError);
  });
});
