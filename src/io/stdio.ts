// stdout and stderr of the CLI. Piped or redirected to a file or to /dev/null (scripts, CI), they
// are written with fs.writeSync on the file descriptor: Node's process.stdout is a stream that
// loads Node's whole stream stack, and for a pipe the network stack too, at every start. On a terminal or another character device
// they stay Node's streams (a terminal needs its width and colours).
//
// A write the descriptor does not take whole at once (a non-blocking pipe that is full answers
// EAGAIN) or that fails (EPIPE: the reader is gone) hands the rest, and every later write, to
// Node's stream, which waits for the pipe or reports the error as it always did.
import { fstatSync, statSync, type Stats, writeSync } from 'node:fs';
import type { OutStream } from '../types.js';

const streams = new Map<1 | 2, OutStream>();

/** The stream for stdout (1) or stderr (2), made on first use. */
export function stdio(fd: 1 | 2): OutStream {
  let stream = streams.get(fd);
  if (stream === undefined) {
    stream = piped(fd) ? new FdWriter(fd, () => nodeStream(fd)) : nodeStream(fd);
    streams.set(fd, stream);
  }
  return stream;
}

/** Node's stream for the descriptor, made on first use (the getter builds it). */
const made = new Map<1 | 2, NodeJS.WriteStream>();
function nodeStream(fd: 1 | 2): NodeJS.WriteStream {
  let stream = made.get(fd);
  if (stream === undefined) {
    stream = fd === 1 ? process.stdout : process.stderr;
    // A reader that stops early (`llmobs prompts list | head`) closes the pipe: that is not an
    // error, so the process stops quietly instead of crashing on an unhandled EPIPE.
    if (fd === 1) stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(process.exitCode ?? 0);
    });
    // A reader of stderr that stops early (`llmobs traces list --verbose 2>&1 | head`) only ends
    // the messages: the command goes on, and its exit code stays its own.
    else stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
    });
    made.set(fd, stream);
  }
  return stream;
}

/** Whether output is still buffered in a stream of Node's (an asynchronous pipe, on some systems). */
export function outputPending(): boolean {
  for (const stream of made.values()) if (stream.writableLength > 0) return true;
  return false;
}

const pipedFds = new Map<1 | 2, boolean>();

/** Whether stdout (1) or stderr (2) is a pipe, a socket, a regular file or /dev/null: never a terminal. */
export function piped(fd: 1 | 2): boolean {
  let answer = pipedFds.get(fd);
  if (answer === undefined) {
    try {
      const stat = fstatSync(fd);
      answer = stat.isFIFO() || stat.isSocket() || stat.isFile() || (stat.isCharacterDevice() && isDevNull(stat));
    } catch {
      answer = false;
    }
    pipedFds.set(fd, answer);
  }
  return answer;
}

/**
 * Whether a character device is /dev/null (`>/dev/null 2>&1` in scripts), by its device number.
 * Telling a terminal apart in general takes Node's tty module, which loads the network stack.
 */
export function isDevNull(stat: Stats): boolean {
  if (process.platform === 'win32') return false;
  const devNull = statSync('/dev/null', { throwIfNoEntry: false });
  return devNull !== undefined && devNull.isCharacterDevice() && devNull.rdev === stat.rdev;
}

/** Writes to a file descriptor; after a write it cannot finish, to `stream()` instead. */
export class FdWriter implements OutStream {
  readonly isTTY = false;
  readonly columns = undefined;
  private fallback: OutStream | undefined;

  constructor(
    private readonly fd: number,
    private readonly stream: () => OutStream,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    if (this.fallback) return this.fallback.write(chunk) !== false;
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (bytes.length > 0) {
      let written: number;
      try {
        written = writeSync(this.fd, bytes);
      } catch {
        this.fallback = this.stream();
        return this.fallback.write(bytes) !== false;
      }
      bytes = bytes.subarray(written);
    }
    return true;
  }

  /**
   * `once('drain')` for writers that wait when a write returns false: that happens only once Node's
   * stream has taken over, and it is that stream's event (without one, the listener runs at once).
   */
  once(event: 'drain', listener: () => void): this {
    const stream = this.fallback as Partial<NodeJS.WritableStream> | undefined;
    if (typeof stream?.once === 'function') stream.once(event, listener);
    else queueMicrotask(listener);
    return this;
  }
}
