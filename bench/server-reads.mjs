#!/usr/bin/env node
// Reads of `llmobs server` at scale, each against the floor (bench/floor-server.mjs) holding the
// same data, in the same run (see bench/README.md):
//   metrics  GET /api/public/v2/metrics: cost, input tokens and count by model over every observation
//   pages    v2 observation pages of 1,000 (every field group) walked by cursor with fetch on both
//            servers alternately, and
//            `llmobs observations export` of everything, from the server
//   trace    three GET /api/public/traces/{id} at once of a trace with 100,000 observations, while
//            a health check runs every 10 ms and ingestion requests follow one another
//   sums     the v3 traces list with its metrics (fields=core,metrics), which sums a trace of
//            100,000 observations, that trace with its metrics alone, and the list with every
//            field group (the trace's ids too), each three times in turn while a health check
//            runs every 10 ms (llmobs server only: the floor has no list)
//   inflate  a gzip OTLP body of about 65 KB that inflates to 64 MB, three times, while health
//            checks run
//   large    pages of 1,000 observations with 100 KB inputs, with io and without, and a v1 page
//            of 100, three times each while health checks run
//   delete   DELETE of a trace of 100,000 observations while health checks run
//   filters  the observation lists with filters that match few rows and pages far down, over
//            1,000,000 observations
//   spans    one trace of 20,000 spans sent as OTLP exports of 500, every span with the user
//            and session (as an SDK that propagates them sends), while health checks run
//   definitions  10,000 custom model definitions: ingestion of a generation with a new model
//            name after they are written, after a restart, and after one more is written
//   scores   the v3 scores list with filters that match few scores, over 1,000,000 scores
//   requests ingestion requests of growing size (batch events, OTLP/JSON and OTLP/protobuf
//            spans), each one's time and the event loop's longest hold
//   burst    72 ingestion requests sent at once, 12 of them large, while health checks run
//   updates  one generation and one trace updated 2,000 times, each update a new metadata key
//
//   node bench/server-reads.mjs --only metrics [--observations 100000,1000000] [--runs 7]
//   node bench/server-reads.mjs --only pages [--observations 1000000] [--exports 1] [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only trace [--trace-observations 100000]
//   node bench/server-reads.mjs --only sums [--trace-observations 100000] [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only inflate
//   node bench/server-reads.mjs --only large [--large-observations 1000] [--input-bytes 100000] [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only delete [--trace-observations 100000] [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only filters [--observations 1000000] [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only spans [--spans 20000] [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only definitions [--definitions 10000] [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only scores [--scores 1000000] [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only requests [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only burst [--compare DIST[=LABEL]]
//   node bench/server-reads.mjs --only updates [--updates 2000] [--compare DIST[=LABEL]]
//
// Both stores are seeded in child processes, with the same events (bench/generations.mjs): llmobs
// server's through its store and ingestion pipeline (dist/store.mjs and dist/ingest-routes.mjs:
// what POST /api/public/ingestion runs, without HTTP), the floor's through its own insert. Each
// server then runs in its own process; its event loop's longest delay is read from it (Node's
// monitorEventLoopDelay): how long it could not answer anything else. `--compare DIST` (sums:
// the same requests to another build, its store seeded by its own pipeline, and the two builds'
// sums compared; pages:
// another build's dist/ (inside a checkout, so that it finds node_modules), its store seeded by its
// own pipeline, walked in the same rounds and exported by its own CLI (`--exports` rounds, in
// turn); its CLI then exports from this build's server too, and the two files are compared byte
// for byte. BENCH_CLI_PROF=DIR writes a CPU profile of each export's CLI process.
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { Agent, request } from 'undici';
import { BASE, DAYS } from './generations.mjs';
import { dirBytes, loadAverage, percentile, spawnFloor, spawnLlmobs } from './servers.mjs';

const root = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    only: { type: 'string', default: 'metrics' },
    observations: { type: 'string' },
    'trace-observations': { type: 'string', default: '100000' },
    'large-observations': { type: 'string', default: '1000' },
    'input-bytes': { type: 'string', default: '100000' },
    runs: { type: 'string', default: '7' },
    compare: { type: 'string' },
    exports: { type: 'string', default: '1' },
    spans: { type: 'string', default: '20000' },
    definitions: { type: 'string', default: '10000' },
    scores: { type: 'string', default: '1000000' },
    updates: { type: 'string', default: '2000' },
  },
});
const [compareDist, compareLabel = 'compare'] = (args.compare ?? '').split('=');
/** This build and, with --compare, the other one: a label and a dist/ each. */
const BUILDS = [['llmobs server', join(root, 'dist')], ...(compareDist ? [[compareLabel, resolve(compareDist)]] : [])];
const runs = Number(args.runs);
const exportRounds = Number(args.exports);
const fmt = (n) => Math.round(n).toLocaleString('en-US');
const ms = (n) => `${n.toFixed(1)} ms`;
const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const median = (values) => percentile(values, 50);
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-reads-'));
const sleep = (n) => new Promise((resolve) => setTimeout(resolve, n));

/** Seeds the stores at once (a child process each; `dirs.compare` by the compared build); resolves with their seconds. */
function seed(dirs, total, options = {}) {
  const generations = JSON.stringify(join(root, 'bench', 'generations.mjs'));
  const batches = Math.ceil(total / 100);
  const llmobs = (dist, dir) => `
      const { Store } = await import(${JSON.stringify(join(dist, 'store.mjs'))});
      const { ingestEvents } = await import(${JSON.stringify(join(dist, 'ingest-routes.mjs'))});
      const { seededBatch } = await import(${generations});
      const { store } = Store.open({ dataDir: ${JSON.stringify(dir)}, now: () => new Date() });
      const auth = { projectId: store.project.id, accessLevel: 'project' };
      for (let b = 0; b < ${batches}; b++) {
        const events = seededBatch(b, ${total}, ${JSON.stringify(options)});
        await store.write((tx) => ingestEvents(events, tx, auth, new Date()));
      }
      store.close();`;
  const scripts = {
    llmobs: llmobs(join(root, 'dist'), dirs.llmobs),
    ...(dirs.compare ? { compare: llmobs(resolve(compareDist), dirs.compare) } : {}),
    ...(dirs.floor ? { floor: `
      const { openFloor, eventWriter } = await import(${JSON.stringify(join(root, 'bench', 'floor-server.mjs'))});
      const { seededBatch } = await import(${generations});
      const db = openFloor(${JSON.stringify(dirs.floor)});
      const write = eventWriter(db);
      for (let b = 0; b < ${batches}; b++) {
        db.exec('BEGIN');
        for (const event of seededBatch(b, ${total}, ${JSON.stringify(options)})) write(event);
        db.exec('COMMIT');
      }
      db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      db.close();` } : {}),
  };
  return Promise.all(
    Object.entries(scripts).map(
      ([name, script]) =>
        new Promise((resolve, reject) => {
          const started = performance.now();
          const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
          child.on('exit', (code) => (code === 0 ? resolve([name, (performance.now() - started) / 1000]) : reject(new Error(`seeding ${name} failed (${code})`))));
        }),
    ),
  ).then(Object.fromEntries);
}

