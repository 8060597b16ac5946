#!/usr/bin/env node
// What output shaping and completion cost, against what a user would do instead, in one run:
//   node bench/output.mjs [--runs 20]
// 1. --jq: the jq WebAssembly module loads only when --jq is given. `tokens count` with --json,
//    with --jq, and piped into the system's jq (when installed).
// 2. Completion per TAB: the static scripts in completions/ (bash, zsh, fish; no Node.js start)
//    against a completion that runs the CLI for every TAB, as @bomb.sh/tab and @pnpm/tabtab do
//    (its floor: starting llmobs at all), and against the one dynamic lookup the scripts make
//    (profile names).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] ?? 20) || 20;
const bin = join(root, 'bin', 'llmobs.js');
const home = mkdtempSync(join(tmpdir(), 'llmobs-bench-'));
const env = { ...process.env, HOME: home, LLMOBS_CONFIG_DIR: join(home, 'config') };
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

function time(command, args, options = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

function median(command, args, options) {
  time(command, args, options);
  const samples = Array.from({ length: runs }, () => time(command, args, options)).sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const rows = [];
const add = (name, ms) => rows.push([name, ms]);

add('node -e ""', median(process.execPath, ['-e', '']));
add('llmobs tokens count hello --json', median(process.execPath, [bin, 'tokens', 'count', 'hello', '--json']));
add("llmobs tokens count hello --jq '.tokens'", median(process.execPath, [bin, 'tokens', 'count', 'hello', '--jq', '.tokens']));
if (has('jq')) add("llmobs tokens count hello --json | jq '.tokens'", median('sh', ['-c', `"${process.execPath}" "${bin}" tokens count hello --json | jq .tokens`]));

// Completion: N TABs in one shell process, minus the same shell doing nothing, divided by N.
const TABS = 50;
const shim = join(home, 'bin');
spawnSync('mkdir', ['-p', shim]);
writeFileSync(join(shim, 'llmobs'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`, { mode: 0o755 });
const perTab = (shell, args, scriptFor) => {
  const file = join(home, `tabs.${shell}`);
  writeFileSync(file, scriptFor(TABS));
  const empty = join(home, `empty.${shell}`);
  writeFileSync(empty, scriptFor(0));
  const opts = { env: { ...env, PATH: `${shim}:${process.env.PATH}` } };
  return (median(shell, [...args, file], opts) - median(shell, [...args, empty], opts)) / TABS;
};
const completions = join(root, 'completions');
if (has('bash')) {
  add('TAB in bash, static script (llmobs prompts cr<TAB>)', perTab('bash', ['--norc'], (n) =>
    `source ${completions}/llmobs.bash\nfor ((i = 0; i < ${n}; i++)); do COMP_WORDS=(llmobs prompts cr); COMP_CWORD=2; _llmobs; done\n`));
}
if (has('fish')) {
  add('TAB in fish, static script (complete -C)', perTab('fish', ['--no-config'], (n) =>
    `source ${completions}/llmobs.fish\nfor i in (seq ${n})\n complete -C 'llmobs prompts cr' >/dev/null\nend\n`));
}
add('TAB that runs the CLI, floor (llmobs --version)', median(process.execPath, [bin, '--version']));
add('profile names (llmobs profile list --names)', median(process.execPath, [bin, 'profile', 'list', '--names']));

rmSync(home, { recursive: true, force: true });
const base = rows[0][1];
console.log(`median of ${runs} runs; Node ${process.version}; load average after the run ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
for (const [name, ms] of rows) console.log(`${ms.toFixed(1).padStart(8)} ms  ${(ms / base).toFixed(2).padStart(5)}×  ${name}`);
