#!/usr/bin/env node
// SQLite's part of ingestion, apart from everything above it: the rows each server writes for the
// requests of ingest.mjs (a trace and 100 generations with usage provided), made once by each
// server's own code, then inserted again under new random ids into a fresh copy of each schema,
// 100 rows a transaction (one request's), in WAL with synchronous=NORMAL as both servers run.
// CPU time per row of the inserts and commits alone: no HTTP, no parsing, no JSON, no pipeline.
//   node bench/sql-rows.mjs [--requests 400] [--rounds 3]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { batchBody } from './ingest-body.mjs';
import { eventWriter, openFloor } from './floor-server.mjs';
import { loadAverage } from './servers.mjs';

const { values: args } = parseArgs({ options: { requests: { type: 'string', default: '400' }, rounds: { type: 'string', default: '3' } } });
const requests = Number(args.requests);
const root = join(import.meta.dirname, '..');
const { Store } = await import(join(root, 'dist', 'store.mjs'));
const { ingestEvents } = await import(join(root, 'dist', 'ingest-routes.mjs'));
const Database = createRequire(import.meta.url)('libsql');
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-sql-'));

/** The rows of one table, as stored, with the index of its id column. */
function rowsOf(file, table) {
  const db = new Database(file);
  const columns = db.prepare(`PRAGMA table_info(${table})`).all().map((c) => c.name);
  const rows = db.prepare(`SELECT ${columns.join(', ')} FROM ${table}`).raw().all();
  db.close();
  return { columns, rows, id: columns.indexOf('id') };
}

/** The schema of a table and its indexes, as the server made them. */
function schemaOf(file, table) {
  const db = new Database(file);
  const sql = db.prepare('SELECT sql FROM sqlite_schema WHERE tbl_name = ? AND sql IS NOT NULL').pluck().all(table);
  db.close();
  return sql.join(';\n');
}

// llmobs server's rows, made by its store and ingestion pipeline (what the batch route runs).
const llmobsDir = join(work, 'llmobs');
{
  const { store } = Store.open({ dataDir: llmobsDir, now: () => new Date() });
  const auth = { projectId: store.project.id, accessLevel: 'project' };
  for (let i = 0; i < 20; i++) store.write((tx) => ingestEvents(JSON.parse(batchBody('provided')).batch, tx, auth, new Date()));
  store.close();
}
// The floor's rows, made by its own writer.
const floorDir = join(work, 'floor');
{
  const db = openFloor(floorDir);
  const write = eventWriter(db);
  for (let i = 0; i < 20; i++) for (const event of JSON.parse(batchBody('provided')).batch) write(event);
  db.close();
}

const tables = [
  { label: 'llmobs server', file: join(llmobsDir, 'llmobs.db'), table: 'observations', conflict: 'DO UPDATE SET' },
  { label: 'floor', file: join(floorDir, 'floor.db'), table: 'events', conflict: 'DO NOTHING' },
];

function insertRows({ file, table, conflict }, round) {
  const { columns, rows, id } = rowsOf(file, table);
  const dir = mkdtempSync(join(work, `round-${round}-`));
  const db = new Database(join(dir, 'x.db'));
  db.exec('PRAGMA page_size = 4096; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 10000; PRAGMA cache_size = -32768');
  db.exec(schemaOf(file, table));
  // As each server writes them: llmobs server an upsert of every column, the floor an insert that skips a repeat.
  const update = columns.filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`).join(', ');
  const insert = db.prepare(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (id) ${conflict === 'DO NOTHING' ? 'DO NOTHING' : `DO UPDATE SET ${update}`}`);
  const requestRows = Array.from({ length: requests }, (_, r) => Array.from({ length: 100 }, (_, i) => rows[(r * 100 + i) % rows.length].with(id, randomUUID())));
  const before = process.cpuUsage();
  for (const batch of requestRows) {
    db.exec('BEGIN IMMEDIATE');
    for (const row of batch) insert.run(row);
    db.exec('COMMIT');
  }
  const cpu = process.cpuUsage(before);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return (cpu.user + cpu.system) / (requests * 100);
}

console.log(`${requests} transactions of 100 rows per round, ${args.rounds} rounds; Node ${process.version}; load average ${loadAverage()}`);
const results = new Map(tables.map((t) => [t, []]));
for (let round = 0; round < Number(args.rounds); round++) for (const t of tables) results.get(t).push(insertRows(t, round));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
for (const t of tables) {
  const { rows, columns } = rowsOf(t.file, t.table);
  const bytes = rows.reduce((sum, row) => sum + row.reduce((n, v) => n + (typeof v === 'string' ? Buffer.byteLength(v) : 8), 0), 0) / rows.length;
  console.log(`${t.label.padEnd(14)} ${median(results.get(t)).toFixed(1).padStart(5)} µs of CPU per row (median of rounds), ${columns.length} columns, ${Math.round(bytes)} bytes of values a row`);
}
console.log(`load average after: ${loadAverage()}`);
rmSync(work, { recursive: true, force: true });
