// stdin read whole stops at MAX_INPUT_BYTES: a pipe that never ends gets a clear error (exit 6),
// never a hang or an exhausted heap.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InputTooLargeError, readAll } from '../../../src/io/stdin.js';

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

describe('readAll', () => {
  it('reads a stream shorter than the limit whole', async () => {
    expect(await readAll(Readable.from([Buffer.from('héllo '), 'wörld']), 100)).toBe('héllo wörld');
  });

  it('stops an endless stream just past the limit and closes it', async () => {
    const stream = endless();
    await expect(readAll(stream, 5 << 20)).rejects.toBeInstanceOf(InputTooLargeError);
    expect(stream.destroyed).toBe(true);
    // Read up to the limit and a little more (what the stream had buffered), not on and on.
    expect(stream.produced).toBeLessThan(40 << 20);
  });

  it('accepts exactly the limit', async () => {
    expect(await readAll(Readable.from([Buffer.alloc(10, 'x')]), 10)).toBe('x'.repeat(10));
    await expect(readAll(Readable.from([Buffer.alloc(11, 'x')]), 10)).rejects.toBeInstanceOf(InputTooLargeError);
  });
});
