#!/usr/bin/env node
// Cold start: a fresh `node` process that loads the o200k_base table and counts "hello", against
// a bare `node -e ""`, median of N runs each (interleaved, so that machine noise hits all alike).
// The other libraries are measured doing the same. See bench/README.md.
//
//   node bench/tokenizer-startup.mjs [--runs 21] [--only llmobs,...]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({ options: { runs: { type: 'string', default: '21' }, only: { type: 'string' } } });
const loader = join(root, 'dist', 'tokenizer.mjs');
if (!existsSync(loader)) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(1);
}

const scripts = {
  'node -e ""': '',
  llmobs: `import { loadTokenizer } from ${JSON.stringify(pathToFileURL(loader).href)};
if (loadTokenizer('o200k_base').count('hello') !== 1) process.exit(2);`,
  'js-tiktoken': `import { getEncoding } from 'js-tiktoken';
if (getEncoding('o200k_base').encode('hello').length !== 1) process.exit(2);`,
  'tiktoken (WASM)': `import { get_encoding } from 'tiktoken';
if (get_encoding('o200k_base').encode('hello').length !== 1) process.exit(2);`,
  'gpt-tokenizer': `import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
if (countTokens('hello') !== 1) process.exit(2);`,
};
const only = args.only?.split(',');
const labels = Object.keys(scripts).filter((l) => l === 'node -e ""' || !only || only.includes(l));

// A small environment, as bench/startup.mjs gives: in particular no NODE_EXTRA_CA_CERTS, which
// makes every Node process (bare node too) read a certificate bundle at start.
const env = { PATH: process.env.PATH, HOME: process.env.HOME };

function once(script) {
  const argv = script ? ['--input-type=module', '-e', script] : ['-e', ''];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`startup script failed (${r.status})`);
  return ms;
}

const runs = Number(args.runs);
const times = Object.fromEntries(labels.map((l) => [l, []]));
for (const l of labels) once(scripts[l]); // warm the file cache
for (let i = 0; i < runs; i++) for (const l of labels) times[l].push(once(scripts[l]));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const bare = median(times['node -e ""']);
console.log(`${runs} runs each, node ${process.version}: load o200k_base and count "hello" in a fresh process`);
console.log('                   median     over bare node   ratio');
for (const l of labels) {
  const m = median(times[l]);
  console.log(`${l.padEnd(18)} ${m.toFixed(1).padStart(7)} ms ${(m - bare).toFixed(1).padStart(9)} ms ${(m / bare).toFixed(2).padStart(8)}x`);
}
