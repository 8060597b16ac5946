#!/usr/bin/env node
// The web UI's traces list over a large store: `llmobs server`'s SQLite store filled with N
// observations (4 per trace) first, then the list's first page (what the Traces page asks for
// when it opens), the same page filtered by user, and the next page by cursor, each asked
// `--runs` times over loopback HTTP with the session cookie. In the same run, for scale: the
// public API's first page of v2 observations from the same server (the cheapest list it has).
//   node bench/ui-traces.mjs [n=1000000] [--runs 20]
// With --loop: the same store and one more trace of T observations (the newest, so on the list's
// first page); for each build (dist/, and --compare DIST), what the UI asks of the server, each
// while a health check runs every 10 ms on the API port: the event loop's longest delay
// (monitorEventLoopDelay) and the health checks' p99. The trace view is what its page requests,
// three pages at once; the traces list's first page; the export of the big trace's observations
// (JSON Lines) and of one user's traces (CSV); the big trace's "Download as JSON".
//   node bench/ui-traces.mjs [n=1000000] --loop [--trace-observations 100000] [--compare DIST[=LABEL]]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillStore } from './fill-store.mjs';
import { firstJsonLine, loadAverage, percentile, spawnLlmobs } from './servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const n = Number(process.argv.slice(2).find((arg, i, all) => /^\d+$/.test(arg) && !/^--(runs|trace-observations)$/.test(all[i - 1] ?? '')) ?? 1_000_000);
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 20) || 20;
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-ui-'));

function start(dir) {
  const child = spawn(process.execPath, [join(root, 'bin', 'llmobs.js'), 'server', '--port', '0', '--ui-port', '0', '--json', '--data-dir', dir], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { PATH: process.env.PATH, HOME: work, LLMOBS_CONFIG_DIR: join(work, 'config') },
  });
  return firstJsonLine(child);
}

async function timed(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.json();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return `median ${at(0.5).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms, best ${sorted[0].toFixed(1)} ms`;
}

const option = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);

if (process.argv.includes('--loop')) {
  try {
    await loop();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.exit(0);
}

async function loop() {
  const big = Number(option('--trace-observations') ?? 100_000);
  const compare = option('--compare');
  const builds = [['this build', join(root, 'dist')], ...(compare ? [[compare.split('=')[1] ?? compare, resolve(compare.split('=')[0])]] : [])];
  const dir = join(work, 'data');
  fillStore(dir, n, { traces: true, bigTrace: big });
  console.log(`${n.toLocaleString('en-US')} observations in traces of 4, and one trace of ${big.toLocaleString('en-US')}; health checked every 10 ms on the API port during each; load average ${loadAverage()}`);
  for (const [label, dist] of builds) {
    const server = await spawnLlmobs({ dataDir: dir, dist, ui: true });
    try {
      const login = await fetch(server.uiUrl, { redirect: 'manual' });
      const cookie = login.headers.get('set-cookie').split(';')[0];
      const ui = new URL(server.uiUrl).origin;
      const fetchAll = async (path) => {
        const response = await fetch(`${ui}${path}`, { headers: { cookie } });
        const bytes = (await response.arrayBuffer()).byteLength;
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
        return bytes;
      };
      // What the trace's page asks for: the trace without its observations and their first page
      // where the build has that endpoint; else the whole trace.
      const paged = (await fetch(`${ui}/ui/api/traces/observations?traceId=big-trace&limit=1`, { headers: { cookie } })).status === 200;
      const page = paged ? ['/api/public/traces/big-trace?fields=core,io,scores', '/ui/api/traces/observations?traceId=big-trace'] : ['/api/public/traces/big-trace'];
      const cases = [
        ['trace view, three at once', async () => (await Promise.all([0, 1, 2].map(() => Promise.all(page.map(fetchAll))))).flat().reduce((a, b) => a + b, 0) / 3],
        ['traces list, first page', () => fetchAll('/ui/api/traces?limit=50')],
        ['export of the big trace\'s observations (JSONL)', () => fetchAll('/ui/api/export/observations?format=jsonl&traceId=big-trace')],
        ["export of one user's traces (CSV)", () => fetchAll('/ui/api/export/traces?format=csv&userId=user-5')],
        ['the big trace as JSON (download)', () => fetchAll('/api/public/traces/big-trace')],
      ];
      console.log(`${label}:`);
      for (const [name, run] of cases) {
        await server.resetLoop();
        // The monitor's first interval starts with its first tick: a delay before it goes unseen.
        await new Promise((resolve) => setTimeout(resolve, 50));
        const checks = keepChecking(server);
        const started = performance.now();
        let bytes;
        try {
          bytes = await run();
        } catch (error) {
          await checks.stop();
          console.log(`  ${name}: failed (${error.cause?.code ?? error.message})`);
          break;
        }
        const ms = performance.now() - started;
        const health = await checks.stop();
        const { loopMaxMs } = await server.stats();
        console.log(
          `  ${name}: ${ms.toFixed(0)} ms, ${(bytes / 1e6).toFixed(1)} MB${name.startsWith('trace view') ? ' a page' : ''}; event loop max ${loopMaxMs.toFixed(0)} ms; health (${health.length}) p99 ${percentile(health, 99).toFixed(1)} ms, max ${Math.max(...health).toFixed(1)} ms`,
        );
      }
    } finally {
      if (server.child.exitCode === null) await server.stop();
      else console.log(`  (the server exited with ${server.child.exitCode})`);
    }
  }
}

/** A health check on the API port every 10 ms until stopped; resolves with each one's milliseconds. */
function keepChecking(server) {
  let stopped = false;
  const times = [];
  const done = (async () => {
    while (!stopped) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/public/health`);
      await response.text();
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return times;
  })();
  return { stop: () => ((stopped = true), done) };
}

const dir = join(work, 'data');
fillStore(dir, n, { traces: true });
const server = await start(dir);
try {
  const login = await fetch(server.uiUrl, { redirect: 'manual' });
  const cookie = login.headers.get('set-cookie').split(';')[0];
  const ui = new URL(server.uiUrl).origin;
  const auth = { authorization: `Basic ${Buffer.from(`${server.publicKey}:${server.secretKey}`).toString('base64')}` };

  const first = await timed(`${ui}/ui/api/traces?limit=50`, { cookie });
  if (first.body.data.length !== 50 || first.body.data[0].id !== `trace-${(n - 1) >> 2}`) throw new Error('the first page is not the newest 50 traces');
  const cases = [
    ['UI traces list, first page (50)', `${ui}/ui/api/traces?limit=50`, { cookie }],
    ['UI traces list, filtered by user', `${ui}/ui/api/traces?limit=50&userId=user-5`, { cookie }],
    ['UI traces list, next page by cursor', `${ui}/ui/api/traces?limit=50&cursor=${first.body.nextCursor}`, { cookie }],
    ['public API v2 observations, first page (50)', `${server.url}/api/public/v2/observations?limit=50`, auth],
  ];
  const times = cases.map(() => []);
  // Interleaved rounds: noise from other work hits every case alike.
  for (let round = 0; round < runs; round++) {
    for (const [i, [, url, headers]] of cases.entries()) times[i].push((await timed(url, headers)).ms);
  }
  console.log(`${n.toLocaleString('en-US')} observations, ${(n / 4).toLocaleString('en-US')} traces, ${runs} rounds`);
  for (const [i, [name]] of cases.entries()) console.log(`${name}: ${summary(times[i])}`);
} finally {
  server.child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
}
