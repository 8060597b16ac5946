// The local server's storage: one SQLite database in the data directory (or in memory with
// --ephemeral), written through one transaction per request (ingestion requests that arrive
// together share one, each in a savepoint: transactions.ts).
//
// - Durability: WAL with synchronous=NORMAL. An acknowledged write survives the server process
//   ending any way it can (a crash, kill -9, the OOM killer): it is in the WAL file, which the
//   operating system writes out whatever happens to the process, and it is replayed on the next
//   start. A power cut or an operating-system crash can lose the last writes acknowledged before
//   it (the WAL is synced at checkpoints, not at each commit), never more, and never leaves a
//   half-written request or a corrupt database. A commit then costs no fsync: at FULL each
//   request waited for one. A failed write (full disk, I/O error) is rolled back whole: nothing of
//   it is visible after.
// - The lock: `llmobs.lock` is a small SQLite file held in SQLite's exclusive locking mode, which
//   keeps a POSIX lock on it for as long as the process has it open. The OS drops the lock when
//   the process dies (kill -9 included), and two processes can never both hold it, whatever their
//   pids (a restarted container's server is PID 1 again). It is taken before the database is
//   touched; `server.json` beside it only says who holds it, for the error message. (The lock is
//   not the database's own exclusive mode because the binding frees a closed connection only
//   when its prepared statements are garbage-collected; the lock handle uses none.)
import { randomBytes, randomUUID } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileError } from '../../errors.js';
import type { ApiKeyRecord, ProjectRecord } from '../records.js';
import { importState, keepStateBackup, readLegacyState, STATE_BACKUP_FILE } from './import-state.js';
import type { MetricsAnswerRow } from '../../core/metrics/index.js';
import type { DailyMetricsFilter, DailyMetricsPage } from './daily-metrics.js';
import type { MigrationProgress } from './migration-progress.js';
import type { ObservationFilter } from './observations.js';
import { migrate } from './migrations.js';
import { ReadThread } from './read-thread.js';
import type { TraceStatsRequest } from './read-worker.js';
import type { TraceStatsJson } from './traces.js';
import { type Database, openSqlite, sqliteCode, Statements } from './sqlite.js';
import { GroupCommit, inTransaction } from './transactions.js';
import { Tx } from './tx.js';

export { StoreWriteError } from './transactions.js';

export const DATABASE_FILE = 'llmobs.db';
/** Held locked while a server uses the directory. */
export const LOCK_FILE = 'llmobs.lock';
/** Who holds the data directory (pid, start time, URL), for messages; the lock itself is the database's. */
export const SERVER_INFO_FILE = 'server.json';
/** The pid file of servers before the database; removed once the database lock is held. */
export const LEGACY_LOCK_FILE = 'server.lock';

export interface OpenedStore {
  store: Store;
  /** True when this start created the project and its keys. */
  created: boolean;
}

export interface StoreOptions {
  /** Undefined: an in-memory database, gone on close. */
  dataDir?: string | undefined;
  now: () => Date;
  /** Told of a migration that rewrites rows, while it runs (the first start after an upgrade). */
  migrationProgress?: MigrationProgress | undefined;
}

interface ServerInfo {
  pid: number;
  startedAt: string;
  url?: string;
}

export class Store {
  readonly project: ProjectRecord;
  /** The project's keys; they never change while the server runs. */
  readonly apiKeys: readonly ApiKeyRecord[];
  /** The organization's key (the integration routes take only that one); made on first open. */
  readonly organizationKeys: readonly ApiKeyRecord[];
  private readonly tx: Tx;
  private readonly group: GroupCommit;
  private closed = false;
  /** The read thread once started; null where there is none (see read-thread.ts). */
  private thread: ReadThread | null | undefined;
  /** The checkpoint asked for after the latest writes, until it has run. */
  private checkpointing: NodeJS.Timeout | Promise<unknown> | undefined;

