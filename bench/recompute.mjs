#!/usr/bin/env node
// Throughput and peak memory of `llmobs cost recompute --input` over an export of generations.
//   node bench/recompute.mjs [lines=1000000] [--runs 3] [--lean] [--no-baselines]
// The file (bench/.cache/recompute-N.jsonl) has the shape `observations export` writes: every
// field group, input and output as the raw strings v2 returns, usage and stored cost (about
// 1 KB a line); 1 line in 20 has no usage (re-priced by tokenizing its input and output), 1 in
// 40 has a model no definition matches. --lean: the lines of an export made for re-pricing
// (`--fields core,basic,model,usage`, about 600 bytes: no input, output or metadata). Each run is a fresh process running the CLI's entry point; it reports wall
// time and peak RSS. In the same run, what a user would do instead: sum the stored cost per
// model with `jq` (no re-pricing at all), and a Node readline script that parses every line and
// multiplies usage by a hard-coded price table (no matching, tiers or tokenizing).
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const lines = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 1_000_000);
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 3) || 3;
const skipBaselines = process.argv.includes('--no-baselines');
const lean = process.argv.includes('--lean');
const cache = join(root, 'bench', '.cache');
mkdirSync(cache, { recursive: true });
const file = join(cache, `recompute-${lines}${lean ? '-lean' : ''}.jsonl`);

// Written by a child process: a process's peak RSS counts its parent's at the fork, so the
// measuring parent stays small.
if (!existsSync(file) && process.argv.includes('--generate')) {
  const models = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'o3', 'gpt-4.1', 'claude-opus-4-1'];
  const out = createWriteStream(file);
  let chunk = '';
  const start = Date.parse('2026-05-01T00:00:00.000Z');
  for (let i = 0; i < lines; i++) {
    const model = i % 40 === 7 ? 'my-unknown-model' : models[i % models.length];
    const withUsage = i % 20 !== 3;
    const input = 900 + (i % 977);
    const output = 80 + (i % 333);
    const t = new Date(start + i * 2000).toISOString();
    const row = {
      id: `obs-${i.toString(36).padStart(8, '0')}`,
      traceId: `trace-${Math.floor(i / 4).toString(36).padStart(8, '0')}`,
      startTime: t,
      endTime: new Date(start + i * 2000 + 1500).toISOString(),
      projectId: 'p1',
      parentObservationId: `span-${Math.floor(i / 4)}`,
      type: 'GENERATION',
      name: 'llm-call',
      level: 'DEFAULT',
      statusMessage: null,
      version: null,
      environment: 'production',
      userId: `user-${i % 113}`,
      sessionId: null,
      ...(lean ? {} : {
        completionStartTime: null,
        input: JSON.stringify([{ role: 'system', content: 'You are a helpful assistant.' }, { role: 'user', content: `Question number ${i}: what is the capital of France?` }]),
        output: `The capital of France is Paris (${i}).`,
        metadata: { feature: 'chat', tenant: `t-${i % 9}` },
      }),
      providedModelName: model,
      internalModelId: model === 'my-unknown-model' ? null : `m-${model}`,
      modelParameters: i % 10 === 0 ? { temperature: 0.2, service_tier: 'priority' } : { temperature: 0.2 },
      usageDetails: withUsage ? { input, output, total: input + output } : {},
      costDetails: withUsage ? { input: input * 0.0000025, output: output * 0.00001, total: input * 0.0000025 + output * 0.00001 } : {},
      totalCost: withUsage ? input * 0.0000025 + output * 0.00001 : 0,
      usagePricingTierName: 'Standard',
      modelId: null,
      inputPrice: null,
      outputPrice: null,
      totalPrice: null,
    };
    chunk += `${JSON.stringify(row)}\n`;
    if (chunk.length > 1 << 20) {
      out.write(chunk);
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise((resolve) => out.on('finish', resolve));
  process.exit(0);
}
if (!existsSync(file)) {
  const made = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...process.argv.slice(2), '--generate'], { stdio: 'inherit' });
  if (made.status !== 0) throw new Error('could not generate the input file');
}

