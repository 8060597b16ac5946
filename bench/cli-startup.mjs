#!/usr/bin/env node
// Whole-process time of counting "hello" from the command line, against a bare `node -e ""` and
// against what a user would write with the other libraries, all in one run.
//   node bench/cli-startup.mjs [--runs 30]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 30) || 30;
const bin = join(root, 'bin', 'llmobs.js');
const node = (code) => [process.execPath, ['--input-type=module', '-e', code]];

const cases = [
  ['node -e ""', [process.execPath, ['-e', '']]],
  ['llmobs --version', [process.execPath, [bin, '--version']]],
  ['llmobs tokens count --encoding o200k_base "hello"', [process.execPath, [bin, 'tokens', 'count', '--encoding', 'o200k_base', 'hello']]],
  ['llmobs tokens count --encoding cl100k_base "hello"', [process.execPath, [bin, 'tokens', 'count', '--encoding', 'cl100k_base', 'hello']]],
  ['js-tiktoken o200k_base "hello"', node(`import { getEncoding } from 'js-tiktoken'; console.log(getEncoding('o200k_base').encode('hello').length)`)],
  ['tiktoken (WASM) o200k_base "hello"', node(`import { get_encoding } from 'tiktoken'; const e = get_encoding('o200k_base'); console.log(e.encode('hello').length)`)],
  ['gpt-tokenizer o200k_base "hello"', node(`import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'; console.log(countTokens('hello'))`)],
];

function time([command, args]) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const medians = new Map();
for (const [name, command] of cases) {
  time(command); // warm the file cache
  const samples = Array.from({ length: runs }, () => time(command)).sort((a, b) => a - b);
  medians.set(name, samples[Math.floor(samples.length / 2)]);
}
const base = medians.get('node -e ""');
for (const [name, median] of medians) console.log(`${median.toFixed(1).padStart(8)} ms  ${(median / base).toFixed(2)}×  ${name}`);