  private constructor(
    private readonly db: Database,
    readonly dataDir: string | undefined,
    private readonly lock: Database | undefined,
  ) {
    this.tx = new Tx(new Statements(db));
    this.group = new GroupCommit(db);
    this.project = this.tx.project.get()!;
    this.apiKeys = this.tx.project.apiKeys();
    // A database made before there were organization keys gets one now.
    if (this.tx.integrations.organizationKeys().length === 0) {
      inTransaction(db, 'IMMEDIATE', () => this.tx.integrations.addOrganizationKey({ id: randomUUID(), publicKey: `pk-lf-${randomUUID()}`, secretKey: `sk-lf-${randomUUID()}`, createdAt: new Date().toISOString() }));
    }
    this.organizationKeys = this.tx.integrations.organizationKeys();
  }

  static open(options: StoreOptions): OpenedStore {
    const dir = options.dataDir;
    if (!dir) {
      const db = openSqlite(undefined);
      db.exec('PRAGMA foreign_keys = ON');
      migrate(db, 'the in-memory database');
      createProject(db, options.now());
      return { store: new Store(db, undefined, undefined), created: true };
    }
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new FileError(`cannot create data directory ${dir}: ${(error as Error).message}`);
    }
    const path = join(dir, DATABASE_FILE);
    // A state file is checked before anything is created, so a bad one stops the start cleanly.
    const legacy = existsSync(path) ? undefined : readLegacyState(dir);
    const lock = lockDataDir(dir);
    let db: Database | undefined;
    let created = false;
    try {
      keepPrivate(dir);
      db = openDatabase(path);
      migrate(db, path, undefined, options.migrationProgress);
      const opened = db;
      if (!new Tx(new Statements(opened)).project.get()) {
        if (legacy) inTransaction(opened, 'IMMEDIATE', () => importState(new Tx(new Statements(opened)), legacy));
        else created = createProject(opened, options.now());
      }
      keepStateBackup(dir);
      rmSync(join(dir, LEGACY_LOCK_FILE), { force: true });
      writeInfo(dir, { pid: process.pid, startedAt: options.now().toISOString() });
      return { store: new Store(opened, dir, lock), created };
    } catch (error) {
      db?.close();
      lock.close();
      throw error;
    }
  }

  /** Runs `fn` in a read transaction: it sees one consistent state. `fn` must be synchronous. */
  read<T>(fn: (tx: Tx) => T): T {
    this.group.commit();
    return inTransaction(this.db, 'DEFERRED', () => fn(this.tx));
  }

  /**
   * Runs `fn` in a write transaction and commits when it returns. Whatever it throws (or a commit
   * that fails) rolls everything back. `fn` must be synchronous, so writes never interleave.
   */
  write<T>(fn: (tx: Tx) => T): T {
    this.group.commit();
    const result = inTransaction(this.db, 'IMMEDIATE', () => fn(this.tx));
    this.checkpointSoon();
    return result;
  }

  /**
   * `write`, sharing its commit with the writes that arrive before the event loop's next turn
   * (transactions.ts): resolves once the commit that holds it is done, rejects with nothing of it
   * stored. Another transaction commits the open one first.
   */
  writeGrouped<T>(fn: (tx: Tx) => T): Promise<T> {
    this.checkpointSoon();
    return this.group.write(() => fn(this.tx));
  }

  /**
   * Soon after writes, a checkpoint (the WAL's pages copied into the database file) on the read
   * thread. The connection that commits checkpoints too, once the WAL holds 10,000 pages, and
   * holds the event loop while it does: the read thread's checkpoints, 10 a second while writes
   * go on, leave it little to copy.
   */
  private checkpointSoon(): void {
    if (this.checkpointing || !this.dataDir || this.closed) return;
    const timer = setTimeout(() => {
      const thread = this.readThread();
      // A checkpoint that fails (a full disk) loses nothing: the pages stay in the WAL.
      this.checkpointing = thread?.checkpoint().catch(() => undefined).finally(() => (this.checkpointing = undefined));
    }, 100);
    timer.unref();
    this.checkpointing = timer;
  }

  /**
   * The answer of a metrics query, computed on the read thread (the event loop goes on
   * meanwhile). Undefined instead of a promise where there is no read thread.
   */
  metricsOffThread(metricsQuery: string): Promise<MetricsAnswerRow[]> | undefined {
    return this.readThread()?.metrics(metricsQuery);
  }

  /** metricsOffThread for a v1 metrics query. */
  metricsV1OffThread(metricsQuery: string): Promise<MetricsAnswerRow[]> | undefined {
    return this.readThread()?.metricsV1(metricsQuery);
  }

  /** A page of the daily metrics, read on the read thread; undefined where there is none. */
  dailyMetricsOffThread(filter: DailyMetricsFilter, page: number, limit: number): Promise<DailyMetricsPage> | undefined {
    return this.readThread()?.dailyMetrics(filter, page, limit);
  }

  /** The traces list's stats of its traces (their ids as JSON), read on the read thread; undefined where there is none. */
  traceStatsOffThread(request: TraceStatsRequest): Promise<Map<string, TraceStatsJson>> | undefined {
    return this.readThread()?.traceStats(request);
  }

  /**
   * The ids of a page of the v1 observations list and how many observations its filter picks,
   * read on the read thread; undefined where there is none.
   */
  observationPageOffThread(filter: ObservationFilter, page: { limit: number; offset: number }): Promise<{ ids: string[]; total: number }> | undefined {
    return this.readThread()?.observationPage(filter, page);
  }

  /** The read thread, started on first use; undefined where there is none or it failed. */
  private readThread(): ReadThread | undefined {
    if (this.thread === undefined) this.thread = (this.dataDir && !this.closed && ReadThread.start(join(this.dataDir, DATABASE_FILE))) || null;
    return !this.thread || this.thread.failed ? undefined : this.thread;
  }

  /** How the database keeps data: its journal mode and sync level (SQLite's names, lower case). */
  durability(): { journalMode: string; synchronous: string } {
    const value = (pragma: string) => String((this.db.prepare(`PRAGMA ${pragma}`).raw().get() as unknown[])[0]).toLowerCase();
    const levels = ['off', 'normal', 'full', 'extra'];
    const synchronous = value('synchronous');
    return { journalMode: value('journal_mode'), synchronous: levels[Number(synchronous)] ?? synchronous };
  }

  /** Records the URL the server listens on, for the message a second server gets. */
  recordUrl(url: string): void {
    if (this.dataDir) writeInfo(this.dataDir, { pid: process.pid, startedAt: new Date().toISOString(), url });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.group.commit();
    if (this.checkpointing && !(this.checkpointing instanceof Promise)) clearTimeout(this.checkpointing);
    this.thread?.stop();
    if (this.dataDir) {
      try {
        if (readInfo(this.dataDir)?.pid === process.pid) rmSync(join(this.dataDir, SERVER_INFO_FILE), { force: true });
      } catch {
        // Only informational.
      }
    }
    if (this.dataDir) {
      try {
        // Everything into the database file, and the WAL emptied: a stopped server leaves one file.
        this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      } catch {
        // The WAL stays and is replayed on the next start.
      }
    }
    this.db.close();
    this.lock?.close();
  }
}

