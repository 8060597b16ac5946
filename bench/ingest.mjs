#!/usr/bin/env node
// Ingestion throughput of `llmobs server`: POST /api/public/ingestion with batches of 100
// generations (plus their trace), at concurrency 1 and 20, over loopback HTTP with keep-alive.
//   node bench/ingest.mjs [--requests 200] [--ephemeral] [--only provided,tokenize] [--compare DIST[=LABEL]]
// --compare DIST also runs the server of another build (its dist/ directory, e.g. a copy of an
// earlier commit's) in the same run, its rows interleaved with this build's: before/after figures
// from one run rather than from runs at different loads.
// Two payloads: generations with usage provided (matched and priced, nothing to count) and
// generations without usage (their chat input and text output are tokenized). The server runs in
// its own process (as `llmobs server` does), the load generator in this one. In the same run,
// for scale: a bare node:http server that parses each body and answers a 207 without storing
// anything (the floor of what any local mock costs), and the ingestion pipeline called in-process
// without HTTP or SQLite.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, request } from 'undici';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const requests = Number(arg('requests', '200'));
const ephemeral = process.argv.includes('--ephemeral');
const only = arg('only', 'provided,tokenize').split(',');
// --compare DIST[=LABEL]
const [compareDir, compareLabel = 'compare'] = (arg('compare', '') ?? '').split('=');
const compare = compareDir ? resolve(compareDir) : undefined;

const { processBatch } = await import(join(root, 'dist', 'ingest.mjs'));
const { engineCounter } = await import(join(root, 'dist', 'tokenizer.mjs'));
const { builtInDefinitions } = await import(join(root, 'dist', 'catalogue.mjs'));

const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-4.1', 'my-unknown-model'];
const QUESTIONS = [
  'What is the boiling point of water at sea level, in Celsius and Fahrenheit?',
  'Summarise the plot of Hamlet in two sentences for a ten-year-old.',
  'Write a haiku about continuous integration pipelines that fail on Fridays.',
  'Translate "the invoice is overdue" into French, German and Japanese.',
];

let sequence = 0;
/** One request body: a trace and 100 generations under it. */
function batchBody(kind) {
  const run = sequence++;
  const now = new Date().toISOString();
  // Random UUIDs for every id, as the SDKs send (sequential ids would insert into the id indexes
  // at one end only, which flatters a B-tree store).
  const traceId = randomUUID();
  const batch = [{ id: randomUUID(), type: 'trace-create', timestamp: now, body: { id: traceId, name: 'bench', userId: `user-${run % 17}` } }];
  for (let i = 0; i < 100; i++) {
    const body = {
      id: randomUUID(),
      traceId,
      name: 'llm-call',
      model: MODELS[i % MODELS.length],
      startTime: now,
      endTime: now,
      input: [
        { role: 'system', content: 'You are a concise assistant.' },
        { role: 'user', content: `${QUESTIONS[i % QUESTIONS.length]} (${run}-${i})` },
      ],
      output: 'Here is a short answer that a model might give, with a number or two: 100 °C, 212 °F.',
      modelParameters: { temperature: 0.2, max_tokens: 256 },
      metadata: { request: `${run}-${i}` },
    };
    if (kind === 'provided') body.usageDetails = { input: 200 + i, output: 40 + (i % 7), input_cached_tokens: i % 3 };
    batch.push({ id: randomUUID(), type: 'generation-create', timestamp: now, body });
  }
  return JSON.stringify({ batch });
}

async function drive(url, auth, bodies, concurrency) {
  const agent = new Agent({ connections: concurrency, pipelining: 1, keepAliveTimeout: 10_000 });
  let next = 0;
  let failures = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < bodies.length) {
        const body = bodies[next++];
        const response = await request(`${url}/api/public/ingestion`, { method: 'POST', dispatcher: agent, headers: { authorization: auth, 'content-type': 'application/json' }, body });
        const answer = await response.body.json();
        if (response.statusCode !== 207 || answer.errors?.length || answer.successes?.length !== 101) failures++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return { rate: (bodies.length * 100) / seconds, failures };
}

