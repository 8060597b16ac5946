#!/usr/bin/env node
// Throughput and peak memory of `llmobs estimate --batch` on generations with provided usage.
//   node bench/batch.mjs [lines=1000000] [--runs 3] [--no-baselines]
// The file is generated once under bench/.cache/. Each run is a fresh process running the CLI's
// own entry point with real stdout (to /dev/null); it reports wall time and its peak RSS. In the
// same run, for scale, two ways to merely read and rewrite every line without estimating: a Node
// readline script and `jq -c .`.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lines = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 3) || 3;
const skipBaselines = process.argv.includes('--no-baselines');
const cache = join(root, 'bench', '.cache');
mkdirSync(cache, { recursive: true });
const file = join(cache, `batch-${lines}.jsonl`);

if (!existsSync(file)) {
  const models = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'o3', 'my-unknown-model', 'gpt-4.1', 'claude-opus-4-1'];
  const out = createWriteStream(file);
  let chunk = '';
  for (let i = 0; i < lines; i++) {
    const usage = i % 3 === 0
      ? { prompt_tokens: 1200 + (i % 977), completion_tokens: 100 + (i % 333), total_tokens: 1300 + (i % 977) + (i % 333), prompt_tokens_details: { cached_tokens: i % 50 } }
      : { input: 1000 + (i % 977), output: 100 + (i % 333), input_cached_tokens: i % 50 };
    chunk += `${JSON.stringify({ id: `gen-${i}`, model: models[i % models.length], usageDetails: usage, ...(i % 10 === 0 ? { modelParameters: { service_tier: 'priority' } } : {}) })}\n`;
    if (chunk.length > 1 << 20) {
      out.write(chunk);
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise((resolve) => out.on('finish', resolve));
}

const runner = `
  const { run } = await import(${JSON.stringify(join(root, 'dist', 'cli.mjs'))});
  const started = performance.now();
  const code = await run(['estimate', '--batch', ${JSON.stringify(file)}, '--offline']);
  const ms = performance.now() - started;
  process.stderr.write('\\n@@' + JSON.stringify({ code, ms, maxRssKb: process.resourceUsage().maxRSS }) + '\\n');
`;
// The floor of any Node script that reads JSONL: readline, JSON.parse and JSON.stringify of each
// line, no estimation at all.
const floor = `
  const { createReadStream } = await import('node:fs');
  const { createInterface } = await import('node:readline');
  const started = performance.now();
  for await (const line of createInterface({ input: createReadStream(${JSON.stringify(file)}), crlfDelay: Infinity })) {
    if (!process.stdout.write(JSON.stringify(JSON.parse(line)) + '\\n')) await new Promise((resolve) => process.stdout.once('drain', resolve));
  }
  const ms = performance.now() - started;
  process.stderr.write('\\n@@' + JSON.stringify({ code: 0, ms, maxRssKb: process.resourceUsage().maxRSS }) + '\\n');
`;

function node(script) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  const report = JSON.parse(child.stderr.split('@@').at(-1));
  if (report.code !== 0) throw new Error(`run failed with exit ${report.code}: ${child.stderr.slice(0, 2000)}`);
  return report;
}

// `jq -c .` re-serialises each line: what a shell pipeline pays just to touch the file.
function jq() {
  const started = performance.now();
  const child = spawnSync('/usr/bin/time', ['-f', '@@%M', 'jq', '-c', '.', file], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (child.error || child.status !== 0) return undefined;
  return { ms, maxRssKb: Number(child.stderr.split('@@').at(-1)) };
}

const rate = (report) => `${Math.round(lines / (report.ms / 1000)).toLocaleString('en-US')} lines/s`;
const rss = (report) => `${(report.maxRssKb / 1024).toFixed(0)} MB`;
const results = { llmobs: [], floor: [], jq: [] };
for (let i = 0; i < runs; i++) {
  const report = node(runner);
  results.llmobs.push(report);
  console.log(`run ${i + 1}: ${(report.ms / 1000).toFixed(2)} s, ${rate(report)}, peak RSS ${rss(report)}`);
  if (skipBaselines) continue;
  results.floor.push(node(floor));
  const jqReport = jq();
  if (jqReport) results.jq.push(jqReport);
}
const best = (reports) => reports.reduce((a, b) => (a.ms < b.ms ? a : b));
console.log(`best of ${runs}: ${rate(best(results.llmobs))}; peak RSS max ${rss({ maxRssKb: Math.max(...results.llmobs.map((r) => r.maxRssKb)) })} (${lines.toLocaleString('en-US')} lines)`);
if (results.floor.length > 0) console.log(`same run, no estimation: node readline + JSON.parse + JSON.stringify ${rate(best(results.floor))} (${rss(best(results.floor))})`);
if (results.jq.length > 0) console.log(`same run, no estimation: jq -c . ${rate(best(results.jq))} (${rss(best(results.jq))})`);
else if (!skipBaselines) console.log('jq not found: no jq baseline');
