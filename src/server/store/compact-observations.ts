// Migration 5: observations in a compact row (observation-row.ts). Until version 4 a row held
// the whole record as JSON beside columns that repeated a score of its fields; every row is
// rewritten, in rowid order, into a table of the new layout, which then takes the old one's name.
// It runs in the migration's transaction: a crash or a full disk leaves the store at version 4,
// as it was.
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
import type { ObservationRecord } from '../records.js';
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

const INDEXES = `
  CREATE INDEX observations_by_trace ON observations (trace_id, start_time);
  CREATE INDEX observations_by_time ON observations (start_time DESC, trace_hash DESC, id DESC);`;

/** Rows read and written per step: memory stays bounded however many there are. */
const STEP = 1000;

export function compactObservations(db: Database): void {
  const projectId = (db.prepare('SELECT id FROM project LIMIT 1').raw().get() as [string] | undefined)?.[0];
  db.exec(OBSERVATIONS_TABLE('observations_compact'));
  const read = db.prepare('SELECT rowid AS at, * FROM observations WHERE rowid > ? ORDER BY rowid LIMIT ?');
  const insert = db.prepare(`INSERT INTO observations_compact (${OBSERVATION_COLUMNS.join(', ')}, events) VALUES (${OBSERVATION_COLUMNS.map(() => '?').join(', ')}, ?)`);
  let after = Number.MIN_SAFE_INTEGER;
  for (;;) {
    const rows = read.all([after, STEP]) as Array<Record<string, unknown> & { at: number; record: string; events: string | null }>;
    for (const row of rows) {
      const record = JSON.parse(row.record) as ObservationRecord;
      insert.run([...observationParams(record, projectId, row), row.events]);
    }
    if (rows.length < STEP) break;
    after = rows[rows.length - 1]!.at;
  }
  db.exec(`DROP TABLE observations; ALTER TABLE observations_compact RENAME TO observations; ${INDEXES}`);
}
