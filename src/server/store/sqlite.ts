// The SQLite binding, loaded on first use only: `llmobs server` is the one command that needs it,
// and a native module costs start-up time every other command would pay. `createRequire` keeps it
// a runtime import that a bundler leaves alone (the package ships a prebuilt binary per platform).
//
// libsql (better-sqlite3's API, prebuilt binaries from npm) was chosen over better-sqlite3, which
// compiles from source on install (about 80 s here, and a C++ toolchain on every machine); see
// bench/README.md for the insert and query figures of both.
import { createRequire } from 'node:module';
import type Libsql from 'libsql';

export type Database = Libsql.Database;
export type Statement = Libsql.Statement<unknown[]>;

type DatabaseConstructor = typeof Libsql;

let constructor: DatabaseConstructor | undefined;

function binding(): DatabaseConstructor {
  if (!constructor) {
    const require = createRequire(import.meta.url);
    constructor = require('libsql') as DatabaseConstructor;
  }
  return constructor;
}

/** Opens (creating if needed) a database file, or an in-memory database for `undefined`. */
export function openSqlite(path: string | undefined): Database {
  const Database = binding();
  return new Database(path ?? ':memory:', { timeout: 0 });
}

/** SQLite's result code of an error thrown by the binding ("SQLITE_BUSY", "SQLITE_FULL", ...). */
export function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** Prepared statements by SQL text, prepared once per database. */
export class Statements {
  private readonly cache = new Map<string, Statement>();
  private readonly rawCache = new Map<string, Statement>();

  constructor(readonly db: Database) {}

  get(sql: string): Statement {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql) as Statement;
      this.cache.set(sql, statement);
    }
    return statement;
  }

  // Parameters go to the binding as one array: it then skips a copy per call, and a single null
  // parameter is not mistaken for an object of named parameters (which the binding refuses).

  run(sql: string, ...params: unknown[]): number {
    return this.get(sql).run(params).changes;
  }

  row<T>(sql: string, ...params: unknown[]): T | undefined {
    return this.get(sql).get(params) as T | undefined;
  }

  rows<T>(sql: string, ...params: unknown[]): T[] {
    return this.get(sql).all(params) as T[];
  }

  /**
   * Rows as arrays of their values, in the SELECT's order: the binding makes no object per row,
   * which costs more than the values (the v2 list reads a thousand rows of 22 columns a page).
   */
  valueRows(sql: string, ...params: unknown[]): unknown[][] {
    let statement = this.rawCache.get(sql);
    if (!statement) {
      statement = (this.db.prepare(sql) as Statement).raw(true);
      this.rawCache.set(sql, statement);
    }
    return statement.all(params) as unknown[][];
  }
}