/**
 * Takes the data directory's lock, or says who holds it. Only `exec` is used on this handle: a
 * connection without prepared statements is really closed by close(), which releases the lock.
 */
/**
 * The database holds the project's secret keys: its files are the owner's alone (0600), whatever
 * the umask or the directory's mode (an existing `--data-dir` may be readable by others). An
 * empty file is created first with that mode, and SQLite gives its -wal and -shm files the mode
 * of the database file; files left by an earlier version are narrowed.
 */
function keepPrivate(dir: string): void {
  const database = join(dir, DATABASE_FILE);
  try {
    closeSync(openSync(database, 'a', 0o600));
  } catch {
    // openDatabase reports what is wrong with the file.
  }
  for (const name of [DATABASE_FILE, `${DATABASE_FILE}-wal`, `${DATABASE_FILE}-shm`, LOCK_FILE, SERVER_INFO_FILE, STATE_BACKUP_FILE]) {
    const path = join(dir, name);
    try {
      if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
    } catch {
      // Absent, or not ours to change: nothing more to do here.
    }
  }
}

function lockDataDir(dir: string): Database {
  const path = join(dir, LOCK_FILE);
  let lock: Database;
  try {
    closeSync(openSync(path, 'a', 0o600));
  } catch {
    // Reported by the open below.
  }
  try {
    lock = openSqlite(path);
  } catch (error) {
    throw new FileError(`cannot open ${path}: ${(error as Error).message}`);
  }
  try {
    // journal_mode OFF: the lock file never changes, so it needs no journal beside it.
    lock.exec('PRAGMA busy_timeout = 0; PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = OFF; BEGIN EXCLUSIVE; COMMIT');
    return lock;
  } catch (error) {
    lock.close();
    const code = sqliteCode(error);
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') {
      const holder = readInfo(dir);
      const who = holder ? ` (pid ${holder.pid}${holder.url ? `, ${holder.url}` : ''})` : '';
      throw new FileError(`data directory ${dir} is in use by another llmobs server${who}`, {
        hint: 'Stop that server first, or start this one with another --data-dir (or --ephemeral).',
      });
    }
    throw new FileError(`cannot lock ${path}: ${(error as Error).message}`, { hint: `Remove ${path} if no llmobs server is running and it is not a lock file of llmobs.` });
  }
}