async function seededServers(total, options, compare = false, withFloor = true) {
  const dirs = { llmobs: join(work, `llmobs-${total}`), ...(withFloor ? { floor: join(work, `floor-${total}`) } : {}), ...(compare ? { compare: join(work, `compare-${total}`) } : {}) };
  const seconds = await seed(dirs, total, options);
  console.log(
    `seeded ${fmt(total)} observations: llmobs ${seconds.llmobs.toFixed(0)} s (${mb(dirBytes(dirs.llmobs))})${compare ? `, ${compareLabel} ${seconds.compare.toFixed(0)} s (${mb(dirBytes(dirs.compare))})` : ''}${withFloor ? `, floor ${seconds.floor.toFixed(0)} s (${mb(dirBytes(dirs.floor))})` : ''}; load average ${loadAverage()}`,
  );
  return {
    llmobs: await spawnLlmobs({ dataDir: dirs.llmobs }),
    ...(withFloor ? { floor: await spawnFloor({ dataDir: dirs.floor }) } : {}),
    ...(compare ? { compare: await spawnLlmobs({ dataDir: dirs.compare, dist: resolve(compareDist) }) } : {}),
  };
}

const agent = new Agent({ connections: 16, keepAliveTimeout: 10_000 });
async function get(server, path) {
  const started = performance.now();
  const response = await request(server.url + path, { dispatcher: agent, headers: { authorization: server.auth } });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode} ${text.slice(0, 300)}`);
  return { ms: performance.now() - started, text };
}

async function metrics() {
  const query = {
    view: 'observations',
    dimensions: [{ field: 'providedModelName' }],
    metrics: [
      { measure: 'totalCost', aggregation: 'sum' },
      { measure: 'inputTokens', aggregation: 'sum' },
      { measure: 'count', aggregation: 'count' },
    ],
    fromTimestamp: new Date(BASE - 86_400_000).toISOString(),
    toTimestamp: new Date(BASE + (DAYS + 1) * 86_400_000).toISOString(),
  };
  const path = `/api/public/v2/metrics?query=${encodeURIComponent(JSON.stringify(query))}`;
  console.log(`\nGET /api/public/v2/metrics, cost, input tokens and count by model over every observation; ${runs} runs each, alternating`);
  console.log('observations   llmobs server p50   floor p50   ratio (paired median)   llmobs event loop max   answers agree');
  for (const total of (args.observations ?? '100000,1000000').split(',').map(Number)) {
    const { llmobs, floor } = await seededServers(total);
    try {
      await get(llmobs, path);
      await get(floor, path);
      await llmobs.resetLoop();
      const ours = [];
      const theirs = [];
      let agree = true;
      for (let run = 0; run < runs; run++) {
        const a = await get(llmobs, path);
        const b = await get(floor, path);
        ours.push(a.ms);
        theirs.push(b.ms);
        const byModel = (text) => new Map(JSON.parse(text).data.map((row) => [row.providedModelName, row]));
        const x = byModel(a.text);
        const y = byModel(b.text);
        for (const [model, row] of y) {
          const mine = x.get(model);
          if (!mine || Number(mine.count_count) !== row.count_count || Number(mine.sum_inputTokens) !== row.sum_inputTokens || Math.abs(mine.sum_totalCost - row.sum_totalCost) > 1e-9 * row.sum_totalCost) agree = false;
        }
      }
      const loop = await llmobs.stats();
      console.log(
        `${fmt(total).padStart(12)}   ${ms(median(ours)).padStart(17)}   ${ms(median(theirs)).padStart(9)}   ${`${median(ours.map((t, i) => t / theirs[i])).toFixed(2)}×`.padStart(21)}   ${ms(loop.loopMaxMs).padStart(21)}   ${agree ? 'yes' : 'NO'}`,
      );
    } finally {
      await llmobs.stop();
      await floor.stop();
    }
  }
  console.log(`load average after: ${loadAverage()}`);
}

/**
 * Walks the v2 list by cursor on the servers at once, a page of 1,000 (every field group) from
 * one, then from the other, so that the load of the machine falls on both alike; resolves with
 * each one's observations a second (its own requests' time) and per CPU-second of the server.
 */
async function walkBoth(servers, expected) {
  const path = (cursor) => `/api/public/v2/observations?limit=1000&fields=core,basic,time,io,metadata,model,usage,prompt,metrics,trace_context${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
  const state = servers.map(() => ({ cursor: undefined, count: 0, ms: 0, done: false }));
  const before = await Promise.all(servers.map((server) => server.stats()));
  while (state.some((walker) => !walker.done)) {
    for (const [i, server] of servers.entries()) {
      const walker = state[i];
      if (walker.done) continue;
      const { text, ms: took } = await get(server, path(walker.cursor));
      const page = JSON.parse(text);
      walker.count += page.data.length;
      walker.ms += took;
      walker.cursor = page.meta.cursor;
      walker.done = !walker.cursor;
    }
  }
  const after = await Promise.all(servers.map((server) => server.stats()));
  return state.map((walker, i) => {
    if (walker.count !== expected) throw new Error(`walked ${walker.count} observations, expected ${expected}`);
    return { rate: expected / (walker.ms / 1000), perCpu: expected / (after[i].cpu - before[i].cpu), loopMaxMs: after[i].loopMaxMs, rss: after[i].rss };
  });
}

/**
 * `llmobs observations export` of everything from `server` by the CLI of `dist`, in a fresh
 * process: lines a second, lines per CPU-second of the CLI and per CPU-second of the server.
 */
