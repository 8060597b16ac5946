// Every input read whole (a file, stdin) stops at MAX_INPUT_BYTES: a device, a pipe that never
// ends or a huge file gets a clear error (exit 6), never a hang or an exhausted heap.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Context } from '../../../src/context.js';
import { FileError } from '../../../src/errors.js';
import { readTextInput } from '../../../src/io/files.js';
import { MAX_INPUT_BYTES } from '../../../src/io/stdin.js';
import { tempDir } from '../../helpers/cli.js';

function contextIn(cwd: string, stdin: NodeJS.ReadableStream = Readable.from([])): Context {
  return { cwd, io: { stdin } } as unknown as Context;
}

/** A stream that yields 1 MB chunks for ever, and records how much was asked of it. */
function endless(): Readable & { produced: number } {
  const chunk = Buffer.alloc(1 << 20, 'a');
  const stream = new Readable({
    read() {
      stream.produced += chunk.length;
      this.push(chunk);
    },
  }) as Readable & { produced: number };
  stream.produced = 0;
  return stream;
}

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

describe('readTextInput', () => {
  it('stdin that never ends: a file error naming stdin', async () => {
    const error = await readTextInput(contextIn(tempDir(), endless()), '-').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect((error as FileError).exitCode).toBe(6);
    expect((error as Error).message).toBe(`cannot read stdin: it is larger than ${MAX_INPUT_BYTES / 1024 / 1024} MB, the most llmobs reads from one input`);
  });

  it.skipIf(!existsSync('/dev/zero'))('/dev/zero: read up to the limit, then a file error', async () => {
    const error = await readTextInput(contextIn(tempDir()), '/dev/zero').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect((error as Error).message).toMatch(/^cannot read \/dev\/zero: it is larger than 64 MB/);
  });

  it.skipIf(process.platform === 'win32')('a FIFO whose writer never stops: a file error, no hang', async () => {
    const dir = tempDir();
    const fifo = join(dir, 'endless');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', 'exec yes llmobs > "$1"', 'sh', fifo], { stdio: 'ignore' });
    children.push(writer);
    const error = await readTextInput(contextIn(dir), 'endless').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect((error as Error).message).toMatch(/^cannot read endless: it is larger than 64 MB/);
  });

  it('a regular file over the limit is refused from its size, unread', async () => {
    const dir = tempDir();
    // Sparse: a terabyte that takes no disk space; reading it would take minutes.
    writeFileSync(join(dir, 'huge.json'), '');
    truncateSync(join(dir, 'huge.json'), 2 ** 40);
    const error = await readTextInput(contextIn(dir), 'huge.json').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FileError);
    expect((error as Error).message).toBe(`cannot read huge.json: it is ${2 ** 40} bytes, more than 64 MB, the most llmobs reads from one input`);
  });

  it('reads a file under the limit, and names a missing one', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.txt'), 'content');
    expect(await readTextInput(contextIn(dir), 'a.txt')).toBe('content');
    await expect(readTextInput(contextIn(dir), 'missing.txt')).rejects.toThrow('cannot read missing.txt: no such file');
  });
});
