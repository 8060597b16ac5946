// The database schema, as a list of migrations applied in order. `PRAGMA user_version` records how
// many have run; each runs in the transaction that bumps it, so a crash leaves the schema at one
// version or the next. Never edit a released migration: add one.
//
// Records are kept whole as JSON (`record`) beside the columns that queries filter, sort and
// aggregate on, so a field added to a record later is kept without a migration. Observations,
// most of the rows, keep each field once since version 6 (observation-row.ts).
import { FileError } from '../../errors.js';
import type { Database } from './sqlite.js';
import { compactObservations, moveOldObservations, OLD_OBSERVATIONS_TABLE } from './compact-observations.js';
import type { MigrationProgress } from './migration-progress.js';
import { xxHash32 } from './xxhash32.js';

/** SQL to run, or a step that needs code (it runs in the migration's transaction too). */
type Migration = string | ((db: Database) => void);

export const MIGRATIONS: readonly Migration[] = [
  // 1: the project, its keys, prompt versions and model definitions.
  `
  CREATE TABLE project (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    public_key TEXT NOT NULL UNIQUE,
    secret_key TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE prompts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    version INTEGER NOT NULL,
    updated_at TEXT NOT NULL,
    record TEXT NOT NULL,
    UNIQUE (name, version)
  );
  -- Each label on at most one version of a prompt: the database refuses a second holder.
  CREATE TABLE prompt_labels (
    name TEXT NOT NULL,
    label TEXT NOT NULL,
    prompt_id TEXT NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
    PRIMARY KEY (name, label)
  ) WITHOUT ROWID;
  CREATE INDEX prompt_labels_by_prompt ON prompt_labels (prompt_id);
  CREATE TABLE prompt_tags (
    prompt_id TEXT NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
    tag TEXT NOT NULL,
    PRIMARY KEY (prompt_id, tag)
  ) WITHOUT ROWID;
  CREATE INDEX prompt_tags_by_tag ON prompt_tags (tag);
  CREATE TABLE prompt_dependencies (
    id TEXT PRIMARY KEY,
    parent_id TEXT NOT NULL REFERENCES prompts (id) ON DELETE CASCADE,
    child_name TEXT NOT NULL,
    record TEXT NOT NULL
  );
  CREATE INDEX prompt_dependencies_by_parent ON prompt_dependencies (parent_id);
  CREATE INDEX prompt_dependencies_by_child ON prompt_dependencies (child_name);
  CREATE TABLE models (
    id TEXT PRIMARY KEY,
    model_name TEXT NOT NULL UNIQUE,
    record TEXT NOT NULL
  );
  `,
  // 2: recorded traffic: traces, observations, scores, and the ids of ingested events.
  `
  CREATE TABLE traces (
    id TEXT PRIMARY KEY,
    timestamp TEXT NOT NULL,
    name TEXT,
    user_id TEXT,
    session_id TEXT,
    release TEXT,
    version TEXT,
    environment TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    record TEXT NOT NULL
  );
  CREATE INDEX traces_by_time ON traces (timestamp DESC, id DESC);
  CREATE INDEX traces_by_user ON traces (user_id, timestamp DESC);
  CREATE INDEX traces_by_session ON traces (session_id, timestamp DESC);
  CREATE INDEX traces_by_name ON traces (name, timestamp DESC);
  CREATE TABLE observations (
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
    -- Derived at write time for metrics, as the service's query layer defines them: tokens and
    -- costs of every usage/cost key containing "input" or "output", the "total" key, latency.
    input_tokens REAL NOT NULL DEFAULT 0,
    output_tokens REAL NOT NULL DEFAULT 0,
    total_tokens REAL NOT NULL DEFAULT 0,
    input_cost REAL NOT NULL DEFAULT 0,
    output_cost REAL NOT NULL DEFAULT 0,
    total_cost REAL,
    latency_ms REAL,
    time_to_first_token_ms REAL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    record TEXT NOT NULL
  );
  CREATE INDEX observations_by_trace ON observations (trace_id, start_time);
  CREATE INDEX observations_by_time ON observations (start_time DESC, ifnull(trace_id, '') DESC, id DESC);
  CREATE INDEX observations_by_name ON observations (name, start_time DESC);
  CREATE TABLE scores (
    id TEXT PRIMARY KEY,
    timestamp TEXT NOT NULL,
    name TEXT NOT NULL,
    trace_id TEXT,
    observation_id TEXT,
    session_id TEXT,
    environment TEXT NOT NULL,
    record TEXT NOT NULL
  );
  CREATE INDEX scores_by_time ON scores (timestamp DESC, id DESC);
  CREATE INDEX scores_by_trace ON scores (trace_id);
  CREATE INDEX scores_by_observation ON scores (observation_id);
  CREATE TABLE ingested_events (
    id TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 3: the ingestion events each trace, observation and score was built from (JSON, without the
  // input and output they carried), so that an event arriving late is merged in its time order
  // with all the others, as the service re-merges every event of an id. Last in the row, so reading
  // the record never reads them. NULL for records stored before.
  `
  ALTER TABLE traces ADD COLUMN events TEXT;
  ALTER TABLE observations ADD COLUMN events TEXT;
  ALTER TABLE scores ADD COLUMN events TEXT;
  `,
  // 4: observations whose start times tie are ordered by xxHash32 of their trace id, then id
  // (descending), as the service orders its v2 list and cursor: the hash is kept in a column
  // (of '' for observations without a trace), and the list's index sorts by it.
  (db) => {
    db.exec(`
      ALTER TABLE observations ADD COLUMN trace_hash INTEGER NOT NULL DEFAULT ${xxHash32('')};
      DROP INDEX observations_by_time;
    `);
    const update = db.prepare('UPDATE observations SET trace_hash = ? WHERE rowid = ?');
    const traces = db.prepare('SELECT rowid, trace_id FROM observations WHERE trace_id IS NOT NULL').raw().iterate() as Iterable<[number, string]>;
    const hashes: Array<[number, number]> = [];
    for (const [rowid, traceId] of traces) hashes.push([xxHash32(traceId), rowid]);
    for (const pair of hashes) update.run(pair);
    db.exec('CREATE INDEX observations_by_time ON observations (start_time DESC, trace_hash DESC, id DESC)');
  },
  // 5: the organization's key (the blob-storage integration routes take only that one) and the
  // project's blob-storage integration: its settings and state as one JSON record, the store's
  // secret apart so no answer can carry it.
  `
  CREATE TABLE organization_keys (
    id TEXT PRIMARY KEY,
    public_key TEXT NOT NULL UNIQUE,
    secret_key TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE blob_storage_integrations (
    project_id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    secret_access_key TEXT
  );
  `,
  // 6: observations in a compact row (observation-row.ts); the rows move over after the
  // migrations (moveOldObservations).
  compactObservations,
  // 7: when each model was last used, for the model definitions' "Last used": the start time of
  // its latest generation, kept at ingestion (ModelStore.noteUse) instead of a scan of every
  // observation on each read. Filled here from the observations, those a store migrating from
  // before 6 still holds in the old table included (they move over after the migrations).
  (db) => {
    db.exec('CREATE TABLE model_use (model_id TEXT PRIMARY KEY, last_used TEXT NOT NULL) WITHOUT ROWID');
    const tables = ['observations', ...(db.prepare(`SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = '${OLD_OBSERVATIONS_TABLE}'`).raw().get() ? [OLD_OBSERVATIONS_TABLE] : [])];
    const generations = tables.map((table) => `SELECT internal_model_id, start_time FROM ${table} WHERE type = 'GENERATION' AND internal_model_id IS NOT NULL`).join(' UNION ALL ');
    db.exec(`INSERT INTO model_use (model_id, last_used) SELECT internal_model_id, max(start_time) FROM (${generations}) GROUP BY internal_model_id`);
  },
  // 8: input, output and metadata of observations written from now on as JSON text in columns of
  // their own (observation-row.ts); rows written before keep them in `data`.
  `
  ALTER TABLE observations ADD COLUMN input_json TEXT;
  ALTER TABLE observations ADD COLUMN output_json TEXT;
  ALTER TABLE observations ADD COLUMN metadata_json TEXT;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version of an open database (0 for a new one). */
export function schemaVersion(db: Database): number {
  // Read as a raw row: the binding ignores better-sqlite3's `{ simple: true }` pragma option.
  const row = db.prepare('PRAGMA user_version').raw().get() as unknown[] | undefined;
  return Number(row?.[0] ?? 0);
}

/**
 * Brings the schema up to date; returns the version it found. A database written by a newer
 * llmobs is refused rather than guessed at. `progress` hears of a migration that rewrites rows.
 */
export function migrate(db: Database, where: string, upTo = SCHEMA_VERSION, progress?: MigrationProgress): number {
  const found = schemaVersion(db);
  if (found > SCHEMA_VERSION) {
    throw new FileError(`${where} has schema version ${found}; this llmobs knows versions up to ${SCHEMA_VERSION}`, {
      hint: 'Upgrade llmobs, or point --data-dir at another directory.',
    });
  }
  for (let version = found; version < upTo; version++) {
    db.exec('BEGIN IMMEDIATE');
    try {
      const migration = MIGRATIONS[version]!;
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.pragma(`user_version = ${version + 1}`);
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
  // Rows still in the table schema 6 set aside: a store being migrated, or stopped while it was.
  if (upTo >= 6) moveOldObservations(db, progress);
  return found;
}
