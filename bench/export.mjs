#!/usr/bin/env node
// Throughput and peak memory of `llmobs observations export` over N observations.
//   node bench/export.mjs [n=1000000] [--server fake|local] [--runs 2] [--no-baselines]
// --server fake (default): a loopback server in its own process that makes v2 observation pages
//   on the fly (cursor = position), about 1 KB per observation with input and output, as fast as
//   it can: what llmobs itself costs. --server local: `llmobs server` in its own process, its
//   SQLite store filled with N generations first (slow to fill for a million; the export is what
//   is measured).
// Each run is a fresh process (the CLI's entry point, output to a file with its checkpoint);
// it reports wall time and its own peak RSS. In the same run, what a user would write instead:
// a Node script with fetch() that follows meta.cursor and appends JSON lines (no checkpoint,
// no resume, no retry). The output is checked: N lines, N distinct ids.
import { spawn, spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { fillStore } from './fill-store.mjs';
import { firstJsonLine } from './servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const n = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 2) || 2;
const kind = process.argv.includes('--server') ? process.argv[process.argv.indexOf('--server') + 1] : 'fake';
const skipBaselines = process.argv.includes('--no-baselines');
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-export-'));

// The fake server: one process, pages computed from the cursor (the position), no storage.
const fakeServer = `
  const { createServer } = await import('node:http');
  const N = ${n};
  const base = Date.parse('2026-05-01T00:00:00.000Z');
  const models = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro'];
  const item = (i) => {
    const t = new Date(base + (N - i) * 1000).toISOString();
    const input = 900 + (i % 977), output = 80 + (i % 333);
    return '{"id":"obs-' + i + '","traceId":"trace-' + (i >> 2) + '","startTime":"' + t + '","endTime":"' + t + '","projectId":"p1","parentObservationId":null,"type":"GENERATION",'
      + '"name":"llm-call","level":"DEFAULT","statusMessage":null,"version":null,"environment":"production","bookmarked":false,"public":false,"userId":"user-' + (i % 97) + '","sessionId":null,"isRootObservation":true,'
      + '"completionStartTime":null,"createdAt":"' + t + '","updatedAt":"' + t + '",'
      + '"input":"[{\\\\"role\\\\":\\\\"system\\\\",\\\\"content\\\\":\\\\"You are a helpful assistant.\\\\"},{\\\\"role\\\\":\\\\"user\\\\",\\\\"content\\\\":\\\\"Question ' + i + ': what is the capital of France?\\\\"}]",'
      + '"output":"The capital of France is Paris (' + i + ').","metadata":{"feature":"chat"},'
      + '"providedModelName":"' + models[i % 4] + '","internalModelId":"m' + (i % 4) + '","modelParameters":{"temperature":0.2},'
      + '"usageDetails":{"input":' + input + ',"output":' + output + ',"total":' + (input + output) + '},"costDetails":{"total":0.001},"totalCost":0.001,"usagePricingTierName":"Standard",'
      + '"promptId":null,"promptName":null,"promptVersion":null,"latency":1.5,"timeToFirstToken":null,"traceName":"chat","tags":[],"release":null,'
      + '"modelId":"m' + (i % 4) + '","inputPrice":"0.0000025","outputPrice":"0.00001","totalPrice":null}';
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const from = url.searchParams.has('cursor') ? JSON.parse(Buffer.from(url.searchParams.get('cursor'), 'base64').toString()).lastId + 1 : 0;
    const to = Math.min(N, from + limit);
    const parts = [];
    for (let i = from; i < to; i++) parts.push(item(i));
    const meta = to < N ? '{"cursor":"' + Buffer.from(JSON.stringify({ lastId: to - 1 })).toString('base64') + '"}' : '{}';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[' + parts.join(',') + '],"meta":' + meta + '}');
  });
  server.keepAliveTimeout = 10000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port, publicKey: 'pk-lf-bench', secretKey: 'sk-lf-bench' }) + '\\n'));
`;

function startServerProcess() {
  let child;
  if (kind === 'local') {
    const dir = join(work, 'data');
    fillStore(dir, n);
    child = spawn(process.execPath, [join(root, 'bin', 'llmobs.js'), 'server', '--port', '0', '--json', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'ignore'] });
    return ready(child);
  }
  child = spawn(process.execPath, ['--input-type=module', '-e', fakeServer], { stdio: ['ignore', 'pipe', 'inherit'] });
  return ready(child);
}