async function exportRate(server, expected, dist = join(root, 'dist'), file = join(work, 'export.jsonl')) {
  const env = { ...process.env, LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.publicKey, LANGFUSE_SECRET_KEY: server.secretKey, HOME: work, LLMOBS_CONFIG_DIR: join(work, 'config') };
  const script = `
    const { run } = await import(${JSON.stringify(join(dist, 'cli.mjs'))});
    const started = performance.now();
    const cpu = process.cpuUsage();
    const code = await run(['observations', 'export', '--output', ${JSON.stringify(file)}, '--force']);
    const used = process.cpuUsage(cpu);
    process.stderr.write('\\n@@' + JSON.stringify({ code, ms: performance.now() - started, cpu: (used.user + used.system) / 1e6 }) + '\\n');`;
  const before = await server.stats();
  // BENCH_CLI_PROF=DIR: a CPU profile of the CLI's process, written to DIR.
  const profile = process.env.BENCH_CLI_PROF ? ['--cpu-prof', `--cpu-prof-dir=${resolve(process.env.BENCH_CLI_PROF)}`] : [];
  const child = spawnSync(process.execPath, [...profile, '--input-type=module', '-e', script], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const after = await server.stats();
  const report = JSON.parse(child.stderr.split('@@').at(-1));
  if (report.code !== 0) throw new Error(`export failed: ${child.stderr.slice(0, 2000)}`);
  const lines = statSync(file).size > 0 ? spawnSync('wc', ['-l', file], { encoding: 'utf8' }).stdout.trim().split(' ')[0] : '0';
  if (Number(lines) !== expected) throw new Error(`exported ${lines} lines, expected ${expected}`);
  return { rate: expected / (report.ms / 1000), perCpu: expected / report.cpu, serverPerCpu: expected / (after.cpu - before.cpu) };
}

async function pages() {
  console.log(`\nv2 observation pages of 1,000 with every field group, walked by cursor (fetch) on the servers alternately; \`llmobs observations export\` of everything`);
  for (const total of (args.observations ?? '1000000').split(',').map(Number)) {
    const { llmobs, floor, compare } = await seededServers(total, {}, Boolean(compareDist));
    const servers = [['llmobs server', llmobs, join(root, 'dist')], ...(compare ? [[compareLabel, compare, resolve(compareDist)]] : [])];
    try {
      for (const [, server] of servers) await server.resetLoop();
      const walked = await walkBoth([...servers.map(([, server]) => server), floor], total);
      const theirs = walked.at(-1);
      for (const [i, [label]] of servers.entries()) {
        const ours = walked[i];
        console.log(
          `${fmt(total)} observations, pages walked alternately: ${label} ${fmt(ours.rate)}/s, ${fmt(ours.perCpu)} per server CPU-second (event loop max ${ms(ours.loopMaxMs)}, RSS ${mb(ours.rss)}); floor ${fmt(theirs.rate)}/s, ${fmt(theirs.perCpu)} per CPU-second; ratio ${(ours.rate / theirs.rate).toFixed(2)}× (CPU ${(ours.perCpu / theirs.perCpu).toFixed(2)}×)`,
        );
      }
      // The exports one after the other, each build's CLI from its own server, `--exports` rounds.
      const rounds = servers.map(() => []);
      for (let round = 0; round < exportRounds; round++) {
        // Each round in the other order (ABBA): a load that rises or falls meets both alike.
        const order = [...servers.entries()];
        if (round % 2 === 1) order.reverse();
        for (const [i, [label, server, dist]] of order) {
          const exported = await exportRate(server, total, dist);
          rmSync(join(work, 'export.jsonl'));
          rounds[i].push(exported);
          console.log(`llmobs observations export from ${label}: ${fmt(exported.rate)} lines/s, ${fmt(exported.perCpu)} per CPU-second of the CLI, ${fmt(exported.serverPerCpu)} per server CPU-second; load average ${loadAverage()}`);
        }
      }
      if (exportRounds > 1) {
        for (const [i, [label]] of servers.entries()) {
          const of = (key) => median(rounds[i].map((r) => r[key]));
          console.log(`median of ${exportRounds} exports from ${label}: ${fmt(of('rate'))} lines/s, ${fmt(of('perCpu'))} per CPU-second of the CLI, ${fmt(of('serverPerCpu'))} per server CPU-second`);
        }
      }
      // The compared build's CLI exports from this build's server too: the two files must be
      // the same bytes (the stores differ in ids and times, the one server does not).
      if (compare) {
        const ours = join(work, 'ours.jsonl');
        const theirs = join(work, 'theirs.jsonl');
        await exportRate(llmobs, total, join(root, 'dist'), ours);
        await exportRate(llmobs, total, resolve(compareDist), theirs);
        const same = spawnSync('cmp', ['-s', ours, theirs]).status === 0;
        console.log(`the files exported from llmobs server by this build's CLI and by ${compareLabel}'s: ${same ? 'the same bytes' : 'DIFFERENT'}`);
        rmSync(ours);
        rmSync(theirs);
        if (!same) process.exitCode = 1;
      }
    } finally {
      for (const [, server] of servers) await server.stop();
      await floor.stop();
    }
  }
}

/** Calls `fn` over and over until stopped; resolves with each call's milliseconds. */
function keepCalling(fn, pauseMs) {
  let stopped = false;
  const times = [];
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      await fn();
      times.push(performance.now() - started);
      if (pauseMs) await sleep(pauseMs);
    }
    return times;
  })();
  return { stop: () => ((stopped = true), done) };
}

/**
 * A health check every 10 ms from a process of its own, so that its latencies are the server's,
 * not this process's waits on answers it receives (some of over 100 MB). `stop()` resolves with
 * the latencies in milliseconds.
 */
