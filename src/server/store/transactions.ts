// How the store's transactions run: one at a time on the one connection, each committed whole or
// rolled back whole. Writes that may share a commit (ingestion requests) go through a
// GroupCommit: a group's transaction stays open until the event loop's next turn, the writes of
// the requests that came in meanwhile join it, each in its own savepoint, and each is answered
// only once the commit that holds it is done. A commit writes
// the pages the group changed once (the index pages most requests touch, above all), so requests
// that arrive together cost less than one after the other. A request that fails is rolled back
// to its savepoint alone; its neighbours are kept. A commit that fails loses the whole group, and
// every request in it gets the error: nothing of them was stored.
import type { Database } from './sqlite.js';
import { sqliteCode } from './sqlite.js';

/**
 * A write that the database could not carry out (disk full, I/O error, read-only file). The
 * transaction was rolled back: nothing of the request was stored.
 */
export class StoreWriteError extends Error {
  constructor(
    readonly code: string,
    cause: unknown,
  ) {
    super(`the data directory could not be written (${code}: ${(cause as Error).message}); nothing of this request was stored`);
    this.name = 'StoreWriteError';
  }
}

const WRITE_FAILURES = /^SQLITE_(FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|PROTOCOL)/;

function asWriteError(error: unknown): unknown {
  const code = sqliteCode(error);
  return code && WRITE_FAILURES.test(code) ? new StoreWriteError(code, error) : error;
}

function isThenable(value: unknown): boolean {
  return value !== null && typeof (value as { then?: unknown } | undefined)?.then === 'function';
}

function rollback(db: Database): void {
  if (!db.inTransaction) return;
  try {
    db.exec('ROLLBACK');
  } catch {
    // SQLite already rolled back (it does after some I/O errors); the caller's error says why.
  }
}

export function inTransaction<T>(db: Database, mode: 'DEFERRED' | 'IMMEDIATE', fn: () => T): T {
  if (db.inTransaction) throw new Error('store: transactions do not nest; one per request');
  try {
    db.exec(`BEGIN ${mode}`);
  } catch (error) {
    throw asWriteError(error);
  }
  let result: T;
  try {
    result = fn();
    if (isThenable(result)) throw new Error('store: a transaction function must be synchronous');
    db.exec('COMMIT');
  } catch (error) {
    rollback(db);
    throw asWriteError(error);
  }
  return result;
}

interface Waiting {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Writes that share commits; see the top of this file. */
export class GroupCommit {
  /** The requests written in the open transaction, waiting for its commit; undefined when none is open. */
  private waiting: Waiting[] | undefined;

  constructor(private readonly db: Database) {}

  /**
   * Runs `fn` (synchronous) in the open transaction, or in a new one that the writes arriving
   * before the event loop's next turn join. Resolves with its result once that transaction is
   * committed; rejects, with nothing of it stored, when `fn` throws or the commit fails.
   */
  write<T>(fn: () => T): Promise<T> {
    if (!this.waiting) {
      if (this.db.inTransaction) throw new Error('store: transactions do not nest; one per request');
      try {
        this.db.exec('BEGIN IMMEDIATE');
      } catch (error) {
        return Promise.reject(asWriteError(error));
      }
      this.waiting = [];
      setImmediate(() => this.commit());
    }
    const waiting = this.waiting;
    let result: T;
    try {
      this.db.exec('SAVEPOINT request');
      result = fn();
      if (isThenable(result)) throw new Error('store: a transaction function must be synchronous');
      this.db.exec('RELEASE request');
    } catch (error) {
      try {
        this.db.exec('ROLLBACK TO request');
        this.db.exec('RELEASE request');
      } catch {
        // After some I/O errors SQLite has rolled back the whole transaction: checked below.
      }
      if (!this.db.inTransaction) this.fail(error);
      return Promise.reject(asWriteError(error));
    }
    return new Promise<T>((resolve, reject) => waiting.push({ resolve: () => resolve(result), reject }));
  }

  /** Commits the open transaction now, if there is one (before any other transaction starts). */
  commit(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = undefined;
    try {
      this.db.exec('COMMIT');
    } catch (error) {
      rollback(this.db);
      for (const request of waiting) request.reject(asWriteError(error));
      return;
    }
    for (const request of waiting) request.resolve();
  }

  private fail(error: unknown): void {
    const waiting = this.waiting ?? [];
    this.waiting = undefined;
    rollback(this.db);
    for (const request of waiting) request.reject(asWriteError(error));
  }
}
