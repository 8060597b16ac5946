#!/usr/bin/env node
// The SQLite bindings the server could use, on the server's own workload: batches of 100
// observation-sized rows in one transaction, single-row transactions (a prompt create), and pages
// of 50 by the v2 observations sort key. WAL with synchronous=FULL, as the server runs.
//
//   node bench/sqlite-bindings.mjs [--module <path or name>]...    (default: libsql)
//
// better-sqlite3 is not a dependency; to compare, install it elsewhere and pass its path:
//   mkdir /tmp/b && cd /tmp/b && npm init -y && time npm install better-sqlite3 libsql
//   node bench/sqlite-bindings.mjs --module /tmp/b/node_modules/libsql --module /tmp/b/node_modules/better-sqlite3
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values: args } = parseArgs({ options: { module: { type: 'string', multiple: true, default: ['libsql'] } } });
const require = createRequire(import.meta.url);
const body = JSON.stringify({ input: [{ role: 'user', content: 'x'.repeat(300) }], output: 'y'.repeat(200), usage: { input: 10, output: 5 } });

console.log('binding            load     200k rows (2,000 tx of 100)   300 single-row tx   2,000 pages of 50');
for (const name of args.module) {
  const started = performance.now();
  const Database = require(name);
  const load = performance.now() - started;
  const path = join(tmpdir(), `llmobs-binding-${process.pid}.db`);
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const db = new Database(path);
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL');
  db.exec('CREATE TABLE obs (id TEXT PRIMARY KEY, trace_id TEXT, start_time TEXT, record TEXT)');
  db.exec('CREATE INDEX obs_time ON obs (start_time DESC, trace_id DESC, id DESC)');
  const insert = db.prepare('INSERT INTO obs VALUES (?, ?, ?, ?)');
  const time = (fn) => {
    const t = performance.now();
    fn();
    return performance.now() - t;
  };
  const batches = time(() => {
    for (let k = 0; k < 2000; k++) {
      db.exec('BEGIN IMMEDIATE');
      for (let i = 0; i < 100; i++) insert.run(`o${k}-${i}`, `t${k}`, new Date(1e12 + k * 1000 + i).toISOString(), body);
      db.exec('COMMIT');
    }
  });
  const singles = time(() => {
    for (let i = 0; i < 300; i++) {
      db.exec('BEGIN IMMEDIATE');
      insert.run(`s${i}`, 't', new Date(2e12).toISOString(), body);
      db.exec('COMMIT');
    }
  });
  const page = db.prepare('SELECT * FROM obs WHERE start_time < ? ORDER BY start_time DESC, trace_id DESC, id DESC LIMIT 50');
  const pages = time(() => {
    for (let i = 0; i < 2000; i++) page.all(new Date(1e12 + i * 900).toISOString());
  });
  db.close();
  for (const suffix of ['', '-wal', '-shm']) rmSync(path + suffix, { force: true });
  const label = name.split('/').pop();
  console.log(`${label.padEnd(16)} ${load.toFixed(0).padStart(4)} ms   ${batches.toFixed(0).padStart(8)} ms                 ${singles.toFixed(0).padStart(6)} ms          ${pages.toFixed(0).padStart(6)} ms`);
}
