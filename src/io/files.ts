// Reading local input files: a missing or unreadable file is a file error (exit 6), bad content a
// usage error (exit 2) that says where it is. Nothing is sent before both checks pass. And writing
// a file whole, at once or as an output streams in.
// fs.promises rather than node:fs/promises: it loads on first use, and with it readline and the
// file watchers, which a command that reads no file does not need at start.
import { promises as fsp } from 'node:fs';
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import type { InStream } from '../types.js';
import { CliError, ExitCode, FileError, UsageError } from '../errors.js';
import { JsonTooDeepError, jsonTextDepth, MAX_JSON_DEPTH, valueDepth } from '../core/json-depth.js';
import { acquireLock, type AtomicStream, LockHeldError, openAtomicStream, writeFileAtomic } from './atomic.js';
import { InputTooLargeError, MAX_INPUT_BYTES, readAll } from './stdin.js';

/** Reads a file, or stdin when the name is `-`, up to MAX_INPUT_BYTES. */
export async function readTextInput(ctx: Context, file: string): Promise<string> {
  try {
    return file === '-' ? await readAll(ctx.io.stdin) : await readFileBounded(resolve(ctx.cwd, file));
  } catch (error) {
    throw cannotRead(file, error);
  }
}

/**
 * Reads a file as UTF-8 up to `limit` bytes (more is an InputTooLargeError); other errors are
 * Node's, with their code. A regular file's size is known: a large one is refused unread.
 * Devices and pipes (/dev/zero, a FIFO) are read up to the limit.
 */
export async function readFileBounded(path: string, limit = MAX_INPUT_BYTES): Promise<string> {
  const handle = await fsp.open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > limit) throw new InputTooLargeError(limit, size);
    return await readAll(handle.createReadStream({ autoClose: false }) as unknown as InStream, limit);
  } finally {
    await handle.close();
  }
}

/** The file error for an input (`-`: stdin) that cannot be opened or read. */
export function cannotRead(input: string, error: unknown): FileError {
  const file = input === '-' ? 'stdin' : input;
  // Too large, a line too long: said of the input by name, with their hint.
  if (error instanceof FileError) return new FileError(`cannot read ${file}: ${error.message.replace(/^the input/, 'it')}`, { hint: error.hint });
  const code = (error as NodeJS.ErrnoException).code;
  const reason = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
  return new FileError(`cannot read ${file}: ${reason}`);
}

/** A file, or stdin for `-`, as a stream of bytes to read in chunks; `size` when it is a file. */
export async function openInputStream(ctx: Context, file: string, highWaterMark: number): Promise<{ stream: NodeJS.ReadableStream; size: number | undefined }> {
  if (file === '-') return { stream: ctx.io.stdin, size: undefined };
  try {
    const handle = await fsp.open(resolve(ctx.cwd, file), 'r');
    const { size } = await handle.stat();
    return { stream: handle.createReadStream({ highWaterMark }), size };
  } catch (error) {
    throw cannotRead(file, error);
  }
}

/** JSON nested deeper than MAX_JSON_DEPTH: exit 2, code `json_too_deep`, before anything is sent. */
export function tooDeep(what: string): CliError {
  return new CliError(new JsonTooDeepError(what).message, ExitCode.usage, 'json_too_deep', {
    hint: 'Nothing was sent. Flatten the data, or check that the file is the one you meant.',
  });
}

