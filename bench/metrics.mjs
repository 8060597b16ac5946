#!/usr/bin/env node
// The local server's Metrics API v1 (legacy mode) against v2 (dual mode) over the same store:
// N observations in traces of 100 (one span, 99 generations over 3 models), seeded through
// dist/store.mjs, then one server per mode on that data directory, in its own process, asked one
// request at a time. Timed: the query `cost report --by model` sends (v1 in legacy, v2 in dual:
// the peer), the same per day, and v1's traces view with its observations' aggregates (cost and
// latency per trace name), which v2 does not have. Linux: the server's RSS from /proc.
//
//   node bench/metrics.mjs [--observations 100000] [--requests 20]
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { firstJsonLine } from './servers.mjs';

const { values: args } = parseArgs({ options: { observations: { type: 'string', default: '100000' }, requests: { type: 'string', default: '20' } } });
const root = join(import.meta.dirname, '..');
const { Store } = await import(join(root, 'dist', 'store.mjs')).catch(() => {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
});

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];
const ms = (n) => `${n.toFixed(1)} ms`.padStart(10);
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5'];

function startServer(dataDir, mode) {
  const child = spawn(process.execPath, [join(root, 'bin', 'llmobs.js'), 'server', '--port', '0', '--json', '--data-dir', dataDir, '--write-mode', mode], { stdio: ['ignore', 'pipe', 'ignore'] });
  return firstJsonLine(child);
}

const total = Number(args.observations);
const perTrace = 100;
const traces = Math.ceil(total / perTrace);
const dir = mkdtempSync(join(tmpdir(), 'llmobs-bench-metrics-'));
const { store } = Store.open({ dataDir: dir, now: () => new Date() });
const projectId = store.project.id;
const key = store.apiKeys[0];
const base = Date.UTC(2026, 0, 1);
// Traces a minute apart: 100,000 observations span about 17 hours.
for (let t = 0; t < traces; t += 100) {
  store.write((tx) => {
    for (let k = t; k < Math.min(traces, t + 100); k++) {
      const traceId = `trace-${k}`;
      const at = new Date(base + k * 60_000).toISOString();
      tx.traces.put({ id: traceId, projectId, timestamp: at, name: `route-${k % 7}`, userId: `user-${k % 50}`, sessionId: null, release: null, version: null, environment: 'default', public: false, bookmarked: false, tags: [], metadata: {}, input: null, output: null, createdAt: at, updatedAt: at });
      for (let i = 0; i < perTrace; i++) {
        const startTime = new Date(base + k * 60_000 + i * 10).toISOString();
        tx.observations.put({
          id: `${traceId}-o${i}`, projectId, traceId, parentObservationId: i === 0 ? null : `${traceId}-o0`, type: i === 0 ? 'SPAN' : 'GENERATION', name: i === 0 ? 'request' : 'llm-call',
          environment: 'default', startTime, endTime: new Date(Date.parse(startTime) + 1200).toISOString(), completionStartTime: null, level: 'DEFAULT', statusMessage: null, version: null,
          input: null, output: null, metadata: {}, providedModelName: i === 0 ? null : MODELS[i % 3], internalModelId: null, modelParameters: null, providedUsageDetails: {}, providedCostDetails: {},
          usageDetails: i === 0 ? {} : { input: 120, output: 40, total: 160 }, costDetails: i === 0 ? {} : { input: 0.0003, output: 0.0004, total: 0.0007 }, totalCost: i === 0 ? null : 0.0007,
          usagePricingTierId: null, usagePricingTierName: null, promptId: null, promptName: null, promptVersion: null, createdAt: startTime, updatedAt: startTime,
        });
      }
    }
  });
}
store.close();

const range = { fromTimestamp: new Date(base).toISOString(), toTimestamp: new Date(base + 31 * 86_400_000).toISOString() };
const costReport = (time) => ({
  view: 'observations', dimensions: [{ field: 'providedModelName' }],
  metrics: [{ measure: 'totalCost', aggregation: 'sum' }, { measure: 'inputTokens', aggregation: 'sum' }, { measure: 'outputTokens', aggregation: 'sum' }, { measure: 'count', aggregation: 'count' }],
  filters: [{ column: 'type', operator: 'none of', value: ['SPAN', 'EVENT'], type: 'stringOptions' }],
  timeDimension: time ? { granularity: 'day' } : null, ...range, orderBy: [{ field: 'sum_totalCost', direction: 'desc' }], config: { row_limit: 1000 },
});
const traceView = { view: 'traces', dimensions: [{ field: 'name' }], metrics: [{ measure: 'count', aggregation: 'count' }, { measure: 'totalCost', aggregation: 'sum' }, { measure: 'latency', aggregation: 'p95' }], ...range };

async function time(mode, cases) {
  const server = await startServer(dir, mode);
  const auth = { authorization: `Basic ${Buffer.from(`${key.publicKey}:${key.secretKey}`).toString('base64')}` };
  const rows = [];
  for (const [label, path, query] of cases) {
    const times = [];
    for (let i = 0; i < Number(args.requests); i++) {
      const started = performance.now();
      const response = await fetch(`${server.url}${path}?query=${encodeURIComponent(JSON.stringify(query))}`, { headers: auth });
      await response.text();
      if (response.status !== 200) throw new Error(`${label} answered ${response.status}`);
      times.push(performance.now() - started);
    }
    rows.push(`${label.padEnd(46)} ${ms(percentile(times, 50))} ${ms(percentile(times, 99))}`);
  }
  rows.push(`server RSS after: ${rssMb(server.child.pid).toFixed(0)} MB`);
  server.child.kill('SIGTERM');
  return rows;
}

console.log(`${total.toLocaleString('en')} observations in ${traces.toLocaleString('en')} traces; ${args.requests} requests each, one at a time`);
console.log(`${'query'.padEnd(46)}        p50        p99`);
for (const line of await time('dual', [['v2 (dual): cost report by model', '/api/public/v2/metrics', costReport(false)], ['v2 (dual): the same per day', '/api/public/v2/metrics', costReport(true)]])) console.log(line);
for (const line of await time('legacy', [
  ['v1 (legacy): cost report by model', '/api/public/metrics', costReport(false)],
  ['v1 (legacy): the same per day', '/api/public/metrics', costReport(true)],
  ['v1 (legacy): traces view, cost and p95 latency', '/api/public/metrics', traceView],
])) console.log(line);
rmSync(dir, { recursive: true, force: true });
