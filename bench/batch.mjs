#!/usr/bin/env node
// Throughput and peak memory of `llmobs estimate --batch` on generations with provided usage.
//   node bench/batch.mjs [lines=1000000] [--runs 3]
// The file is generated once under bench/.cache/. Each run is a fresh process running the CLI's
// own entry point with real stdout (to /dev/null); it reports wall time and its peak RSS.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lines = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 3) || 3;
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
  const { run } = await import(${JSON.stringify(join(root, 'dist', 'cli.js'))});
  const started = performance.now();
  const code = await run(['estimate', '--batch', ${JSON.stringify(file)}]);
  const ms = performance.now() - started;
  process.stderr.write('\\n@@' + JSON.stringify({ code, ms, maxRssKb: process.resourceUsage().maxRSS }) + '\\n');
`;
const results = [];
for (let i = 0; i < runs; i++) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', runner], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  const report = JSON.parse(child.stderr.split('@@').at(-1));
  if (report.code !== 0) throw new Error(`run failed with exit ${report.code}: ${child.stderr.slice(0, 2000)}`);
  results.push(report);
  console.log(`run ${i + 1}: ${(report.ms / 1000).toFixed(2)} s, ${Math.round(lines / (report.ms / 1000)).toLocaleString('en-US')} lines/s, peak RSS ${(report.maxRssKb / 1024).toFixed(0)} MB`);
}
const best = results.reduce((a, b) => (a.ms < b.ms ? a : b));
console.log(`best of ${runs}: ${Math.round(lines / (best.ms / 1000)).toLocaleString('en-US')} lines/s; peak RSS max ${(Math.max(...results.map((r) => r.maxRssKb)) / 1024).toFixed(0)} MB (${lines.toLocaleString('en-US')} lines)`);