export function parseJson(text: string, source: string): unknown {
  if (jsonTextDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw tooDeep(source);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not valid JSON: ${(error as Error).message}`);
  }
}

/** JSON, or YAML (a superset) when the file name or content says so. */
export async function parseJsonOrYaml(text: string, source: string): Promise<unknown> {
  const trimmed = text.trimStart();
  if (!/\.ya?ml$/i.test(source) && (trimmed.startsWith('{') || trimmed.startsWith('['))) return parseJson(text, source);
  const YAML = await import('./yaml.js');
  let value: unknown;
  try {
    value = YAML.parse(text, { prettyErrors: true });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep(source);
    throw new UsageError(`${source} is neither valid JSON nor valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (valueDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw tooDeep(source);
  return value;
}

/**
 * Replaces a file whole (see io/atomic.ts): it is either the old one or the new one, never a
 * part. `shown` names it in the error.
 */
export async function writeFileWhole(path: string, text: string, shown = path): Promise<void> {
  try {
    writeFileAtomic(path, text, { mode: 0o666 });
  } catch (error) {
    throw new FileError(`cannot write ${shown}: ${(error as Error).message}`);
  }
}

/** Beside an output file: who writes it now (see lockOutput). */
export const OUTPUT_LOCK_SUFFIX = '.llmobs-lock';
// Long enough to see past the stale-lock rule's first second (io/atomic.ts), so that a run
// started right after one that was killed takes its lock over instead of refusing. A lock whose
// holder lives is refused at once, without this wait.
const OUTPUT_LOCK_WAIT_MS = 1_500;

/**
 * Takes the lock beside an output file (`path` absolute, `shown` as given) for a command that writes
 * it over a long run, and returns its release. Another llmobs command writing the same file is an
 * error (exit 6, code `output_locked`) that names its pid: two writers would mix their pages.
 */
export function lockOutput(path: string, shown: string): () => void {
  const lock = `${path}${OUTPUT_LOCK_SUFFIX}`;
  try {
    return acquireLock(lock, OUTPUT_LOCK_WAIT_MS, { keepAlive: true });
  } catch (error) {
    if (error instanceof LockHeldError) {
      const holder = error.holder ? `(pid ${error.holder.pid}, since ${error.holder.since.toISOString()})` : '(its lock file cannot be read)';
      throw new CliError(`${shown} is being written by another llmobs command ${holder}`, ExitCode.file, 'output_locked', {
        hint: `Nothing was changed. Wait for that command to finish, or write to another file. A lock left by a command that died is taken over; remove ${lock} by hand only if no llmobs command is running.`,
      });
    }
    throw new FileError(`cannot write ${shown}: ${(error as Error).message}`);
  }
}

/** An output file whose lock is held (lockOutput), to be opened when there is something to write. */
export interface OutputClaim {
  /** The file, as openOutputFile opens it; its commit or discard frees the lock. */
  open(): Promise<AtomicStream>;
  /** Frees the lock of a file never opened; nothing once it was. */
  release(): void;
}

/**
 * The lock of the file an output streams to (`file` as given, from the working directory), taken
 * now; the file is opened later (`open`). For a command that must not send a request for a file
 * it cannot write, yet writes nothing before its first answer.
 */
export function claimOutputFile(ctx: Context, file: string): OutputClaim {
  const cannotWrite = (error: unknown) => new FileError(`cannot write ${file}: ${(error as Error).message}`);
  const path = resolve(ctx.cwd, file);
  const release = lockOutput(path, file);
  let opened = false;
  return {
    async open() {
      opened = true;
      let stream: AtomicStream;
      try {
        stream = await openAtomicStream(path, { mode: 0o644, durable: false });
      } catch (error) {
        release();
        throw cannotWrite(error);
      }
      return {
        async write(data) {
          try {
            await stream.write(data);
          } catch (error) {
            throw cannotWrite(error);
          }
        },
        async commit() {
          try {
            await stream.commit();
          } finally {
            release();
          }
        },
        async discard() {
          try {
            await stream.discard();
          } finally {
            release();
          }
        },
      };
    },
    release() {
      if (!opened) release();
    },
  };
}

/**
 * The file an output streams to (`file` as given, from the working directory): it appears whole on
 * commit(), or not at all (see openAtomicStream). Not flushed to disk: nothing relies on it surviving
 * a crash, and the command can run again. Opening or writing it fails with a file error that names it.
 * While open, it is locked (lockOutput): a second command writing the same file stops at once.
 */
export async function openOutputFile(ctx: Context, file: string): Promise<AtomicStream> {
  return claimOutputFile(ctx, file).open();
}
