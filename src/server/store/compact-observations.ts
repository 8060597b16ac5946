// Migration 6: observations in a compact row (observation-row.ts). Until version 4 a row held
// the whole record as JSON beside columns that repeated a score of its fields. The migration
// itself renames the old table to `observations_v4` and creates the new one; then the rows move
// over, 1,000 at a time, each step one transaction that inserts them into the new table and
// deletes them from the old (whose pages the next steps reuse: the database never holds two
// copies, and the WAL stays small). A crash or a full disk stops at a step boundary; the next
// open goes on from there. An older llmobs refuses the store from the start (schema 6).
//
// The indexes kept, and the queries each serves:
// - the primary key (id): a record by id (GET, ingestion's lookups and upserts, scores joined to
//   their observation);
// - observations_by_trace (trace_id, start_time): a trace's observations in order, the traces
//   list's per-trace figures and filters, deleting a trace, lists filtered by trace id;
// - observations_by_time (start_time, trace_hash, id, all descending): the v2 list and its cursor,
//   and every query bounded by start time (the v1 list, metrics, health).
// observations_by_name (name, start_time) is dropped: a list filtered by name walks the time
// index, as one filtered by type or level does.
//
// The row format here is today's; a later change of it gives this migration its own copy.
import { formatInteger } from '../../core/thousands.js';
import type { ObservationRecord } from '../records.js';
import type { MigrationProgress } from './migration-progress.js';
import { OBSERVATION_COLUMNS, observationParams } from './observation-row.js';
import type { Database } from './sqlite.js';

export const OBSERVATIONS_TABLE = (name: string) => `
  CREATE TABLE ${name} (
    id TEXT PRIMARY KEY,
    trace_id TEXT,
    parent_observation_id TEXT,
    type TEXT NOT NULL,
    name TEXT,
    environment TEXT NOT NULL,
    level TEXT NOT NULL,
    version TEXT,
    start_time TEXT NOT NULL,
    end_time TEXT,
    completion_start_time TEXT,
    provided_model_name TEXT,
    internal_model_id TEXT,
    prompt_name TEXT,
    prompt_version INTEGER,
    total_cost REAL,
    input_tokens REAL NOT NULL DEFAULT 0,
    output_tokens REAL NOT NULL DEFAULT 0,
    total_tokens REAL NOT NULL DEFAULT 0,
    input_cost REAL NOT NULL DEFAULT 0,
    output_cost REAL NOT NULL DEFAULT 0,
    latency_ms REAL,
    time_to_first_token_ms REAL,
    trace_hash INTEGER NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT,
    data TEXT NOT NULL,
    events TEXT
  )`;

/** Where migration 6 sets the old rows aside until they have moved. */
export const OLD_OBSERVATIONS_TABLE = 'observations_v4';

/** The migration's own step (in its transaction): the old table set aside, the new one created. */
export function compactObservations(db: Database): void {
  db.exec(`
    DROP INDEX observations_by_trace;
    DROP INDEX observations_by_time;
    DROP INDEX observations_by_name;
    ALTER TABLE observations RENAME TO ${OLD_OBSERVATIONS_TABLE};
    ${OBSERVATIONS_TABLE('observations')};
    CREATE INDEX observations_by_trace ON observations (trace_id, start_time);
    CREATE INDEX observations_by_time ON observations (start_time DESC, trace_hash DESC, id DESC);`);
}

/** Rows moved per transaction: memory and the WAL stay bounded however many there are. */
const STEP = 1000;

/**
 * Moves what is left in the old table into the new one, a step at a time, and drops the old
 * table once empty, telling `progress` how far it is. Nothing to do when there is no old table.
 * Returns how many rows moved.
 */
export function moveOldObservations(db: Database, progress?: MigrationProgress): number {
  const exists = () => db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '${OLD_OBSERVATIONS_TABLE}'`).raw().get() !== undefined;
  if (!exists()) return 0;
  const total = Number((db.prepare(`SELECT count(*) FROM ${OLD_OBSERVATIONS_TABLE}`).raw().get() as [number])[0]);
  if (total > 0) {
    progress?.begin(`moving ${formatInteger(total)} observations to the compact row format of schema 6, ${formatInteger(STEP)} at a time; if it is stopped, the next start goes on from where it stopped`, total);
  }
  const projectId = (db.prepare('SELECT id FROM project LIMIT 1').raw().get() as [string] | undefined)?.[0];
  const read = db.prepare(`SELECT rowid AS at, * FROM ${OLD_OBSERVATIONS_TABLE} ORDER BY rowid LIMIT ${STEP}`);
  const insert = db.prepare(`INSERT INTO observations (${OBSERVATION_COLUMNS.join(', ')}, events) VALUES (${OBSERVATION_COLUMNS.map(() => '?').join(', ')}, ?)`);
  const remove = db.prepare(`DELETE FROM ${OLD_OBSERVATIONS_TABLE} WHERE rowid <= ?`);
  let moved = 0;
  for (;;) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const rows = read.all() as Array<Record<string, unknown> & { at: number; record: string; events: string | null }>;
      if (rows.length === 0) {
        db.exec(`DROP TABLE ${OLD_OBSERVATIONS_TABLE}`);
        db.exec('COMMIT');
        if (total > 0) progress?.end();
        return moved;
      }
      for (const row of rows) insert.run([...observationParams(JSON.parse(row.record) as ObservationRecord, projectId, row), row.events]);
      remove.run([rows[rows.length - 1]!.at]);
      db.exec('COMMIT');
      moved += rows.length;
      progress?.advance(moved);
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
}