function healthChecks(server) {
  const script = `
    const url = ${JSON.stringify(`${server.url}/api/public/health`)};
    const times = [];
    let stopped = false;
    process.on('message', () => (stopped = true));
    while (!stopped) {
      const started = performance.now();
      const answer = await fetch(url);
      await answer.arrayBuffer();
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    process.send(times, () => process.exit(0));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const times = new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`health checks exited with ${code}`)));
  });
  return { stop: () => (child.send('stop'), times) };
}

/** `path` asked `runs` times in turn while a health check runs every 10 ms; prints the times, health's and the loop's longest hold. */
async function underHealth(label, server, path, runs = 3) {
  await server.resetLoop();
  const checks = healthChecks(server);
  await sleep(300);
  const times = [];
  let text = '';
  for (let run = 0; run < runs; run++) {
    const answer = await get(server, path);
    times.push(answer.ms);
    text = answer.text;
  }
  await sleep(300);
  const healthTimes = await checks.stop();
  const { loopMaxMs } = await server.stats();
  console.log(`${label}: ${times.map(ms).join(', ')}; health (${healthTimes.length}) p50 ${ms(percentile(healthTimes, 50))}, p99 ${ms(percentile(healthTimes, 99))}, max ${ms(Math.max(...healthTimes))}; event loop max ${ms(loopMaxMs)}`);
  return text;
}

/**
 * The v3 list with its metrics (which sums the trace), the trace with its metrics alone, and the
 * list with the trace's ids, on llmobs server and the compared build; their sums and ids must agree.
 */
async function sums() {
  const total = Number(args['trace-observations']);
  const traceId = 'big-trace';
  const servers = await seededServers(total, { traceId }, Boolean(compareDist), false);
  const answers = [];
  try {
    for (const [label, server] of [['llmobs server', servers.llmobs], ...(servers.compare ? [[compareLabel, servers.compare]] : [])]) {
      console.log(`\n${label}, one trace of ${fmt(total)} observations; load average ${loadAverage()}`);
      const list = JSON.parse(await underHealth('  GET /api/public/traces?fields=core,metrics', server, '/api/public/traces?fields=core,metrics'));
      const listed = list.data.find((t) => t.id === traceId);
      const one = JSON.parse(await underHealth('  GET /api/public/traces/{id}?fields=core,metrics', server, `/api/public/traces/${traceId}?fields=core,metrics`));
      // Every field group (the default): the trace's observation ids too, a million of them.
      const whole = JSON.parse(await underHealth('  GET /api/public/traces', server, '/api/public/traces')).data.find((t) => t.id === traceId);
      const ids = createHash('sha256').update(JSON.stringify([whole.observations, whole.scores])).digest('hex').slice(0, 16);
      answers.push(JSON.stringify({ list: [listed.totalCost, listed.latency], trace: [one.totalCost, one.latency], ids: `${whole.observations.length} ${ids}` }));
      console.log(`  totalCost and latency, the list's ids: ${answers[answers.length - 1]}`);
    }
  } finally {
    await servers.llmobs.stop();
    await servers.compare?.stop();
  }
  if (answers.length > 1) {
    console.log(`the two builds' sums and ids: ${answers[0] === answers[1] ? 'the same' : 'DIFFERENT'}`);
    if (answers[0] !== answers[1]) process.exitCode = 1;
  }
  console.log(`load average ${loadAverage()}`);
}

/** The list requests of `filters`: filters the lists' index serves and ones it does not, pages near and far. */
const FILTERED = [
  '/api/public/v2/observations?limit=50',
  '/api/public/v2/observations?limit=50&type=GENERATION',
  '/api/public/v2/observations?limit=50&name=nope',
  '/api/public/v2/observations?limit=50&level=ERROR',
  '/api/public/v2/observations?limit=50&userId=user-7',
  '/api/public/observations?limit=50',
  '/api/public/observations?limit=50&type=GENERATION',
  '/api/public/observations?limit=50&name=nope',
  '/api/public/observations?limit=50&page=10000',
];

/**
 * `path` asked of `server` three times: prints the median time and the event loop's longest hold
 * under `label`, and checks the answer (without the servers' own project and times) against the
 * other build's, kept in `answers` by label.
 */
async function askThreeTimes(server, path, label, answers, width) {
  await server.resetLoop();
  const times = [];
  let text = '';
  for (let run = 0; run < 3; run++) ({ ms: times[run], text } = await get(server, path));
  const { loopMaxMs } = await server.stats();
  const key = JSON.stringify(JSON.parse(text, (k, value) => (['projectId', 'createdAt', 'updatedAt'].includes(k) ? undefined : value)));
  if (answers.has(label) && answers.get(label) !== key) {
    console.log(`  ${label}: the two builds' answers DIFFER`);
    process.exitCode = 1;
  }
  answers.set(label, key);
  console.log(`  ${label.padEnd(width)} ${ms(median(times)).padStart(10)}   event loop max ${ms(loopMaxMs)}`);
}

/**
 * The observation lists with filters over `--observations` observations (one number, 1,000,000 by
 * default), each request three times in turn on llmobs server and the compared build: the
 * median time and the event loop's longest hold. A filter that matches few rows, or a page far
 * down, makes the list scan every observation; the answers of both builds must be the same.
 */
async function filters() {
  const total = Number((args.observations ?? '1000000').split(',')[0]);
  console.log(`\nthe observation lists with filters over ${fmt(total)} observations, three times each`);
  const servers = await seededServers(total, {}, Boolean(compareDist), false);
  const answers = new Map();
  try {
    for (const [label, server] of [['llmobs server', servers.llmobs], ...(servers.compare ? [[compareLabel, servers.compare]] : [])]) {
      console.log(`${label}; load average ${loadAverage()}`);
      for (const path of FILTERED) await askThreeTimes(server, path, path, answers, 56);
    }
  } finally {
    await servers.llmobs.stop();
    await servers.compare?.stop();
  }
  console.log(`load average ${loadAverage()}`);
}

/**
 * One trace of `--trace-observations` observations deleted while a health check runs every 10 ms,
 * on llmobs server and the compared build: the time to the answer, health's latencies, the event
 * loop's longest hold, and that none of its observations is left.
 */
async function deletion() {
  const total = Number(args['trace-observations']);
  const traceId = 'big-trace';
  const servers = await seededServers(total, { traceId }, Boolean(compareDist), false);
  try {
    for (const [label, server] of [['llmobs server', servers.llmobs], ...(servers.compare ? [[compareLabel, servers.compare]] : [])]) {
      await server.resetLoop();
      const checks = healthChecks(server);
      await sleep(300);
      const started = performance.now();
      const response = await request(`${server.url}/api/public/traces/${traceId}`, { method: 'DELETE', dispatcher: agent, headers: { authorization: server.auth } });
      await response.body.text();
      const took = performance.now() - started;
      await sleep(300);
      const healthTimes = await checks.stop();
      const { loopMaxMs } = await server.stats();
      const left = JSON.parse((await get(server, `/api/public/v2/observations?traceId=${traceId}&limit=1`)).text).data.length;
      console.log(
        `${label}, DELETE of a trace of ${fmt(total)} observations: ${response.statusCode} in ${ms(took)}; health (${healthTimes.length}) p50 ${ms(percentile(healthTimes, 50))}, p99 ${ms(percentile(healthTimes, 99))}, max ${ms(Math.max(...healthTimes))}; event loop max ${ms(loopMaxMs)}; observations left: ${left}`,
      );
    }
  } finally {
    await servers.llmobs.stop();
    await servers.compare?.stop();
  }
  console.log(`load average ${loadAverage()}`);
}

