// Cuts a byte stream into chunks of whole lines (at newline bytes, so a multi-byte character is
// never split), about `size` bytes each. Memory holds one chunk and one unfinished line, and a
// line is at most `maxLine` bytes: /dev/zero or a file without newlines is an error, not a heap
// that grows until it is spent.
import { FileError } from '../errors.js';
import { MAX_INPUT_BYTES } from './stdin.js';

/** A line longer than the most llmobs holds (exit 6). */
export class LineTooLongError extends FileError {
  constructor(
    readonly line: number,
    readonly limit: number,
  ) {
    super(`line ${line} is longer than ${limit / 1024 / 1024} MB, the most llmobs reads as one line`, {
      hint: 'Check that the input is JSON Lines (one object per line); the lines before it were read.',
    });
  }
}

function countLines(buffer: Buffer): number {
  let count = 0;
  for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) count++;
  return count;
}

export async function* lineChunks(stream: AsyncIterable<unknown>, size: number, maxLine = MAX_INPUT_BYTES): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  /** Where the last newline in `pending` is: the buffer's index and the byte's offset in it. */
  let newline: { index: number; offset: number } | undefined;
  /** Bytes after that newline: the unfinished line. */
  let tail = 0;
  /** Lines in the chunks already yielded. */
  let linesDone = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    pending.push(bytes);
    pendingBytes += bytes.length;
    const last = bytes.lastIndexOf(10);
    if (last === -1) {
      tail += bytes.length;
      if (tail > maxLine) {
        const before = pending.reduce((sum, part) => sum + countLines(part), 0);
        throw new LineTooLongError(linesDone + before + 1, maxLine);
      }
    } else {
      newline = { index: pending.length - 1, offset: last };
      tail = bytes.length - last - 1;
    }
    if (pendingBytes < size || newline === undefined) continue;
    // Only the buffers up to the newline are joined: a long unfinished line is not copied again
    // with every chunk that extends it.
    const cutAt = newline;
    const head = pending.slice(0, cutAt.index);
    head.push(pending[cutAt.index]!.subarray(0, cutAt.offset + 1));
    const whole = head.length === 1 ? head[0]! : Buffer.concat(head);
    // A copy of the rest of the buffer holding the newline, so it does not keep the chunk alive.
    const rest = pending[cutAt.index]!.subarray(cutAt.offset + 1);
    pending = [...(rest.length > 0 ? [Buffer.from(rest)] : []), ...pending.slice(cutAt.index + 1)];
    pendingBytes = tail;
    newline = undefined;
    linesDone += countLines(whole);
    yield whole;
  }
  if (pendingBytes > 0) yield pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
}
