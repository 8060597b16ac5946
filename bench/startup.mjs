#!/usr/bin/env node
// Start-up of the whole `llmobs` process for a basket of everyday commands, as ratios to a bare
// `node -e ""`, next to the official langfuse-cli, in one interleaved run (every round runs every
// command once, so machine noise hits all alike). See bench/README.md.
//
//   node bench/startup.mjs [--runs 11] [--compare DIR[=LABEL]]... [--only version,help,...]
//
// --compare runs the same basket from another checkout (built), e.g. a copy of main, in the same
// rounds. Exit code 0 whatever the numbers: it reports, it does not judge (the goal column does).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '11' },
    compare: { type: 'string', multiple: true, default: [] },
    only: { type: 'string' },
  },
});
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a positive whole number');

/** The basket: label, arguments, goal as a ratio to bare node. */
const BASKET = [
  ['version', ['--version'], 1.2],
  ['help', ['--help'], 1.2],
  ['profile list', ['profile', 'list'], 1.5],
  ['tokens count', ['tokens', 'count', '--encoding', 'o200k_base', 'hello'], 1.5],
  ['estimate', ['estimate', '--model', 'gpt-4o', '--input', 'hi'], 1.5],
  ['models match', ['models', 'match', 'gpt-4o', '--offline'], 1.5],
];
const only = args.only?.split(',');
const basket = BASKET.filter(([label]) => !only || only.includes(label.split(' ')[0]) || only.includes(label));

const builds = [{ label: 'llmobs', dir: root }];
for (const spec of args.compare) {
  const [dir, label] = spec.split('=');
  builds.push({ label: label ?? dir, dir: resolve(dir) });
}
for (const build of builds) {
  if (!existsSync(join(build.dir, 'dist', 'cli.js'))) {
    console.error(`bench: ${build.dir}/dist is missing; run \`npm run build\` there first`);
    process.exit(1);
  }
}

// A home of its own with two profiles, so `profile list` reads a real file; no colour, no TTY.
const home = mkdtempSync(join(tmpdir(), 'llmobs-startup-'));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_CACHE_HOME: join(home, '.cache'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  LLMOBS_CONFIG_DIR: join(home, 'llmobs'),
  NO_COLOR: '1',
};

function spawn(command, argv, input) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, { cwd: home, env, input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited with ${result.status}: ${result.stderr}`);
  return ms;
}

/**
 * CPU time (user + system, all threads) of one run, through bash's `time`, which reads the child's
 * rusage to the millisecond. Steadier than wall time on a busy machine, where waiting for a core
 * counts in the wall time but not here. Undefined where bash is missing.
 */
const hasBash = spawnSync('bash', ['-c', 'true']).status === 0;
function cpu(argv) {
  if (!hasBash) return undefined;
  const result = spawnSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time "$@" >/dev/null 2>&1', 'bash', process.execPath, ...argv], { cwd: home, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const [user, sys] = result.stderr.trim().split(/\s+/).map(Number);
  return (user + sys) * 1000;
}

const bin = (dir) => join(dir, 'bin', 'llmobs.js');
for (const [name, extra] of [['eu', ['--region', 'eu']], ['local', ['--base-url', 'http://localhost:3000', '--default']]]) {
  spawn(process.execPath, [bin(root), 'profile', 'add', name, ...extra, '--public-key', `pk-lf-bench-${name}`, '--secret-key-stdin'], `sk-lf-bench-${name}`);
}

const cases = [{ label: 'node -e ""', group: 'node', argv: ['-e', ''] }];
for (const [label, argv, goal] of basket) {
  for (const build of builds) cases.push({ label: `${build.label} ${label}`, group: build.label, argv: [bin(build.dir), ...argv], goal: build.dir === root ? goal : undefined });
}
let langfuseCli;
try {
  langfuseCli = join(dirname(createRequire(join(root, 'package.json')).resolve('langfuse-cli/package.json')), 'bin', 'langfuse.mjs');
} catch {
  console.error('bench: langfuse-cli is not installed (npm install); its rows are left out');
}
if (langfuseCli) {
  const { version } = createRequire(import.meta.url)(join(dirname(langfuseCli), '..', 'package.json'));
  if (!only || only.includes('version')) cases.push({ label: `langfuse-cli ${version} --version`, group: 'langfuse-cli', argv: [langfuseCli, '--version'] });
  if (!only || only.includes('help')) cases.push({ label: `langfuse-cli ${version} --help`, group: 'langfuse-cli', argv: [langfuseCli, '--help'] });
}

try {
  for (const c of cases) spawn(process.execPath, c.argv); // warm the file cache; fails early on a broken build
  const times = cases.map(() => []);
  const cpus = cases.map(() => []);
  for (let round = 0; round < runs; round++) {
    cases.forEach((c, i) => times[i].push(spawn(process.execPath, c.argv)));
    if (hasBash) cases.forEach((c, i) => cpus[i].push(cpu(c.argv)));
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const bare = median(times[0]);
  const bareCpu = hasBash ? median(cpus[0]) : undefined;
  console.log(`${runs} interleaved rounds, node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z; medians of the whole process`);
  console.log(`${'command'.padEnd(40)} ${'wall'.padStart(9)} ${'ratio'.padStart(7)}  ${hasBash ? `${'cpu'.padStart(9)} ${'ratio'.padStart(7)}  ` : ''}goal (wall ratio)`);
  for (const [i, c] of cases.entries()) {
    const m = median(times[i]);
    const ratio = m / bare;
    const goal = c.goal === undefined ? '' : `≤ ${c.goal.toFixed(1)}×  ${ratio <= c.goal ? 'met' : 'NOT met'}`;
    const cpuCols = hasBash ? `${median(cpus[i]).toFixed(0).padStart(6)} ms ${(median(cpus[i]) / bareCpu).toFixed(2).padStart(6)}×  ` : '';
    console.log(`${c.label.padEnd(40)} ${m.toFixed(1).padStart(6)} ms ${ratio.toFixed(2).padStart(6)}×  ${cpuCols}${goal}`);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
