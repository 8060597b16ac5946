import type { InStream } from '../types.js';
import { FileError } from '../errors.js';

/**
 * The most bytes read from one input (a file, stdin): far more than any request body a server
 * takes, and a bound for what a device, a pipe that never ends or a huge file can make llmobs
 * hold (without one, /dev/zero filled some 600 MB before failing with "Invalid string length").
 */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** An input longer than MAX_INPUT_BYTES (exit 6). */
export class InputTooLargeError extends FileError {
  /** `size`: the size of a regular file, known before reading it. */
  constructor(
    readonly limit: number,
    readonly size?: number,
  ) {
    super(`the input ${size === undefined ? 'is larger than' : `is ${size} bytes, more than`} ${limit / 1024 / 1024} MB, the most llmobs reads from one input`, {
      hint: 'Check that it is the input you meant; nothing was sent.',
    });
  }
}

/** Reads a whole stream as UTF-8 text, at most `limit` bytes (more is an InputTooLargeError). */
export async function readAll(stream: InStream, limit = MAX_INPUT_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limit) {
      (stream as { destroy?: () => void }).destroy?.();
      throw new InputTooLargeError(limit);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A secret piped in with `printf`, `echo` or a heredoc: one line, trailing newline dropped. */
export async function readSecret(stream: InStream): Promise<string> {
  return (await readAll(stream)).replace(/\r?\n$/, '').trim();
}