const runner = `
  const { run } = await import(${JSON.stringify(join(root, 'dist', 'cli.mjs'))});
  const started = performance.now();
  const code = await run(['cost', 'recompute', '--input', ${JSON.stringify(file)}, '--json']);
  const ms = performance.now() - started;
  process.stderr.write('\\n@@' + JSON.stringify({ code, ms, maxRssKb: process.resourceUsage().maxRSS }) + '\\n');
`;
// What a script would do without llmobs: parse each line, multiply usage by a price table.
const naive = `
  const { createReadStream } = await import('node:fs');
  const { createInterface } = await import('node:readline');
  const prices = { 'gpt-4o': [2.5e-6, 1e-5], 'gpt-4o-mini': [1.5e-7, 6e-7], 'claude-sonnet-4-5': [3e-6, 1.5e-5], 'gemini-2.5-pro': [1.25e-6, 1e-5], o3: [2e-6, 8e-6], 'gpt-4.1': [2e-6, 8e-6], 'claude-opus-4-1': [1.5e-5, 7.5e-5] };
  const started = performance.now();
  const totals = new Map();
  for await (const line of createInterface({ input: createReadStream(${JSON.stringify(file)}), crlfDelay: Infinity })) {
    const o = JSON.parse(line);
    const p = prices[o.providedModelName];
    const u = o.usageDetails ?? {};
    const cost = p ? (u.input ?? 0) * p[0] + (u.output ?? 0) * p[1] : 0;
    totals.set(o.providedModelName, (totals.get(o.providedModelName) ?? 0) + cost);
  }
  process.stdout.write(JSON.stringify([...totals]));
  const ms = performance.now() - started;
  process.stderr.write('\\n@@' + JSON.stringify({ code: 0, ms, maxRssKb: process.resourceUsage().maxRSS }) + '\\n');
`;

function node(script) {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8', maxBuffer: 1 << 26 });
  const report = JSON.parse(child.stderr.split('@@').at(-1));
  if (report.code !== 0) throw new Error(`run failed with exit ${report.code}: ${child.stderr.slice(0, 2000)}`);
  return report;
}

// Summing the stored cost per model with jq: the usual one-liner, which re-prices nothing.
function jq() {
  const started = performance.now();
  const child = spawnSync('/usr/bin/time', ['-f', '@@%M', 'jq', '-n', 'reduce inputs as $o ({}; .[$o.providedModelName] += ($o.totalCost // 0))', file], { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - started;
  if (child.error || child.status !== 0) return undefined;
  return { ms, maxRssKb: Number(child.stderr.split('@@').at(-1)) };
}

const rate = (report) => `${Math.round(lines / (report.ms / 1000)).toLocaleString('en-US')} generations/s`;
const rss = (report) => `${(report.maxRssKb / 1024).toFixed(0)} MB`;
const results = { llmobs: [], naive: [], jq: [] };
for (let i = 0; i < runs; i++) {
  results.llmobs.push(node(runner));
  if (!skipBaselines) {
    results.naive.push(node(naive));
    const j = jq();
    if (j) results.jq.push(j);
  }
}
const best = (list) => list.reduce((a, b) => (b.ms < a.ms ? b : a));
const worst = (list) => list.reduce((a, b) => (b.ms > a.ms ? b : a));
console.log(`cost recompute --input, ${lines.toLocaleString('en-US')} exported generations${lean ? ', lean lines' : ''} (${file}, ${Math.round(statSync(file).size / lines)} bytes a line)`);
console.log(`llmobs cost recompute         best ${rate(best(results.llmobs))}, worst ${rate(worst(results.llmobs))}, peak RSS ${rss(worst(results.llmobs))}`);
if (results.naive.length) console.log(`node readline + price table   best ${rate(best(results.naive))}, peak RSS ${rss(worst(results.naive))} (no matching, tiers or tokenizing)`);
if (results.jq.length) console.log(`jq: sum stored cost per model best ${rate(best(results.jq))}, peak RSS ${rss(worst(results.jq))} (re-prices nothing)`);
