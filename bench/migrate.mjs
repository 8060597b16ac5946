#!/usr/bin/env node
// The first start after an upgrade that rewrites the store: a data directory seeded by an older
// build (`--from`: its dist/, inside a checkout so that it finds node_modules) with N observations
// through its store and ingestion pipeline (what POST /api/public/ingestion runs), then opened by
// this build's store, which migrates it. Prints the time and peak memory of the open, and the
// data directory's size before and after (each checkpointed: the WAL folded into the database).
//   node bench/migrate.mjs --from /path/to/old/dist [--observations 1000000]
// For instance `git worktree add --detach /tmp/v4 <commit> && ln -s "$PWD/node_modules"
// /tmp/v4/node_modules && (cd /tmp/v4 && node scripts/build.mjs)`, then `--from /tmp/v4/dist`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dirBytes, loadAverage } from './servers.mjs';

const root = join(import.meta.dirname, '..');
const { values: args } = parseArgs({ options: { from: { type: 'string' }, observations: { type: 'string', default: '1000000' } } });
if (!args.from) {
  console.error('usage: node bench/migrate.mjs --from OLD_DIST [--observations N]');
  process.exit(2);
}
const total = Number(args.observations);
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-migrate-'));
const dataDir = join(work, 'data');

// Each step in its own process: the old build's modules and the new one's never meet.
const seed = `
  const { Store } = await import(${JSON.stringify(join(resolve(args.from), 'store.mjs'))});
  const { ingestEvents } = await import(${JSON.stringify(join(resolve(args.from), 'ingest-routes.mjs'))});
  const { seededBatch } = await import(${JSON.stringify(join(root, 'bench', 'generations.mjs'))});
  const { store } = Store.open({ dataDir: ${JSON.stringify(dataDir)}, now: () => new Date() });
  const auth = { projectId: store.project.id, accessLevel: 'project' };
  for (let b = 0; b < ${total / 100}; b++) store.write((tx) => ingestEvents(seededBatch(b, ${total}), tx, auth, new Date()));
  store.close();`;
const open = `
  const { Store } = await import(${JSON.stringify(join(root, 'dist', 'store.mjs'))});
  const started = performance.now();
  const { store } = Store.open({ dataDir: ${JSON.stringify(dataDir)}, now: () => new Date() });
  const seconds = (performance.now() - started) / 1000;
  const count = store.read((tx) => tx.observations.count());
  store.close();
  console.log(JSON.stringify({ seconds, count, maxRss: process.resourceUsage().maxRSS * 1024 }));`;

try {
  console.log(`${total.toLocaleString('en-US')} observations seeded by ${args.from}; load average ${loadAverage()}`);
  const seedStarted = performance.now();
  execFileSync(process.execPath, ['--input-type=module', '-e', seed], { stdio: 'inherit' });
  const before = dirBytes(dataDir);
  console.log(`seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s: data directory ${(before / 1e6).toFixed(0)} MB`);
  const result = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', open], { encoding: 'utf8' }));
  const after = dirBytes(dataDir);
  console.log(
    `opened by this build (migrated) in ${result.seconds.toFixed(1)} s, peak RSS ${(result.maxRss / 1e6).toFixed(0)} MB, ${result.count.toLocaleString('en-US')} observations; data directory ${(after / 1e6).toFixed(0)} MB (${((after / before) * 100).toFixed(0)}% of before); load average ${loadAverage()}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
