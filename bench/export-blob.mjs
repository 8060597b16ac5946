#!/usr/bin/env node
// Throughput and peak memory of `llmobs export blob` to a local S3-compatible server (s3rver),
// against `llmobs observations export` of the same observations to a file, in one run.
//   node bench/export-blob.mjs [n=1000000] [--formats jsonl,parquet]
// The observations come from a loopback server in its own process that builds v2 pages on the fly
// for any start-time window (about 1 KB per observation, one a second up to 30 minutes ago), so
// what is measured is llmobs. s3rver runs in its own process with its store in a temporary folder.
// Each export is a fresh process (dist/cli.mjs's run()); it reports wall time and its own peak RSS.
// The bucket is then read back through its manifests (every id once, none missing).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { firstJsonLine } from './servers.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const n = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const formats = (process.argv.includes('--formats') ? process.argv[process.argv.indexOf('--formats') + 1] : 'jsonl,parquet').split(',');
const work = mkdtempSync(join(tmpdir(), 'llmobs-bench-blob-'));
// The newest observation starts 30 minutes ago, the oldest n seconds before: all older than the lag bound.
const newest = Math.floor((Date.now() - 30 * 60_000) / 1000) * 1000;

const fakeServer = `
  const { createServer } = await import('node:http');
  const N = ${n};
  const NEWEST = ${newest};
  // Observation i starts at NEWEST - i seconds: index order is the v2 API's order (newest first).
  const startOf = (i) => NEWEST - i * 1000;
  const models = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro'];
  const item = (i) => {
    const t = new Date(startOf(i)).toISOString();
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
    if (url.pathname === '/api/public/projects') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"data":[{"id":"p1","name":"bench","organization":{"id":"o","name":"o"},"metadata":{}}]}');
    }
    const q = url.searchParams;
    // fromStartTime <= start < toStartTime, as index bounds: [lo, hi).
    const to = q.has('toStartTime') ? Date.parse(q.get('toStartTime')) : Infinity;
    const from = q.has('fromStartTime') ? Date.parse(q.get('fromStartTime')) : -Infinity;
    const lo = Math.max(0, Math.ceil((NEWEST - to) / 1000 + 1e-9));
    const hi = Math.min(N, Math.floor((NEWEST - from) / 1000) + 1);
    const limit = Number(q.get('limit') ?? 50);
    const start = q.has('cursor') ? JSON.parse(Buffer.from(q.get('cursor'), 'base64').toString()).next : lo;
    const end = Math.min(hi, start + limit);
    const parts = [];
    for (let i = start; i < end; i++) parts.push(item(i));
    const meta = end < hi ? '{"cursor":"' + Buffer.from(JSON.stringify({ next: end })).toString('base64') + '"}' : '{}';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":[' + parts.join(',') + '],"meta":' + meta + '}');
  });
  server.keepAliveTimeout = 10000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:' + server.address().port }) + '\\n'));
`;

const s3Server = (dir) => `
  const { default: S3rver } = await import(${JSON.stringify(join(root, 'node_modules', 's3rver', 'lib', 's3rver.js'))});
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: ${JSON.stringify(dir)}, configureBuckets: [{ name: 'bench', configs: [] }] });
  const { port } = await server.run();
  process.stdout.write(JSON.stringify({ url: 'http://127.0.0.1:' + port }) + '\\n');
`;

function ready(child) {
  return firstJsonLine(child, 'process');
}
const background = (script) => ready(spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] }));

const data = await background(fakeServer);
const s3 = await background(s3Server(join(work, 's3')));
const env = { ...process.env, LANGFUSE_HOST: data.url, LANGFUSE_PUBLIC_KEY: 'pk-lf-bench', LANGFUSE_SECRET_KEY: 'sk-lf-bench', HOME: work, LLMOBS_CONFIG_DIR: join(work, 'config'), AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' };

function cli(args) {
  const script = `
    const { run } = await import(${JSON.stringify(join(root, 'dist', 'cli.mjs'))});
    const started = performance.now();
    const code = await run(${JSON.stringify(args)});
    process.stderr.write('\\n@@' + JSON.stringify({ code, ms: performance.now() - started, maxRssKb: process.resourceUsage().maxRSS }) + '\\n');
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  const report = JSON.parse(child.stderr.split('@@').at(-1));
  if (report.code !== 0) throw new Error(`${args.join(' ')} failed with exit ${report.code}: ${child.stderr.slice(-2000)}`);
  return report;
}

/** Reads the bucket through its manifests as a consumer does: every id once. */
async function check(prefix, parquet) {
  const { S3Client, ListObjectsV2Command, GetObjectCommand } = await import('@aws-sdk/client-s3');
  const { parquetReadObjects } = await import('hyparquet');
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const client = new S3Client({ endpoint: s3.url, region: 'auto', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } });
  const get = async (key) => Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: 'bench', Key: key }))).Body.transformToByteArray());
  const keys = [];
  let token;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: 'bench', Prefix: `${prefix}p1/manifests/`, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key));
    token = page.NextContinuationToken;
  } while (token);
  const ids = new Set();
  let rows = 0;
  let bytes = 0;
  for (const key of keys) {
    for (const file of JSON.parse(await get(key)).files) {
      const body = await get(file.key);
      bytes += body.length;
      const list = parquet ? (await parquetReadObjects({ file: body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength), columns: ['id'] })).map((r) => r.id) : gunzipSync(body).toString().split('\n').filter(Boolean).map((l) => JSON.parse(l).id);
      rows += list.length;
      for (const id of list) ids.add(id);
    }
  }
  client.destroy();
  if (rows !== n || ids.size !== n) throw new Error(`${prefix}: ${rows} rows, ${ids.size} distinct ids in ${keys.length} manifests, expected ${n}`);
  return { manifests: keys.length, mb: bytes / 1e6 };
}

const rows = [];
try {
  const file = join(work, 'all.jsonl');
  const reference = cli(['observations', 'export', '--output', file, '--force']);
  rows.push({ what: '`observations export` to a JSON Lines file', ...reference, note: '' });
  rmSync(file, { force: true });
  for (const format of formats) {
    const prefix = `${format}/`;
    const report = cli(['export', 'blob', `s3://bench/${prefix}`, '--endpoint', s3.url, '--force-path-style', '--interval', 'daily', '--format', format]);
    const { manifests, mb } = await check(prefix, format === 'parquet');
    rows.push({ what: `\`export blob\` to s3rver, ${format === 'parquet' ? 'Parquet' : 'gzipped JSON Lines'}`, ...report, note: `${manifests} daily windows, ${mb.toFixed(0)} MB in the bucket` });
  }
} finally {
  data.child.kill();
  s3.child.kill();
  rmSync(work, { recursive: true, force: true });
}
console.log(`${n.toLocaleString('en-US')} observations, pages of 1,000, one process per export`);
console.log('| what | rows/s | seconds | peak RSS | |\n| --- | --- | --- | --- | --- |');
for (const r of rows) console.log(`| ${r.what} | ${Math.round(n / (r.ms / 1000)).toLocaleString('en-US')} | ${(r.ms / 1000).toFixed(1)} | ${(r.maxRssKb / 1024).toFixed(0)} MB | ${r.note} |`);
