// stdout and stderr of the CLI. Piped or redirected to a file or to /dev/null (scripts, CI), they
// are written with fs.writeSync on the file descriptor: Node's process.stdout is a stream that
// loads Node's whole stream stack, and for a pipe the network stack too, some 2 to 6 ms of CPU at
// every start of a process whose own start is 25 ms. On a terminal or another character device
// they stay Node's streams (a terminal needs its width and colours).
//
// A write the descriptor does not take whole at once (a non-blocking pipe that is full answers
// EAGAIN) or that fails (EPIPE: the reader is gone) hands the rest, and every later write, to
// Node's stream, which waits for the pipe or reports the error as it always did.
import { fstatSync, statSync, type Stats, writeSync } from 'node:fs';
import type { OutStream } from '../output/output.js';

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

const nodeStream = (fd: 1 | 2): NodeJS.WriteStream => (fd === 1 ? process.stdout : process.stderr);

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

/** Text kept before it is written: past this many characters or bytes it goes out at once. */
const FLUSH_AT = 64 * 1024;

/** Writers holding text not written yet. */
const waiting = new Set<FdWriter>();
let flushQueued = false;
let exitHooked = false;

function flushWaiting(): void {
  flushQueued = false;
  for (const writer of waiting) writer.flush();
}

/**
 * Writes to a file descriptor; after a write it cannot finish, to `stream()` instead. What is
 * written in one synchronous run of code goes out in one write (a table is one call, not one per
 * line) at the end of that run (a microtask), before the process exits, or once 64 KB are
 * waiting; a write to the other descriptor first sends what waits here, so stdout and stderr keep
 * their order.
 */
export class FdWriter implements OutStream {
  readonly isTTY = false;
  readonly columns = undefined;
  private fallback: OutStream | undefined;
  private pending: Array<string | Uint8Array> = [];
  private pendingLength = 0;

  constructor(
    private readonly fd: number,
    private readonly stream: () => OutStream,
  ) {}

  write(chunk: string | Uint8Array): boolean {
    for (const other of waiting) if (other !== this) other.flush();
    if (this.fallback) return this.fallback.write(chunk) !== false;
    this.pending.push(chunk);
    this.pendingLength += chunk.length;
    if (this.pendingLength >= FLUSH_AT) return this.flush();
    waiting.add(this);
    if (!flushQueued) {
      flushQueued = true;
      // A promise's reaction rather than queueMicrotask, which makes an async resource each time.
      void Promise.resolve().then(flushWaiting);
    }
    if (!exitHooked) {
      exitHooked = true;
      process.once('exit', flushWaiting);
    }
    return true;
  }

  /** Writes what waits now; false once the stream took over and asks to wait (backpressure). */
  flush(): boolean {
    waiting.delete(this);
    if (this.pending.length === 0) return true;
    const chunks = this.pending;
    this.pending = [];
    this.pendingLength = 0;
    let bytes = chunks.every((chunk) => typeof chunk === 'string')
      ? Buffer.from(chunks.length === 1 ? chunks[0]! : chunks.join(''), 'utf8')
      : Buffer.concat(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)));
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
}
