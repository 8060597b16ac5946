import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FdWriter, isDevNull } from '../../../src/io/stdio.js';
import { tempDir } from '../../helpers/cli.js';

describe('piped output without Node streams', () => {
  it('writes text and bytes to the descriptor in order', () => {
    const file = join(tempDir('llmobs-stdio-'), 'out.txt');
    const fd = openSync(file, 'w');
    const fallback: Array<string | Uint8Array> = [];
    const writer = new FdWriter(fd, () => ({ write: (chunk) => fallback.push(chunk) }));
    expect(writer.write('héllo ')).toBe(true);
    expect(writer.write(new TextEncoder().encode('wörld\n'))).toBe(true);
    expect(writer.flush()).toBe(true);
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('héllo wörld\n');
    expect(fallback).toEqual([]);
  });

  it('hands a write it cannot do, and every later one, to the stream', () => {
    const file = join(tempDir('llmobs-stdio-'), 'out.txt');
    const fd = openSync(file, 'w');
    const fallback: string[] = [];
    const writer = new FdWriter(fd, () => ({ write: (chunk) => fallback.push(typeof chunk === 'string' ? chunk : new TextDecoder().decode(chunk)) }));
    writer.write('first\n');
    writer.flush();
    closeSync(fd); // the descriptor fails from now on (EBADF)
    writer.write('second\n');
    writer.flush();
    writer.write('third\n');
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    expect(fallback).toEqual(['second\n', 'third\n']);
  });

  it('writes what one synchronous run wrote at its end, in one piece, or at once past 64 KB', async () => {
    const file = join(tempDir('llmobs-stdio-'), 'out.txt');
    const fd = openSync(file, 'w');
    const writer = new FdWriter(fd, () => ({ write: () => true }));
    writer.write('a\n');
    writer.write('b\n');
    expect(readFileSync(file, 'utf8')).toBe('');
    await Promise.resolve();
    expect(readFileSync(file, 'utf8')).toBe('a\nb\n');
    writer.write('x'.repeat(64 * 1024));
    expect(readFileSync(file, 'utf8')).toHaveLength(4 + 64 * 1024);
    closeSync(fd);
  });

  it('keeps the order of what two descriptors were given (stdout and stderr to one file)', async () => {
    const file = join(tempDir('llmobs-stdio-'), 'both.txt');
    const out = openSync(file, 'a');
    const err = openSync(file, 'a');
    const stdout = new FdWriter(out, () => ({ write: () => true }));
    const stderr = new FdWriter(err, () => ({ write: () => true }));
    stdout.write('out 1\n');
    stderr.write('err 1\n');
    stdout.write('out 2\n');
    await Promise.resolve();
    closeSync(out);
    closeSync(err);
    expect(readFileSync(file, 'utf8')).toBe('out 1\nerr 1\nout 2\n');
  });

  it.skipIf(process.platform === 'win32')('tells /dev/null from other character devices', () => {
    const statOf = (path: string) => {
      const fd = openSync(path, 'r');
      try {
        return fstatSync(fd);
      } finally {
        closeSync(fd);
      }
    };
    expect(isDevNull(statOf('/dev/null'))).toBe(true);
    expect(isDevNull(statOf('/dev/zero'))).toBe(false);
  });
});