function openDatabase(path: string): Database {
  let db: Database;
  try {
    db = openSqlite(path);
  } catch (error) {
    throw new FileError(`cannot open ${path}: ${(error as Error).message}`);
  }
  try {
    // Pages of 4 KB (a new database only; one that exists keeps its page size): an observation
    // row is about 1 KB since schema 6, and every commit writes whole pages, among them one of the
    // id index for each observation (ids are random): larger pages cost more per commit and keep
    // no more per page. The WAL file is cut back to 64 MB after a checkpoint that followed a large
    // write. A checkpoint every 10,000 pages (40 MB) instead of 1,000 writes a page that many requests
    // change (index pages, mostly) once rather than ten times. The page cache (32 MB instead of
    // 2 MB) keeps the indexes that ingestion inserts into at random in memory; it is a bound, so
    // memory stays flat however large the database grows.
    db.exec(
      `PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA journal_size_limit = 67108864; PRAGMA wal_autocheckpoint = 10000; PRAGMA cache_size = -32768`,
    );
    return db;
  } catch (error) {
    db.close();
    const code = sqliteCode(error);
    if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT') {
      throw new FileError(`${path} is not a llmobs database (${(error as Error).message}); it was left untouched`, {
        hint: 'Point --data-dir at an empty directory or at one a llmobs server created.',
      });
    }
    throw new FileError(`cannot open ${path}: ${(error as Error).message}`);
  }
}

/** A new project with one key pair; true once created. */
function createProject(db: Database, now: Date): boolean {
  const createdAt = now.toISOString();
  const project: ProjectRecord = {
    id: `proj-${randomBytes(6).toString('hex')}`,
    name: 'llmobs-local',
    organization: { id: `org-${randomBytes(6).toString('hex')}`, name: 'llmobs local' },
    metadata: {},
    createdAt,
  };
  const key: ApiKeyRecord = { id: randomUUID(), publicKey: `pk-lf-${randomUUID()}`, secretKey: `sk-lf-${randomUUID()}`, createdAt };
  inTransaction(db, 'IMMEDIATE', () => new Tx(new Statements(db)).project.create(project, [key]));
  return true;
}

function writeInfo(dir: string, info: ServerInfo): void {
  try {
    writeFileSync(join(dir, SERVER_INFO_FILE), JSON.stringify(info), { mode: 0o600 });
  } catch {
    // Only informational: a full disk must not stop a server that holds the lock.
  }
}

function readInfo(dir: string): ServerInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(join(dir, SERVER_INFO_FILE), 'utf8')) as ServerInfo;
    return typeof info.pid === 'number' ? info : undefined;
  } catch {
    return undefined;
  }
}