/** A mock that parses the body and answers 207 for each event, storing nothing. */
function bareServer() {
  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const { batch } = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const text = JSON.stringify({ successes: batch.map((e) => ({ id: e.id, status: 201 })), errors: [] });
      res.writeHead(207, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function inProcess(bodies) {
  const definitions = [...builtInDefinitions()];
  const none = () => new Map();
  const lookups = { storedTraces: none, storedObservations: none, storedScores: none, seenEvents: () => new Set(), prompt: () => undefined, definitions: () => definitions };
  const started = performance.now();
  for (const body of bodies) processBatch(JSON.parse(body).batch, { projectId: 'p', accessLevel: 'project' }, lookups, { now: new Date(), count: engineCounter });
  return (bodies.length * 100) / ((performance.now() - started) / 1000);
}

const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(9);
const dataDirs = [];
/**
 * Starts the server of a build (its dist/server.mjs) in its own process, in dual write mode: the
 * default (events_only) refuses the batch route's generations. Builds before write modes ignore it.
 */
async function spawnServer(serverModule) {
  const dataDir = ephemeral ? undefined : mkdtempSync(join(tmpdir(), 'llmobs-bench-ingest-'));
  if (dataDir) dataDirs.push(dataDir);
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : []),
      '--input-type=module',
      '-e',
      `const { startServer } = await import(${JSON.stringify(serverModule)});
       const s = await startServer({ port: 0, ephemeral: ${ephemeral}, dataDir: ${JSON.stringify(dataDir)}, writeMode: 'dual' });
       console.log(JSON.stringify({ url: s.url, keys: s.keys }));
       process.on('message', () => process.send(process.cpuUsage()));
       process.on('SIGTERM', async () => { await s.close(); process.exit(0); });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] },
  );
  const info = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return {
    child,
    dataDir,
    generations: 0,
    url: info.url,
    auth: `Basic ${Buffer.from(`${info.keys.publicKey}:${info.keys.secretKey}`).toString('base64')}`,
    /** CPU seconds the server process has used so far (user + system). */
    cpu: () =>
      new Promise((resolve) => {
        child.once('message', (usage) => resolve((usage.user + usage.system) / 1e6));
        child.send('cpu');
      }),
  };
}
const servers = [{ label: 'this build', ...(await spawnServer(join(root, 'dist', 'server.mjs'))) }];
if (compare) {
  try {
    servers.push({ label: compareLabel, ...(await spawnServer(join(compare, 'server.mjs'))) });
  } catch (error) {
    servers[0].child.kill('SIGTERM');
    throw error;
  }
}
const bare = await bareServer();
const bareUrl = `http://127.0.0.1:${bare.address().port}`;

console.log(`${requests} requests of 100 generations per row; server data ${ephemeral ? 'in memory' : 'on disk (WAL)'}; Node ${process.version}${compare ? `; compare: ${compare}` : ''}`);
console.log('payload    concurrency  server        llmobs server (gen/s)   server CPU (gen per CPU-s)   bare 207 mock (gen/s)   pipeline in-process (gen/s)');
try {
  for (const kind of only) {
    // Warm up: rank tables, JIT, SQLite pages.
    for (const server of servers) {
      await drive(server.url, server.auth, Array.from({ length: 20 }, () => batchBody(kind)), 4);
      server.generations += 20 * 100;
    }
    for (const concurrency of [1, 20]) {
      for (const server of servers) {
        const bodies = Array.from({ length: requests }, () => batchBody(kind));
        const cpuBefore = await server.cpu();
        const ours = await drive(server.url, server.auth, bodies, concurrency);
        server.generations += bodies.length * 100;
        const perCpuSecond = (bodies.length * 100) / ((await server.cpu()) - cpuBefore);
        const first = server === servers[0];
        const mock = first ? fmt((await drive(bareUrl, servers[0].auth, bodies, concurrency)).rate) : '        -';
        const pipeline = first && concurrency === 1 ? fmt(inProcess(Array.from({ length: requests }, () => batchBody(kind)))) : '        -';
        console.log(
          `${kind.padEnd(10)} ${String(concurrency).padStart(11)}  ${server.label.padEnd(12)}  ${fmt(ours.rate)}${ours.failures ? ` (${ours.failures} failed)` : ''}               ${fmt(perCpuSecond)}                    ${mock}               ${pipeline}`,
        );
      }
    }
  }
} finally {
  for (const server of servers) {
    server.child.kill('SIGTERM');
    await new Promise((resolve) => server.child.on('exit', resolve));
  }
  bare.close();
  // A stopped server has checkpointed its WAL into the database file: the directory is the data.
  for (const server of servers) {
    if (!server.dataDir) continue;
    const bytes = readdirSync(server.dataDir).reduce((sum, name) => sum + statSync(join(server.dataDir, name)).size, 0);
    console.log(`${server.label}: data directory ${(bytes / 1e6).toFixed(1)} MB after ${server.generations.toLocaleString('en-US')} generations (${Math.round(bytes / server.generations)} bytes each)`);
  }
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}
