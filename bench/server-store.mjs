#!/usr/bin/env node
// The local server's store (see bench/README.md):
//   prompts  a prompt create over HTTP with 1k, 10k and 100k versions stored, against the
//            previous store's cost per change (rewrite the whole state file, fsync, rename)
//   reads    GET a trace and a page of v2 observations with N observations stored (p50/p99),
//            the data directory's size, and the server's memory while it serves them
//
//   node bench/server-store.mjs [--only prompts|reads] [--versions 1000,10000,100000]
//                               [--observations 1000000] [--requests 200]
import { spawn } from 'node:child_process';
import { closeSync, fsyncSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { firstJsonLine } from './servers.mjs';

const { values: args } = parseArgs({
  options: {
    only: { type: 'string' },
    versions: { type: 'string', default: '1000,10000,100000' },
    observations: { type: 'string', default: '1000000' },
    requests: { type: 'string', default: '200' },
  },
});
const root = join(import.meta.dirname, '..');
const { Store } = await import(join(root, 'dist', 'store.mjs')).catch(() => {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
});

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (n) => `${n.toFixed(2)} ms`.padStart(10);
const now = () => new Date();
const dirSize = (dir) => readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);

/** The server in its own process, as users run it; resolves with its URL, keys and pid. */
function startServerProcess(dataDir) {
  // dual: the reads timed include GET /api/public/traces/{id}, which events_only (the default) removes.
  const child = spawn(process.execPath, [join(root, 'bin', 'llmobs.js'), 'server', '--port', '0', '--json', '--data-dir', dataDir, '--write-mode', 'dual'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return firstJsonLine(child);
}

/** CPU time of a process so far (user + system), in ms. */
const cpuMs = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
};
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

function promptRecord(projectId, name, version, labels) {
  const at = new Date(Date.UTC(2026, 0, 1, 0, 0, version)).toISOString();
  return {
    id: `${name}-${version}`, createdAt: at, updatedAt: at, projectId, createdBy: 'API', prompt: `Version ${version} of ${name}: answer {{question}} briefly.`,
    name, version, type: 'text', isActive: null, config: { temperature: 0.2 }, tags: [], labels, commitMessage: null,
  };
}

async function benchPrompts() {
  console.log('\nprompt create (POST /api/public/v2/prompts), 30 creates after the store holds N versions of 100 prompts');
  console.log('(wall time includes the fsync of each commit, which dominates on a busy disk; CPU is the server process\'s own)');
  console.log('versions   SQLite store p50      p99   CPU/create | state file (rewrite per change) p50   CPU/change   file size');
  for (const total of args.versions.split(',').map(Number)) {
    const dir = mkdtempSync(join(tmpdir(), 'llmobs-bench-prompts-'));
    const { store } = Store.open({ dataDir: dir, now });
    const projectId = store.project.id;
    const perPrompt = total / 100;
    const state = { schemaVersion: 1, project: store.project, apiKeys: [...store.apiKeys], prompts: [], promptDependencies: [], models: [] };
    for (let p = 0; p < 100; p++) {
      store.write((tx) => {
        for (let v = 1; v <= perPrompt; v++) {
          const record = promptRecord(projectId, `prompt-${p}`, v, v === perPrompt ? ['latest'] : []);
          tx.prompts.insert(record, []);
          state.prompts.push(record);
        }
      });
    }
    const key = store.apiKeys[0];
    store.close();

    const server = await startServerProcess(dir);
    const auth = `Basic ${Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')}`;
    const times = [];
    const cpuBefore = cpuMs(server.child.pid);
    for (let i = 0; i < 30; i++) {
      const started = performance.now();
      const response = await fetch(`${server.url}/api/public/v2/prompts`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `prompt-${i % 100}`, prompt: `new ${i}`, labels: ['production'] }),
      });
      await response.text();
      if (response.status !== 201) throw new Error(`create answered ${response.status}`);
      times.push(performance.now() - started);
    }
    const cpuPerCreate = (cpuMs(server.child.pid) - cpuBefore) / 30;
    server.child.kill('SIGTERM');

    // The previous store: every change serialised the whole state and replaced the file.
    const oldDir = mkdtempSync(join(tmpdir(), 'llmobs-bench-state-'));
    const oldTimes = [];
    const oldCpu = process.cpuUsage();
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      state.prompts.push(promptRecord(projectId, `prompt-${i % 100}`, perPrompt + i + 1, ['latest']));
      const temp = join(oldDir, 'state.json.tmp');
      writeFileSync(temp, JSON.stringify(state));
      const fd = openSync(temp, 'r');
      fsyncSync(fd);
      closeSync(fd);
      renameSync(temp, join(oldDir, 'state.json'));
      oldTimes.push(performance.now() - started);
    }
    const used = process.cpuUsage(oldCpu);
    const oldCpuPerChange = (used.user + used.system) / 1000 / 10;
    const fileMb = statSync(join(oldDir, 'state.json')).size / 1024 / 1024;
    console.log(`${String(total).padStart(8)} ${ms(percentile(times, 50))} ${ms(percentile(times, 99))} ${ms(cpuPerCreate)} | ${ms(percentile(oldTimes, 50))}                    ${ms(oldCpuPerChange)}   ${fileMb.toFixed(1)} MB`);
    rmSync(dir, { recursive: true, force: true });
    rmSync(oldDir, { recursive: true, force: true });
  }
}