function ready(child) {
  return firstJsonLine(child);
}

const server = await startServerProcess();
const env = { ...process.env, LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.publicKey, LANGFUSE_SECRET_KEY: server.secretKey, HOME: work, LLMOBS_CONFIG_DIR: join(work, 'config') };

const runner = (file) => `
  const { run } = await import(${JSON.stringify(join(root, 'dist', 'cli.mjs'))});
  const started = performance.now();
  const code = await run(['observations', 'export', '--output', ${JSON.stringify(file)}, '--force']);
  const ms = performance.now() - started;
  process.stderr.write('\\n@@' + JSON.stringify({ code, ms, maxRssKb: process.resourceUsage().maxRSS }) + '\\n');
`;
// What a user writes without llmobs: fetch pages, follow the cursor, append lines.
const fetchLoop = (file) => `
  const { createWriteStream } = await import('node:fs');
  const out = createWriteStream(${JSON.stringify(file)});
  const auth = 'Basic ' + Buffer.from(process.env.LANGFUSE_PUBLIC_KEY + ':' + process.env.LANGFUSE_SECRET_KEY).toString('base64');
  const started = performance.now();
  let cursor;
  do {
    const url = new URL('/api/public/v2/observations', process.env.LANGFUSE_HOST);
    url.searchParams.set('limit', '1000');
    url.searchParams.set('fields', 'core,basic,time,io,metadata,model,usage,prompt,metrics,trace_context');
    if (cursor) url.searchParams.set('cursor', cursor);
    const page = await (await fetch(url, { headers: { authorization: auth } })).json();
    let text = '';
    for (const item of page.data) text += JSON.stringify(item) + '\\n';
    if (!out.write(text)) await new Promise((resolve) => out.once('drain', resolve));
    cursor = page.meta.cursor;
  } while (cursor);
  await new Promise((resolve) => out.end(resolve));
  const ms = performance.now() - started;
  process.stderr.write('\\n@@' + JSON.stringify({ code: 0, ms, maxRssKb: process.resourceUsage().maxRSS }) + '\\n');
`;

function node(script) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  const report = JSON.parse(child.stderr.split('@@').at(-1));
  if (report.code !== 0) throw new Error(`run failed with exit ${report.code}: ${child.stderr.slice(0, 2000)}`);
  return report;
}

async function check(file) {
  const ids = new Set();
  let lines = 0;
  for await (const line of createInterface({ input: createReadStream(file) })) {
    lines++;
    ids.add(JSON.parse(line).id);
  }
  if (lines !== n || ids.size !== n) throw new Error(`${file}: ${lines} lines, ${ids.size} distinct ids, expected ${n}`);
}

const results = { llmobs: [], fetch: [] };
try {
  for (let i = 0; i < runs; i++) {
    const file = join(work, `export-${i}.jsonl`);
    results.llmobs.push(node(runner(file)));
    await check(file);
    rmSync(file, { force: true });
    if (!skipBaselines) {
      const plain = join(work, `fetch-${i}.jsonl`);
      results.fetch.push(node(fetchLoop(plain)));
      await check(plain);
      rmSync(plain, { force: true });
    }
  }
} finally {
  server.child.kill();
  rmSync(work, { recursive: true, force: true });
}

const rate = (r) => `${Math.round(n / (r.ms / 1000)).toLocaleString('en-US')} lines/s`;
const rss = (r) => `${(r.maxRssKb / 1024).toFixed(0)} MB`;
const best = (list) => list.reduce((a, b) => (b.ms < a.ms ? b : a));
const worst = (list) => list.reduce((a, b) => (b.ms > a.ms ? b : a));
console.log(`observations export, ${n.toLocaleString('en-US')} observations from the ${kind === 'local' ? 'local server (llmobs server)' : 'fake v2 server'}, pages of 1,000`);
console.log(`llmobs observations export   best ${rate(best(results.llmobs))}, worst ${rate(worst(results.llmobs))}, peak RSS ${rss(worst(results.llmobs))} (checkpoint synced about once a second)`);
if (results.fetch.length) console.log(`fetch loop script            best ${rate(best(results.fetch))}, worst ${rate(worst(results.fetch))}, peak RSS ${rss(worst(results.fetch))} (no checkpoint, resume or retry)`);
