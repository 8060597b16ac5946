// The local server's storage: the whole state in memory, persisted as one JSON file that is
// replaced atomically (write a temp file, fsync, rename, fsync the directory) after every change,
// so a kill at any moment leaves either the old or the new state. A lock file keeps a second
// server off the same data directory.
import { randomBytes, randomUUID } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { FileError } from '../errors.js';
import { STATE_SCHEMA_VERSION, type ServerState } from './state.js';

export const STATE_FILE = 'state.json';
export const LOCK_FILE = 'server.lock';

export interface OpenedStore {
  store: DataStore;
  /** True when this start created the project and its keys. */
  created: boolean;
}

export class DataStore {
  state: ServerState;
  readonly dataDir: string | undefined;
  private dirty = false;
  private writing: Promise<void> | undefined;
  private tempCounter = 0;
  private closed = false;

  private constructor(state: ServerState, dataDir: string | undefined) {
    this.state = state;
    this.dataDir = dataDir;
  }

  static open(options: { dataDir?: string | undefined; now: () => Date }): OpenedStore {
    if (!options.dataDir) return { store: new DataStore(initialState(options.now()), undefined), created: true };
    const dir = options.dataDir;
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new FileError(`cannot create data directory ${dir}: ${(error as Error).message}`);
    }
    acquireLock(dir);
    try {
      removeStaleTemps(dir);
      const existing = readState(dir);
      if (existing) return { store: new DataStore(existing, dir), created: false };
      const store = new DataStore(initialState(options.now()), dir);
      writeStateSync(dir, store.state);
      return { store, created: true };
    } catch (error) {
      releaseLock(dir);
      throw error;
    }
  }

  /**
   * Applies a change and resolves once it is on disk. `change` runs synchronously, so changes
   * never interleave; it must validate before it modifies anything.
   */
  async mutate<T>(change: (state: ServerState) => T): Promise<T> {
    const result = change(this.state);
    if (this.dataDir) {
      this.dirty = true;
      await this.flush();
    }
    return result;
  }

  private flush(): Promise<void> {
    this.writing ??= (async () => {
      try {
        while (this.dirty) {
          this.dirty = false;
          await this.writeAtomic(JSON.stringify(this.state));
        }
      } finally {
        this.writing = undefined;
      }
    })();
    return this.writing;
  }

  private async writeAtomic(text: string): Promise<void> {
    const dir = this.dataDir!;
    const temp = join(dir, `${STATE_FILE}.${process.pid}.${++this.tempCounter}.tmp`);
    const handle = await open(temp, 'w', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, join(dir, STATE_FILE));
    } catch (error) {
      await unlink(temp).catch(() => {});
      throw error;
    }
    syncDirectory(dir);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.writing;
    if (this.dataDir) releaseLock(this.dataDir);
  }
}

function initialState(now: Date): ServerState {
  const createdAt = now.toISOString();
  return {
    schemaVersion: STATE_SCHEMA_VERSION,
    project: {
      id: `proj-${randomBytes(6).toString('hex')}`,
      name: 'llmobs-local',
      organization: { id: `org-${randomBytes(6).toString('hex')}`, name: 'llmobs local' },
      metadata: {},
      createdAt,
    },
    apiKeys: [{ id: randomUUID(), publicKey: `pk-lf-${randomUUID()}`, secretKey: `sk-lf-${randomUUID()}`, createdAt }],
    prompts: [],
    promptDependencies: [],
    models: [],
  };
}

function readState(dir: string): ServerState | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, STATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new FileError(`cannot read ${join(dir, STATE_FILE)}: ${(error as Error).message}`);
  }
  let state: ServerState;
  try {
    state = JSON.parse(text) as ServerState;
  } catch (error) {
    throw new FileError(`${join(dir, STATE_FILE)} is not valid JSON (${(error as Error).message}); it was left untouched`, {
      hint: 'Move the data directory away to start fresh, or restore it from a backup.',
    });
  }
  if (state?.schemaVersion !== STATE_SCHEMA_VERSION || !state.project || !Array.isArray(state.apiKeys)) {
    throw new FileError(`${join(dir, STATE_FILE)} is not a llmobs server state file (schema ${String(state?.schemaVersion)})`, {
      hint: 'Point --data-dir at an empty directory or at one a llmobs server created.',
    });
  }
  // Collections added after the first release are missing from older state files.
  if (!Array.isArray(state.prompts)) state.prompts = [];
  if (!Array.isArray(state.promptDependencies)) state.promptDependencies = [];
  if (!Array.isArray(state.models)) state.models = [];
  return state;
}

function writeStateSync(dir: string, state: ServerState): void {
  const temp = join(dir, `${STATE_FILE}.${process.pid}.init.tmp`);
  writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
  const fd = openSync(temp, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, join(dir, STATE_FILE));
  syncDirectory(dir);
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
    // Not every platform can fsync a directory; the rename itself is still atomic.
  }
}

function removeStaleTemps(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (name.startsWith(`${STATE_FILE}.`) && name.endsWith('.tmp')) {
      try {
        unlinkSync(join(dir, name));
      } catch {
        // Another process's temp file that vanished meanwhile.
      }
    }
  }
}

interface LockInfo {
  pid: number;
  startedAt: string;
  url?: string;
}

function acquireLock(dir: string): void {
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockInfo), { flag: 'wx', mode: 0o600 });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new FileError(`cannot create lock file ${path}: ${(error as Error).message}`);
      }
    }
    const holder = readLock(path);
    if (holder && isAlive(holder.pid)) {
      throw new FileError(`data directory ${dir} is in use by another llmobs server (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''})`, {
        hint: 'Stop that server first, or start this one with another --data-dir (or --ephemeral).',
      });
    }
    // The previous holder died without cleaning up: take the lock over.
    try {
      unlinkSync(path);
    } catch {
      // Removed by someone else in the meantime; the next attempt decides.
    }
  }
  throw new FileError(`cannot lock data directory ${dir}`, { hint: `Remove ${path} if no llmobs server is running.` });
}

export function recordLockUrl(dir: string, url: string): void {
  const path = join(dir, LOCK_FILE);
  const holder = readLock(path);
  if (holder?.pid === process.pid) writeFileSync(path, JSON.stringify({ ...holder, url }), { mode: 0o600 });
}

function readLock(path: string): LockInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path, 'utf8')) as LockInfo;
    return typeof info.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}

function releaseLock(dir: string): void {
  const path = join(dir, LOCK_FILE);
  if (readLock(path)?.pid === process.pid) {
    try {
      unlinkSync(path);
    } catch {
      // Already gone.
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