/**
 * One trace of `--spans` spans sent as OTLP/JSON exports of 500, each span a child of the first
 * and carrying `user.id` and `session.id`, so that each one is also an update of the trace, while
 * a health check runs every 10 ms: the exports' times by quarter and the event loop's longest
 * hold after the first export (which loads the OTLP code).
 */
async function spans() {
  const total = Number(args.spans);
  const per = 500;
  const traceId = '0af7651916cd43dd8448eb211c80319c';
  const hex = (n) => n.toString(16).padStart(16, '0');
  const base = BigInt(BASE) * 1_000_000n;
  const attribute = (key, value) => ({ key, value: { stringValue: value } });
  const exportBody = (e) => {
    const items = [];
    for (let i = 0; i < per; i++) {
      const n = e * per + i;
      const start = base + BigInt(n) * 1_000_000n;
      items.push({ traceId, spanId: hex(n + 1), ...(n > 0 ? { parentSpanId: hex(1) } : {}), name: `step-${n}`, startTimeUnixNano: String(start), endTimeUnixNano: String(start + 500_000n), attributes: [attribute('user.id', 'user-1'), attribute('session.id', 'session-1')] });
    }
    return JSON.stringify({ resourceSpans: [{ resource: { attributes: [attribute('service.name', 'agent')] }, scopeSpans: [{ scope: { name: 'langfuse-sdk' }, spans: items }] }] });
  };
  console.log(`\none trace of ${fmt(total)} spans as OTLP exports of ${per}, every span with user.id and session.id, while a health check runs every 10 ms`);
  const servers = [['llmobs server', await spawnLlmobs({ dataDir: join(work, 'llmobs-spans'), writeMode: 'events_only' })]];
  if (compareDist) servers.push([compareLabel, await spawnLlmobs({ dataDir: join(work, 'compare-spans'), dist: resolve(compareDist), writeMode: 'events_only' })]);
  try {
    for (const [label, server] of servers) {
      const times = [];
      let checks;
      for (let e = 0; e < total / per; e++) {
        const started = performance.now();
        const response = await request(`${server.url}/api/public/otel/v1/traces`, { method: 'POST', dispatcher: agent, headers: { authorization: server.auth, 'content-type': 'application/json' }, body: exportBody(e) });
        await response.body.text();
        if (response.statusCode !== 200) throw new Error(`the export answered ${response.statusCode}`);
        times.push(performance.now() - started);
        if (e === 0) {
          await server.resetLoop();
          checks = healthChecks(server);
          await sleep(300);
        }
      }
      await sleep(300);
      const healthTimes = await checks.stop();
      const { loopMaxMs } = await server.stats();
      const quarter = Math.max(1, Math.floor(times.length / 4));
      const quarters = [0, 1, 2, 3].map((q) => median(times.slice(q * quarter, (q + 1) * quarter)));
      const longest = Math.max(...times.slice(1));
      console.log(`${label}: exports, median by quarter ${quarters.map(ms).join(', ')}; longest after the first ${ms(longest)} (export ${times.indexOf(longest) + 1} of ${times.length}); health (${healthTimes.length}) p50 ${ms(percentile(healthTimes, 50))}, p99 ${ms(percentile(healthTimes, 99))}, max ${ms(Math.max(...healthTimes))}; event loop max ${ms(loopMaxMs)}`);
    }
  } finally {
    for (const [, server] of servers) await server.stop();
  }
  console.log(`load average ${loadAverage()}`);
}

/**
 * One generation, then one trace, updated `--updates` times (2,000) through the batch route, a
 * request per update, each update with a metadata key of its own (the log keeps every one, and
 * each request merges them all), in dual: the median time of a request by quarter, and the event
 * loop's longest hold.
 */
async function updates() {
  const total = Number(args.updates);
  console.log(`\none generation, then one trace, updated ${fmt(total)} times, a request per update, each with a new metadata key`);
  const t0 = Date.parse('2026-11-01T00:00:00.000Z');
  const at = (i) => new Date(t0 + i).toISOString();
  const kinds = [
    ['generation', { id: 'c', type: 'generation-create', timestamp: at(0), body: { id: 'g1', traceId: 't1', name: 'stream', model: 'gpt-4o', startTime: at(0) } }, (i) => ({ id: `g${i}`, type: 'generation-update', timestamp: at(i + 1), body: { id: 'g1', traceId: 't1', output: `partial ${i}`, metadata: { [`k${i}`]: i } } })],
    ['trace', { id: 'tc', type: 'trace-create', timestamp: at(0), body: { id: 't2', name: 'agent' } }, (i) => ({ id: `t${i}`, type: 'trace-create', timestamp: at(i + 1), body: { id: 't2', metadata: { [`k${i}`]: i } } })],
  ];
  for (const [label, dist] of BUILDS) {
    const server = await spawnLlmobs({ dataDir: join(work, `updates-${label.replace(/\W/g, '')}`), writeMode: 'dual', dist });
    const post = async (event) => {
      const response = await request(`${server.url}/api/public/ingestion`, { method: 'POST', dispatcher: agent, headers: { authorization: server.auth, 'content-type': 'application/json' }, body: JSON.stringify({ batch: [event] }) });
      await response.body.text();
      if (response.statusCode !== 207 && response.statusCode !== 200) throw new Error(`the batch answered ${response.statusCode}`);
    };
    try {
      for (const [kind, create, update] of kinds) {
        await post(create);
        await server.resetLoop();
        const times = [];
        for (let i = 0; i < total; i++) {
          const started = performance.now();
          await post(update(i));
          times.push(performance.now() - started);
        }
        const quarter = Math.max(1, Math.floor(total / 4));
        const quarters = [0, 1, 2, 3].map((q) => median(times.slice(q * quarter, (q + 1) * quarter)));
        console.log(`${label}, ${kind}: request time, median by quarter ${quarters.map(ms).join(', ')}; event loop max ${ms((await server.stats()).loopMaxMs)}`);
      }
    } finally {
      await server.stop();
    }
  }
  console.log(`load average ${loadAverage()}`);
}

/**
 * A burst of ingestion requests sent at once to llmobs server in dual: 6 batches of 30 times
 * bench/ingest.mjs's request (3,030 events each), the same 6 as OTLP/JSON exports, and 60 batches
 * of the everyday size (101 events), while a health check runs every 10 ms; three times. The
 * time until every request is answered, whether every observation is stored once, health
 * latencies and the event loop's longest hold.
 */
