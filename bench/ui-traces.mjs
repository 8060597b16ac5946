#!/usr/bin/env node
// The web UI's traces list over a large store: `llmobs server`'s SQLite store filled with N
// observations (4 per trace) first, then the list's first page (what the Traces page asks for
// when it opens), the same page filtered by user, and the next page by cursor, each asked
// `--runs` times over loopback HTTP with the session cookie. In the same run, for scale: the
// public API's first page of v2 observations from the same server (the cheapest list it has).
//   node bench/ui-traces.mjs [n=1000000] [--runs 20]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fillStore } from './fill-store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const n = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 20) || 20;
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-ui-'));

function start(dir) {
  const child = spawn(process.execPath, [join(root, 'bin', 'llmobs.js'), 'server', '--port', '0', '--ui-port', '0', '--json', '--data-dir', dir], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env: { PATH: process.env.PATH, HOME: work, LLMOBS_CONFIG_DIR: join(work, 'config') },
  });
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout.on('data', (chunk) => {
      buffer += chunk;
      if (buffer.includes('\n')) resolve({ child, ...JSON.parse(buffer.split('\n')[0]) });
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
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
