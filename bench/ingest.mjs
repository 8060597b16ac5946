#!/usr/bin/env node
// Ingestion throughput of `llmobs server` against the floor (bench/floor-server.mjs, a bare
// node:http server that stores each event as one SQLite row): POST /api/public/ingestion with
// batches of 100 generations (plus their trace), at concurrency 1 and 20, over loopback HTTP with
// keep-alive; then the bytes each keeps on disk per generation.
//   node bench/ingest.mjs [--requests 200] [--rounds 3] [--ephemeral]
//                         [--only provided,tokenize,otlp-provided,otlp-tokenize] [--compare DIST[=LABEL]]
//   node bench/ingest.mjs --only disk [--generations 1000000]
// Two payloads: generations with usage provided (matched and priced, nothing to count) and
// generations without usage (their chat input and text output are tokenized first). Both servers
// get the same bodies, one after the other within each round; each row is the median over the
// rounds of the rate and of the round's own ratio to the floor (paired, so that the load of the
// moment hits both alike). Server CPU: generations per CPU-second of the server process, steadier
// than the wall rate on a busy machine. The floor neither validates, merges, matches, tokenizes
// nor prices: the same for both payloads. `otlp-provided` and `otlp-tokenize` send the same data
// as OTLP/JSON exports (a root span and 100 generation spans) to POST /api/public/otel/v1/traces,
// llmobs server in events_only (the way in of traces there; the batch payloads go to it in dual);
// the floor stores each span as one row. `--compare DIST` adds another build's server (its dist/,
// inside a checkout so that it finds node_modules) in the same rounds.
// `--only disk` sends N generations (provided usage, 4 requests at a time) to both servers on
// disk, stops them (checkpointing the WAL) and compares their data directories.
// BENCH_CPU_PROF=DIR writes a CPU profile of llmobs server.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { batchBody, otlpBody } from './ingest-body.mjs';
import { dirBytes, loadAverage, spawnFloor, spawnLlmobs } from './servers.mjs';

const root = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '3' },
    ephemeral: { type: 'boolean', default: false },
    only: { type: 'string', default: 'provided,tokenize,otlp-provided,otlp-tokenize' },
    compare: { type: 'string' },
    generations: { type: 'string', default: '1000000' },
  },
});
const requests = Number(args.requests);
const rounds = Number(args.rounds);
const only = args.only.split(',');
const [compareDir, compareLabel = 'compare'] = (args.compare ?? '').split('=');

const { processBatch } = await import(join(root, 'dist', 'ingest.mjs'));
const { engineCounter } = await import(join(root, 'dist', 'tokenizer.mjs'));
const { builtInDefinitions } = await import(join(root, 'dist', 'catalogue.mjs'));

const isOtlp = (kind) => kind.startsWith('otlp-');
const bodyOf = (kind) => (isOtlp(kind) ? otlpBody(kind.slice('otlp-'.length)) : batchBody(kind));

async function drive(server, bodies, concurrency, kind = 'provided') {
  const agent = new Agent({ connections: concurrency, pipelining: 1, keepAliveTimeout: 10_000 });
  const path = isOtlp(kind) ? '/api/public/otel/v1/traces' : '/api/public/ingestion';
  let next = 0;
  let failures = 0;
  const cpuBefore = (await server.stats()).cpu;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const response = await request(`${server.url}${path}`, { method: 'POST', dispatcher: agent, headers: { authorization: server.auth, 'content-type': 'application/json' }, body });
        const answer = await response.body.json();
        if (isOtlp(kind) ? response.statusCode !== 200 : response.statusCode !== 207 || answer.errors?.length || answer.successes?.length !== 101) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpu = (await server.stats()).cpu - cpuBefore;
  await agent.close();
  server.generations = (server.generations ?? 0) + bodies.length * 100;
  return { rate: (bodies.length * 100) / seconds, perCpu: (bodies.length * 100) / cpu, failures };
}

function inProcess(bodies, kind) {
  if (isOtlp(kind)) return undefined;
  const definitions = [...builtInDefinitions()];
  const none = () => new Map();
  const lookups = { storedTraces: none, storedObservations: none, storedScores: none, seenEvents: () => new Set(), prompt: () => undefined, definitions: () => definitions };
  const started = performance.now();
  for (const body of bodies) processBatch(JSON.parse(body).batch, { projectId: 'p', accessLevel: 'project' }, lookups, { now: new Date(), count: engineCounter });
  return (bodies.length * 100) / ((performance.now() - started) / 1000);
}

const fmt = (n) => Math.round(n).toLocaleString('en-US');
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-ingest-'));
const dataDir = (name) => (args.ephemeral && !name.startsWith('floor') ? undefined : join(work, name));