async function burst() {
  const { batchBody, otlpBody } = await import('./ingest-body.mjs');
  console.log('\n72 ingestion requests at once (6 batches and 6 OTLP exports of 3,030 events, 60 batches of 101), three times, while a health check runs every 10 ms');
  for (const [label, dist] of BUILDS) {
    const server = await spawnLlmobs({ dataDir: join(work, `burst-${label.replace(/\W/g, '')}`), writeMode: 'dual', dist });
    const post = async (path, body) => {
      const response = await request(`${server.url}${path}`, { method: 'POST', dispatcher: agent, headers: { authorization: server.auth, 'content-type': 'application/json' }, body });
      await response.body.text();
      if (response.statusCode !== 200 && response.statusCode !== 207) throw new Error(`${path} answered ${response.statusCode}`);
    };
    try {
      for (let i = 0; i < 10; i++) await post('/api/public/ingestion', batchBody('provided'));
      let expected = 1_000;
      const rounds = [];
      const allHealth = [];
      let loopMax = 0;
      for (let round = 0; round < 3; round++) {
        const bodies = [];
        for (let i = 0; i < 6; i++) bodies.push(['/api/public/ingestion', JSON.stringify({ batch: Array.from({ length: 30 }, () => JSON.parse(batchBody('provided')).batch).flat() })]);
        for (let i = 0; i < 6; i++) bodies.push(['/api/public/otel/v1/traces', JSON.stringify({ resourceSpans: Array.from({ length: 30 }, () => JSON.parse(otlpBody('provided')).resourceSpans).flat() })]);
        for (let i = 0; i < 60; i++) bodies.push(['/api/public/ingestion', batchBody('provided')]);
        expected += 6 * 3_000 + 6 * 3_030 + 60 * 100;
        await server.resetLoop();
        const checks = healthChecks(server);
        await sleep(100);
        const started = performance.now();
        await Promise.all(bodies.map(([path, body]) => post(path, body)));
        rounds.push(performance.now() - started);
        await sleep(100);
        allHealth.push(...(await checks.stop()));
        loopMax = Math.max(loopMax, (await server.stats()).loopMaxMs);
      }
      let stored = 0;
      let cursor;
      do {
        const response = await request(`${server.url}/api/public/v2/observations?limit=1000&fields=core${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { dispatcher: agent, headers: { authorization: server.auth } });
        const page = await response.body.json();
        stored += page.data.length;
        cursor = page.meta.cursor;
      } while (cursor);
      console.log(`${label}: answered in ${rounds.map(ms).join(', ')}; observations ${fmt(stored)} of ${fmt(expected)}; health (${allHealth.length}) p50 ${ms(percentile(allHealth, 50))}, p99 ${ms(percentile(allHealth, 99))}, max ${ms(Math.max(...allHealth))}; event loop max ${ms(loopMax)}`);
    } finally {
      await server.stop();
    }
  }
  console.log(`load average ${loadAverage()}`);
}

/**
 * `--definitions` custom model definitions of Langfuse's form (`(?i)^(name)$`), written through
 * POST /api/public/models; then a generation with a model name no definition matches is
 * ingested (the definitions are read and every pattern is checked): once right after the
 * writes, once after a restart, after each of three more definitions written one at a time, and
 * once more with nothing changed. Each request's time and the event loop's longest hold during it.
 */
async function definitions() {
  const total = Number(args.definitions);
  console.log(`\n${fmt(total)} custom model definitions; ingestion of a generation with a new model name`);
  const post = async (server, path, body) => {
    const response = await request(`${server.url}${path}`, { method: 'POST', dispatcher: agent, headers: { authorization: server.auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.body.text();
    if (response.statusCode >= 300) throw new Error(`${path} answered ${response.statusCode}: ${text.slice(0, 200)}`);
  };
  const define = (server, name) => post(server, '/api/public/models', { modelName: name, matchPattern: `(?i)^(${name})$`, unit: 'TOKENS', inputPrice: 0.000001, outputPrice: 0.000002 });
  let n = 0;
  const ingest = async (server) => {
    await server.resetLoop();
    await sleep(50);
    const started = performance.now();
    const at = new Date().toISOString();
    await post(server, '/api/public/ingestion', { batch: [{ id: `event-${++n}`, type: 'generation-create', timestamp: at, body: { id: `generation-${n}`, name: 'call', model: `never-defined-${n}`, startTime: at, usageDetails: { input: 1, output: 1 } } }] });
    const took = performance.now() - started;
    // The delay monitor records a hold when its next tick comes late: a few ticks after the answer.
    await sleep(50);
    return `${ms(took)} (loop max ${ms((await server.stats()).loopMaxMs)})`;
  };
  for (const [label, dist] of BUILDS) {
    const dataDir = join(work, `definitions-${label.replace(/\W/g, '-')}`);
    let server = await spawnLlmobs({ dataDir, dist });
    try {
      for (let i = 0; i < total; i += 50) await Promise.all(Array.from({ length: Math.min(50, total - i) }, (_, j) => define(server, `custom-model-${i + j}`)));
      const afterWrites = await ingest(server);
      await server.stop();
      server = await spawnLlmobs({ dataDir, dist });
      const afterRestart = await ingest(server);
      const afterOneMore = [];
      for (let i = 0; i < 3; i++) {
        await define(server, `one-more-model-${i}`);
        afterOneMore.push(await ingest(server));
      }
      const unchanged = await ingest(server);
      console.log(`${label}: after the writes ${afterWrites}; after a restart ${afterRestart}; after one more definition, three times: ${afterOneMore.join(', ')}; nothing changed ${unchanged}`);
    } finally {
      await server.stop();
    }
  }
  console.log(`load average ${loadAverage()}`);
}

/** The v3 scores list's requests of the `scores` part: no filter, a filter most match, filters that match few or none. */
const SCORE_QUERIES = ['limit=100', 'name=helpfulness&limit=100', 'traceId=trace-5', 'name=nope&limit=100', 'source=EVAL&limit=100', 'dataType=NUMERIC&valueMin=0.995&limit=100'];

/**
 * `--scores` numeric scores (three names, one a second apart, 16 per trace) seeded through the
 * ingestion pipeline of each build; then each of SCORE_QUERIES three times: the median time and
 * the event loop's longest hold, and the builds' answers compared.
 */
async function scoreLists() {
  const total = Number(args.scores);
  console.log(`\nthe v3 scores list with filters over ${fmt(total)} scores, three times each`);
  const started = performance.now();
  await Promise.all(
    BUILDS.map(
      ([label, dist]) =>
        new Promise((done, reject) => {
          const script = `
            const { Store } = await import(${JSON.stringify(join(dist, 'store.mjs'))});
            const { ingestEvents } = await import(${JSON.stringify(join(dist, 'ingest-routes.mjs'))});
            const { store } = Store.open({ dataDir: ${JSON.stringify(join(work, `scores-${label.replace(/\W/g, '-')}`))}, now: () => new Date() });
            const auth = { projectId: store.project.id, accessLevel: 'project' };
            for (let b = 0; b < ${Math.ceil(total / 500)}; b++) {
              const events = [];
              for (let n = b * 500; n < Math.min(${total}, (b + 1) * 500); n++) {
                const at = new Date(${BASE} + n * 1000).toISOString();
                events.push({ id: 'score-event-' + n, type: 'score-create', timestamp: at, body: { id: 'score-' + n, traceId: 'trace-' + (n >> 4), name: ['helpfulness', 'correctness', 'toxicity'][n % 3], value: (n % 100) / 100, dataType: 'NUMERIC', source: 'API', timestamp: at } });
              }
              await store.write((tx) => ingestEvents(events, tx, auth, new Date()));
            }
            store.close();`;
          spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' }).on('exit', (code) => (code === 0 ? done() : reject(new Error(`seeding ${label} failed (${code})`))));
        }),
    ),
  );
  console.log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s; load average ${loadAverage()}`);
  const answers = new Map();
  for (const [label, dist] of BUILDS) {
    const server = await spawnLlmobs({ dataDir: join(work, `scores-${label.replace(/\W/g, '-')}`), dist });
    try {
      console.log(`${label}; load average ${loadAverage()}`);
      for (const query of SCORE_QUERIES) await askThreeTimes(server, `/api/public/v3/scores?${query}`, query, answers, 48);
    } finally {
      await server.stop();
    }
  }
  console.log(`load average ${loadAverage()}`);
}

/**
 * Ingestion requests of growing size, each twice: batches of 1, 10 and 40 times bench/ingest.mjs's
 * request (a trace and 100 generations) to llmobs server in dual, and the same as OTLP/JSON exports
 * (up to 80 times: 8,080 spans, about the Collector's default batch of 8,192) and as
 * OTLP/protobuf exports (up to 198 times: 19,998 spans, under the route's limit of 20,000) in
 * events_only, and both OTLP encodings once over the limit (25,250 spans, a 413); each request's time and the event loop's longest hold during it, after 20 requests of the
 * everyday size.
 */
async function requests() {
  const { batchBody, otlpBody, otlpProtobuf } = await import('./ingest-body.mjs');
  console.log('\ningestion requests of growing size, each twice');
  const otlpJson = (bodies) => ({ resourceSpans: bodies.flatMap((b) => JSON.parse(b).resourceSpans) });
  const routes = [
    ['dual', '/api/public/ingestion', 'application/json', batchBody, async (bodies) => JSON.stringify({ batch: bodies.flatMap((b) => JSON.parse(b).batch) }), [1, 10, 40]],
    ['events_only', '/api/public/otel/v1/traces', 'application/json', otlpBody, async (bodies) => JSON.stringify(otlpJson(bodies)), [1, 10, 40, 80], 250],
    ['events_only', '/api/public/otel/v1/traces', 'application/x-protobuf', otlpBody, (bodies) => otlpProtobuf(otlpJson(bodies)), [1, 10, 40, 80, 198], 250],
  ];
  for (const [writeMode, path, type, make, join_, sizes, over] of routes) {
    for (const [label, dist] of BUILDS) {
      const server = await spawnLlmobs({ dataDir: join(work, `requests-${label.replace(/\W/g, '')}-${writeMode}-${type.split('/')[1]}`), writeMode, dist });
      const post = async (body, expected = [200, 207]) => {
        const response = await request(`${server.url}${path}`, { method: 'POST', dispatcher: agent, headers: { authorization: server.auth, 'content-type': type }, body });
        await response.body.text();
        if (!expected.includes(response.statusCode)) throw new Error(`${path} answered ${response.statusCode}`);
      };
      try {
        for (let i = 0; i < 20; i++) await post(await join_([make('provided')]));
        for (const n of sizes) {
          const body = await join_(Array.from({ length: n }, () => make('provided')));
          const results = [];
          for (let k = 0; k < 2; k++) {
            await server.resetLoop();
            await sleep(50);
            const started = performance.now();
            await post(body);
            const took = performance.now() - started;
            await sleep(50);
            results.push(`${ms(took)} (loop max ${ms((await server.stats()).loopMaxMs)})`);
          }
          console.log(`  ${BUILDS.length > 1 ? `${label.padEnd(10)} ` : ''}${writeMode.padEnd(12)} ${path.padEnd(28)} ${type.split('/')[1].padEnd(10)} ${fmt(n * 101).padStart(6)} events, ${(Buffer.byteLength(body) / 1e6).toFixed(1)} MB: ${results.join(', ')}`);
        }
        if (over) {
          // More spans than the route takes: refused with a 413; its time and the event loop's longest hold.
          const body = await join_(Array.from({ length: over }, () => make('provided')));
          await server.resetLoop();
          await sleep(50);
          const started = performance.now();
          await post(body, [413]);
          const took = performance.now() - started;
          const stats = await server.stats();
          console.log(`  ${BUILDS.length > 1 ? `${label.padEnd(10)} ` : ''}${writeMode.padEnd(12)} ${path.padEnd(28)} ${type.split('/')[1].padEnd(10)} ${fmt(over * 101).padStart(6)} events, ${(Buffer.byteLength(body) / 1e6).toFixed(1)} MB: 413 in ${ms(took)} (loop max ${ms(stats.loopMaxMs)})`);
        }
      } finally {
        await server.stop();
      }
    }
  }
  console.log(`load average ${loadAverage()}`);
}

async function trace() {
  const total = Number(args['trace-observations']);
  const traceId = 'big-trace';
  const { llmobs, floor } = await seededServers(total, { traceId });
  const { batchBody } = await import('./ingest-body.mjs');
  console.log(`\nthree GET /api/public/traces/{id} at once, of a trace with ${fmt(total)} observations, while a health check runs every 10 ms and ingestion requests (100 generations) follow one another`);
  try {
    for (const [label, server] of [['llmobs server', llmobs], ['floor', floor]]) {
      await server.resetLoop();
      const before = await server.stats();
      const checks = healthChecks(server);
      const ingestion = keepCalling(async () => {
        const response = await request(`${server.url}/api/public/ingestion`, { method: 'POST', dispatcher: agent, headers: { authorization: server.auth, 'content-type': 'application/json' }, body: batchBody('provided') });
        await response.body.text();
        if (response.statusCode !== 207) throw new Error(`ingestion answered ${response.statusCode}`);
      }, 0);
      await sleep(300);
      let peak = before.rss;
      const sampler = setInterval(() => server.stats().then((s) => (peak = Math.max(peak, s.rss))), 100);
      const started = performance.now();
      const reads = await Promise.all([0, 1, 2].map(() => get(server, `/api/public/traces/${traceId}`)));
      const readsMs = performance.now() - started;
      clearInterval(sampler);
      await sleep(300);
      const healthTimes = await checks.stop();
      const ingestTimes = await ingestion.stop();
      const after = await server.stats();
      peak = Math.max(peak, after.rss);
      const count = JSON.parse(reads[0].text).observations.length;
      console.log(
        `${label}: reads ${reads.map((r) => ms(r.ms)).join(', ')} (all three in ${ms(readsMs)}; ${fmt(count)} observations, ${mb(Buffer.byteLength(reads[0].text))} each); RSS ${mb(before.rss)} -> peak ${mb(peak)}; event loop max ${ms(after.loopMaxMs)}`,
      );
      console.log(`  health (${healthTimes.length}): p50 ${ms(percentile(healthTimes, 50))}, p99 ${ms(percentile(healthTimes, 99))}, max ${ms(Math.max(...healthTimes))}`);
      console.log(`  ingestion (${ingestTimes.length} requests): p50 ${ms(percentile(ingestTimes, 50))}, max ${ms(Math.max(...ingestTimes))}`);
    }
  } finally {
    await llmobs.stop();
    await floor.stop();
  }
  console.log(`load average ${loadAverage()}`);
}

async function inflate() {
  const inflated = Buffer.from(`{"resourceSpans":[${' '.repeat(64 * 1024 * 1024 - 64)}]}`);
  const body = gzipSync(inflated, { level: 9 });
  console.log(`\nPOST /api/public/otel/v1/traces, a gzip body of ${fmt(body.length / 1024)} KB that inflates to ${mb(inflated.length)} (JSON), three times in turn, while a health check runs every 10 ms`);
  const llmobs = await spawnLlmobs({ dataDir: join(work, 'llmobs-inflate') });
  const floor = await spawnFloor({ dataDir: join(work, 'floor-inflate') });
  try {
    for (const [label, server] of [['llmobs server', llmobs], ['floor', floor]]) {
      await server.resetLoop();
      const checks = healthChecks(server);
      await sleep(200);
      const times = [];
      for (let i = 0; i < 3; i++) {
        const started = performance.now();
        const response = await request(`${server.url}/api/public/otel/v1/traces`, {
          method: 'POST',
          dispatcher: agent,
          headers: { authorization: server.auth, 'content-type': 'application/json', 'content-encoding': 'gzip' },
          body,
        });
        await response.body.text();
        times.push(`${response.statusCode} in ${ms(performance.now() - started)}`);
      }
      await sleep(200);
      const healthTimes = await checks.stop();
      const stats = await server.stats();
      console.log(`${label}: ${times.join(', ')}; health (${healthTimes.length}) p50 ${ms(percentile(healthTimes, 50))}, p99 ${ms(percentile(healthTimes, 99))}, max ${ms(Math.max(...healthTimes))}; event loop max ${ms(stats.loopMaxMs)}; peak RSS ${mb(stats.maxRss)}`);
    }
  } finally {
    await llmobs.stop();
    await floor.stop();
  }
  console.log(`load average ${loadAverage()}`);
}

/**
 * Pages of large observations: the v2 list of every one with io and without, and a v1 page of
 * 100, each three times while a health check runs every 10 ms; the answers' sizes and times, the
 * health checks' latencies, the event loop's longest hold and the server's peak memory.
 */
async function large() {
  const total = Number(args['large-observations']);
  const bytes = Number(args['input-bytes']);
  console.log(`\n${fmt(total)} observations with inputs of ${fmt(bytes)} characters: pages of them, three times each, while a health check runs every 10 ms`);
  const { llmobs, floor, compare } = await seededServers(total, { inputBytes: bytes }, Boolean(compareDist));
  const paths = [
    [`v2 page of ${fmt(Math.min(total, 1000))} with io`, `/api/public/v2/observations?limit=${Math.min(total, 1000)}&fields=core,io`],
    [`v2 page of ${fmt(Math.min(total, 1000))} without io (the default field groups)`, `/api/public/v2/observations?limit=${Math.min(total, 1000)}`],
    ['v1 page of 100', '/api/public/observations?limit=100'],
  ];
  try {
    for (const [label, server] of [['llmobs server', llmobs], ...(compare ? [[compareLabel, compare]] : [])]) {
      for (const [what, path] of paths) {
        await server.resetLoop();
        const checks = healthChecks(server);
        const times = [];
        for (let i = 0; i < 3; i++) {
          const started = performance.now();
          try {
            const { text } = await get(server, path);
            times.push(`${mb(Buffer.byteLength(text))} in ${ms(performance.now() - started)}`);
          } catch (error) {
            times.push(`failed in ${ms(performance.now() - started)} (${error.message.slice(0, 80)})`);
          }
        }
        const healthTimes = await checks.stop();
        const stats = await server.stats();
        console.log(`${label}, ${what}: ${times.join(', ')}; health (${healthTimes.length}) p99 ${ms(percentile(healthTimes, 99))}, max ${ms(Math.max(...healthTimes))}; event loop max ${ms(stats.loopMaxMs)}; peak RSS ${mb(stats.maxRss)}`);
      }
    }
  } finally {
    await llmobs.stop();
    await compare?.stop();
    await floor.stop();
  }
  console.log(`load average ${loadAverage()}`);
}

console.log(`Node ${process.version}; load average ${loadAverage()}`);
try {
  for (const part of args.only.split(',')) await { metrics, pages, trace, sums, inflate, large, delete: deletion, filters, spans, definitions, scores: scoreLists, requests, burst, updates }[part]();
} finally {
  await agent.close();
  rmSync(work, { recursive: true, force: true });
}