function observationRecord(projectId, traceId, i, start) {
  const startTime = new Date(start).toISOString();
  const endTime = new Date(start + 1200).toISOString();
  return {
    id: `${traceId}-o${i}`, projectId, traceId, parentObservationId: i === 0 ? null : `${traceId}-o0`, type: i === 0 ? 'SPAN' : 'GENERATION',
    name: i === 0 ? 'request' : 'llm-call', environment: 'default', startTime, endTime, completionStartTime: null, level: 'DEFAULT', statusMessage: null,
    version: null, input: [{ role: 'user', content: `Question ${i} about the invoice of trace ${traceId}?` }], output: `Answer ${i}: the total is 42 EUR.`,
    metadata: { route: '/chat' }, providedModelName: 'gpt-4o', internalModelId: null, modelParameters: { temperature: 0.2 }, providedUsageDetails: {},
    providedCostDetails: {}, usageDetails: { input: 120, output: 40, total: 160 }, costDetails: { input: 0.0003, output: 0.0004, total: 0.0007 },
    totalCost: 0.0007, usagePricingTierId: null, usagePricingTierName: null, promptId: null, promptName: null, promptVersion: null,
    createdAt: startTime, updatedAt: startTime,
  };
}

async function benchReads() {
  const total = Number(args.observations);
  const perTrace = 100;
  const traces = Math.ceil(total / perTrace);
  const dir = mkdtempSync(join(tmpdir(), 'llmobs-bench-reads-'));
  const { store } = Store.open({ dataDir: dir, now });
  const projectId = store.project.id;
  const key = store.apiKeys[0];
  const base = Date.UTC(2026, 0, 1);
  const seeding = performance.now();
  for (let t = 0; t < traces; t += 100) {
    store.write((tx) => {
      for (let k = t; k < Math.min(traces, t + 100); k++) {
        const traceId = `trace-${k}`;
        const at = new Date(base + k * 60_000).toISOString();
        tx.traces.put({
          id: traceId, projectId, timestamp: at, name: 'chat', userId: `user-${k % 50}`, sessionId: null, release: null, version: null, environment: 'default',
          public: false, bookmarked: false, tags: [], metadata: {}, input: { q: 'hi' }, output: 'hello', createdAt: at, updatedAt: at,
        });
        for (let i = 0; i < perTrace; i++) tx.observations.put(observationRecord(projectId, traceId, i, base + k * 60_000 + i * 10));
      }
    });
  }
  store.close();
  const seedSeconds = (performance.now() - seeding) / 1000;
  const size = dirSize(dir);
  console.log(`\n${total.toLocaleString('en')} observations in ${traces.toLocaleString('en')} traces stored in ${seedSeconds.toFixed(0)} s (${Math.round(total / seedSeconds).toLocaleString('en')}/s through the store)`);
  const files = readdirSync(dir).map((name) => `${name} ${(statSync(join(dir, name)).size / 1024 / 1024).toFixed(0)} MB`).join(', ');
  console.log(`data directory: ${(size / 1024 / 1024).toFixed(0)} MB (${files}), ${((size / total) * 1e6 / 1024 / 1024 / 1024).toFixed(2)} GB per million observations`);

  const server = await startServerProcess(dir);
  const auth = { authorization: `Basic ${Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')}` };
  const requests = Number(args.requests);
  const timed = async (path) => {
    const started = performance.now();
    const response = await fetch(server.url + path, { headers: auth });
    await response.text();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    return performance.now() - started;
  };
  const rss = [rssMb(server.child.pid)];
  const traceTimes = [];
  for (let i = 0; i < requests; i++) traceTimes.push(await timed(`/api/public/traces/trace-${(i * 7919) % traces}`));
  rss.push(rssMb(server.child.pid));
  const pageTimes = [];
  let cursor;
  for (let i = 0; i < requests; i++) {
    // Pages walk down from the newest; every 20th restarts at the top.
    const response = await (async () => {
      const started = performance.now();
      const answer = await fetch(`${server.url}/api/public/v2/observations?limit=50&fields=core,basic,usage${cursor && i % 20 ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { headers: auth });
      const body = await answer.json();
      pageTimes.push(performance.now() - started);
      return body;
    })();
    cursor = response.meta.cursor;
  }
  rss.push(rssMb(server.child.pid));
  const filteredTimes = [];
  for (let i = 0; i < requests / 4; i++) filteredTimes.push(await timed(`/api/public/v2/observations?limit=50&traceId=trace-${(i * 104729) % traces}`));
  rss.push(rssMb(server.child.pid));
  server.child.kill('SIGTERM');

  console.log(`\n${requests} requests each, one at a time       p50        p99`);
  console.log(`GET /api/public/traces/{id} (100 obs.)  ${ms(percentile(traceTimes, 50))} ${ms(percentile(traceTimes, 99))}`);
  console.log(`GET /api/public/v2/observations page    ${ms(percentile(pageTimes, 50))} ${ms(percentile(pageTimes, 99))}`);
  console.log(`  ... filtered by traceId               ${ms(percentile(filteredTimes, 50))} ${ms(percentile(filteredTimes, 99))}`);
  console.log(`server RSS: ${rss.map((mb) => `${mb.toFixed(0)} MB`).join(' -> ')} (start, after traces, after pages, after filtered pages)`);
  rmSync(dir, { recursive: true, force: true });
}

if (!args.only || args.only === 'prompts') await benchPrompts();
if (!args.only || args.only === 'reads') await benchReads();
