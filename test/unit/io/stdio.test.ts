import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { EventEmitter } from 'node:events';
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
    closeSync(fd); // the descriptor fails from now on (EBADF)
    writer.write('second\n');
    writer.write('third\n');
    expect(readFileSync(file, 'utf8')).toBe('first\n');
    expect(fallback).toEqual(['second\n', 'third\n']);
  });

  it('passes a full stream\'s backpressure on: false from write, then its drain event', async () => {
    const file = join(tempDir('llmobs-stdio-'), 'out.txt');
    const fd = openSync(file, 'w');
    closeSync(fd);
    const stream = new EventEmitter() as EventEmitter & { write: () => boolean };
    stream.write = () => false;
    const writer = new FdWriter(fd, () => stream);
    expect(writer.write('more than the pipe takes\n')).toBe(false);
    let drained = false;
    writer.once('drain', () => {
      drained = true;
    });
    await Promise.resolve();
    expect(drained).toBe(false);
    stream.emit('drain');
    expect(drained).toBe(true);
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
