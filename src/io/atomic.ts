// Files written over whole, and lock files: the profiles, the caches, a pulled models file, an
// export's checkpoint, a listing or re-pricing written to a file. A write goes to a new temporary
// file beside the target and is renamed over it, so a reader, or a crash, finds the old file or the
// new one, never a part. A lock is a file created exclusively that holds its owner's pid; one left
// by a command that died is taken over, and one held for a long run is kept fresh. Small files
// are written synchronously; a file written in many pieces as data arrives (openAtomicStream)
// asynchronously.
// fs.promises rather than node:fs/promises: it loads on first use, and a command that only writes
// a cache file does not need it.
import { closeSync, constants, fstatSync, fsyncSync, lstatSync, openSync, promises as fsp, readFileSync, renameSync, unlinkSync, utimesSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WriteOptions {
  /** The mode of the file, before the umask. */
  mode: number;
  /**
   * Flush the file before the rename and the directory after it (the default), so that a crash
   * keeps the new file. A cache does without: losing it costs a request.
   */
  durable?: boolean;
}

// A leftover of a write cut short: <target>.<pid>.tmp (as caches wrote before) or
// <target>.<pid>.<random>.tmp.
const TEMPORARY = /\.\d+(?:\.[0-9a-z]+)?\.tmp$/;

/** The name that a leftover temporary file was to replace, or undefined when it is not one. */
export function temporaryTarget(name: string): string | undefined {
  const match = TEMPORARY.exec(name);
  return match ? name.slice(0, match.index) : undefined;
}

/**
 * The temporary file a write of `path` goes to: a name no one can guess, created exclusively, so a
 * file or link planted beside the target is never written through.
 */
function temporaryName(path: string): string {
  return `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
}

const CREATE_NEW = constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY;

/**
 * Replaces `path` with `text` through a temporary file (see temporaryName). Throws the file
 * system's error, with nothing left behind.
 */
export function writeFileAtomic(path: string, text: string, options: WriteOptions): void {
  const durable = options.durable ?? true;
  const temp = temporaryName(path);
  let fd: number | undefined;
  try {
    fd = openSync(temp, CREATE_NEW, options.mode);
    writeSync(fd, text);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    try {
      unlinkSync(temp);
    } catch {
      // Not created.
    }
    throw error;
  }
  if (durable) syncDirectory(dirname(path));
}

/** A file written in pieces under a temporary name beside its target (see openAtomicStream). */
export interface AtomicStream {
  /** Appends text (as UTF-8) or bytes. */
  write(data: string | Uint8Array): Promise<void>;
  /** Closes the file (flushed first when durable) and renames it over the target. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file: the target stays as it was. */
  discard(): Promise<void>;
}

/**
 * `writeFileAtomic` for a file written many times as data arrives: the temporary file is opened
 * now, and becomes `path` on commit() or goes on discard(). Throws the file system's errors.
 */
export async function openAtomicStream(path: string, options: WriteOptions): Promise<AtomicStream> {
  const durable = options.durable ?? true;
  const temp = temporaryName(path);
  const handle = await fsp.open(temp, CREATE_NEW, options.mode);
  return {
    async write(data) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      let at = 0;
      while (at < bytes.length) at += (await handle.write(bytes, at, bytes.length - at)).bytesWritten;
    },
    async commit() {
      try {
        if (durable) await handle.sync();
      } finally {
        await handle.close();
      }
      await fsp.rename(temp, path);
      if (durable) syncDirectory(dirname(path));
    },
    async discard() {
      await handle.close().catch(() => {});
      await fsp.rm(temp, { force: true });
    },
  };
}

function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot flush a directory; the rename is still atomic.
  }
}

/** A file that is not a regular one, or larger than the reader allows. */
export class NotRegularError extends Error {}

/**
 * Reads a regular file of at most `limit` bytes (`what`: such a file, for the error). A device, a
 * FIFO or a larger file (a link to /dev/zero planted in a shared directory) is a NotRegularError,
 * found before anything is read: the open does not wait for a FIFO's writer, and reading a device
 * would never end.
 */
export function readRegularFileSync(path: string, limit: number, what: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) throw new NotRegularError('it is not a regular file (a device, a pipe or a socket, or a link to one)');
    if (info.size > limit) throw new NotRegularError(`it is ${info.size} bytes, more than the ${limit} ${what} may hold`);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Another command held the lock for the whole wait. */
export class LockHeldError extends Error {
  constructor(
    message: string,
    /** The holder as its lock file says: its pid and when it took the lock (undefined when unreadable). */
    readonly holder?: { pid: number; since: Date } | undefined,
  ) {
    super(message);
  }
}

// A lock older than this is left over from a command that died (a write takes milliseconds; a
// lock held longer is kept fresh, see keepAlive).
const STALE_LOCK_MS = 30_000;
// How often a lock held for a long run is touched: well within STALE_LOCK_MS.
const KEEP_ALIVE_MS = 10_000;

export interface LockOptions {
  /**
   * The lock is held for a long run (an export): its file is touched every few seconds, so that
   * it never looks stale while its holder lives. The timer does not keep the process alive. Such
   * a lock held by a live process is refused at once: its run will not end within the wait.
   */
  keepAlive?: boolean | undefined;
}

/**
 * Takes the lock file `path`, waiting up to `timeoutMs` for another command to release it, and
 * returns its release. LockHeldError when the wait ends (at once for a keepAlive lock whose holder
 * lives); the file system's error when the lock cannot be created at all.
 */
export function acquireLock(path: string, timeoutMs: number, options: LockOptions = {}): () => void {
  const deadline = Date.now() + timeoutMs;
  for (let attempt = 0; ; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const state = removeIfStale(path);
      if (state === 'removed') continue;
      if (Date.now() >= deadline || (state === 'live' && options.keepAlive)) throw new LockHeldError(`${path} is held by another command`, holderOf(path));
      sleepSync(Math.min(5 + attempt * 5, 50));
      continue;
    }
    try {
      writeSync(fd, `${process.pid} ${Date.now()}\n`);
    } finally {
      closeSync(fd);
    }
    const timer = options.keepAlive
      ? setInterval(() => {
          try {
            const now = new Date();
            utimesSync(path, now, now);
          } catch {
            // Removed meanwhile (taken over as stale): nothing to keep.
          }
        }, KEEP_ALIVE_MS).unref()
      : undefined;
    return () => {
      if (timer) clearInterval(timer);
      try {
        unlinkSync(path);
      } catch {
        // Already removed as stale by another command: nothing to release.
      }
    };
  }
}

/** Who holds a lock, as its file says; undefined when it cannot be read or says nothing clear. */
function holderOf(path: string): { pid: number; since: Date } | undefined {
  try {
    const [pidText, timeText] = readRegularFileSync(path, 1024, 'a lock file').trim().split(' ');
    const pid = Number(pidText);
    const time = Number(timeText);
    if (!Number.isInteger(pid) || pid <= 0) return undefined;
    return { pid, since: new Date(Number.isFinite(time) && time > 0 ? time : lstatSync(path).mtimeMs) };
  } catch {
    return undefined;
  }
}

/**
 * Removes a lock whose owner is gone or that is too old ('removed'). Otherwise 'live' when its
 * holder is a running process, 'unsure' when that cannot be told yet: a lock file just written,
 * or one that names no pid. A dead pid is believed only in a file older than a second: the pid
 * read may be that of the lock another command has just removed as stale and replaced by its own.
 */
function removeIfStale(path: string): 'removed' | 'live' | 'unsure' {
  let stale = false;
  let live = false;
  try {
    // A planted lock that is not a small regular file is removed like a stale one.
    let content: string;
    try {
      content = readRegularFileSync(path, 1024, 'a lock file');
    } catch (error) {
      if (!(error instanceof NotRegularError)) throw error;
      content = '';
      stale = true;
    }
    const [pidText] = content.split(' ');
    const pid = Number(pidText);
    const age = Date.now() - lstatSync(path).mtimeMs;
    if (age > STALE_LOCK_MS) stale = true;
    else if (Number.isInteger(pid) && pid > 0) {
      try {
        process.kill(pid, 0);
        live = true;
      } catch (error) {
        // EPERM: running, as another user.
        live = (error as NodeJS.ErrnoException).code !== 'ESRCH';
        stale = !live && age > 1_000;
      }
    }
  } catch (error) {
    // Gone in the meantime: try again at once.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'removed' : 'unsure';
  }
  if (!stale) return live ? 'live' : 'unsure';
  try {
    unlinkSync(path);
  } catch {
    // Another command removed it first.
  }
  return 'removed';
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
function sleepSync(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}