async function throughput() {
  console.log(`${requests} requests of 100 generations per row, ${rounds} rounds; llmobs data ${args.ephemeral ? 'in memory' : 'on disk (WAL)'}; Node ${process.version}; load average ${loadAverage()}`);
  console.log('payload         concurrency  server          gen/s (median)   gen per CPU-s   ratio to the floor (paired median)   pipeline in-process');
  // The batch route in dual mode (events_only refuses generations there), OTLP in events_only.
  for (const mode of ['dual', 'events_only']) {
    const kinds = only.filter((kind) => isOtlp(kind) === (mode === 'events_only'));
    if (kinds.length > 0) await throughputIn(mode, kinds);
  }
  console.log(`load average after: ${loadAverage()}`);
}

async function throughputIn(writeMode, kinds) {
  const servers = [{ label: 'llmobs server', ...(await spawnLlmobs({ dataDir: dataDir(`llmobs-${writeMode}`), writeMode })) }, { label: 'floor', floor: true, ...(await spawnFloor({ dataDir: dataDir(`floor-${writeMode}`) })) }];
  if (compareDir) servers.push({ label: compareLabel, ...(await spawnLlmobs({ dataDir: dataDir(`compare-${writeMode}`), dist: resolve(compareDir), writeMode })) });
  try {
    for (const kind of kinds) {
      for (const server of servers) await drive(server, Array.from({ length: 20 }, () => bodyOf(kind)), 4, kind); // warm-up
      for (const concurrency of [1, 20]) {
        const results = new Map(servers.map((s) => [s, []]));
        for (let round = 0; round < rounds; round++) {
          const bodies = Array.from({ length: requests }, () => bodyOf(kind));
          for (const server of servers) results.get(server).push(await drive(server, bodies, concurrency, kind));
        }
        const floor = results.get(servers[1]);
        const inProc = concurrency === 1 ? inProcess(Array.from({ length: requests }, () => bodyOf(kind)), kind) : undefined;
        const pipeline = inProc === undefined ? '' : fmt(inProc);
        for (const server of servers) {
          const mine = results.get(server);
          const failures = mine.reduce((n, r) => n + r.failures, 0);
          const ratio = server.floor ? '' : `${median(mine.map((r, i) => r.rate / floor[i].rate)).toFixed(2)}× (CPU ${median(mine.map((r, i) => r.perCpu / floor[i].perCpu)).toFixed(2)}×)`;
          console.log(
            `${kind.padEnd(15)} ${String(concurrency).padStart(11)}  ${server.label.padEnd(14)}  ${fmt(median(mine.map((r) => r.rate))).padStart(14)}   ${fmt(median(mine.map((r) => r.perCpu))).padStart(13)}   ${ratio.padEnd(36)} ${server === servers[0] ? pipeline : ''}${failures ? ` (${failures} failed)` : ''}`,
          );
        }
      }
    }
  } finally {
    for (const server of servers) await server.stop();
  }
  for (const server of servers) {
    const dir = server.floor ? dataDir(`floor-${writeMode}`) : dataDir(`${server.label === 'llmobs server' ? 'llmobs' : 'compare'}-${writeMode}`);
    if (!dir) continue;
    const bytes = dirBytes(dir);
    console.log(`${server.label} (${writeMode}): data directory ${(bytes / 1e6).toFixed(1)} MB after ${fmt(server.generations)} generations (${Math.round(bytes / server.generations)} bytes each)`);
  }
}

async function disk() {
  const total = Number(args.generations);
  const perRequest = 100;
  console.log(`${fmt(total)} generations (provided usage) to each server, 4 requests at a time; load average ${loadAverage()}`);
  const results = [];
  for (const [label, spawnIt, dir] of [
    ['llmobs server', spawnLlmobs, join(work, 'llmobs')],
    ['floor', spawnFloor, join(work, 'floor')],
  ]) {
    const server = await spawnIt({ dataDir: dir });
    const started = performance.now();
    for (let sent = 0; sent < total; sent += perRequest * 100) {
      const bodies = Array.from({ length: Math.min(100, Math.ceil((total - sent) / perRequest)) }, () => batchBody('provided'));
      await drive(server, bodies, 4);
    }
    const seconds = (performance.now() - started) / 1000;
    const generations = server.generations;
    await server.stop();
    const bytes = dirBytes(dir);
    results.push({ label, bytes, generations, seconds });
    console.log(`${label.padEnd(14)} ${fmt(generations)} generations in ${seconds.toFixed(0)} s; data directory ${(bytes / 1e6).toFixed(1)} MB, ${Math.round(bytes / generations)} bytes per generation (${((bytes / generations) * 1e6 / 1e9).toFixed(2)} GB per million)`);
  }
  console.log(`ratio: ${(results[0].bytes / results[0].generations / (results[1].bytes / results[1].generations)).toFixed(2)}× the floor's bytes per generation; load average ${loadAverage()}`);
}

try {
  if (only.includes('disk')) await disk();
  else await throughput();
} finally {
  rmSync(work, { recursive: true, force: true });
}
