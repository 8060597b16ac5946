#!/usr/bin/env node
// Start-up of the whole `llmobs` process for a basket of everyday commands, as ratios to a bare
// `node -e ""`, next to the official langfuse-cli, in one interleaved run (every round runs every
// command once, so machine noise hits all alike). See bench/README.md.
//
//   node bench/startup.mjs [--runs 11] [--compare DIR[=LABEL]]... [--only version,help,...] [--libraries]
//
// --compare runs the same basket from another checkout (built), e.g. a copy of main, in the same
// rounds. --libraries adds what a user would write with the other tokenizer libraries to count
// "hello" (slow: js-tiktoken takes over a second a run). Exit code 0 whatever the numbers: it
// reports, it does not judge (the goal column does).
import { spawn as spawnAsync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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
    libraries: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log('node bench/startup.mjs [--runs 11] [--compare DIR[=LABEL]]... [--only version,help,...] [--libraries]\nSee bench/README.md.');
  process.exit(0);
}
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a positive whole number');

/**
 * The basket: label, arguments, home, goal as a ratio to bare node (null: reported only).
 * Homes: `fresh` has no configuration at all (the first `npx llmobs` of a new user, or a CI job
 * without keys); `profiles` has two profiles, the active one a local server started here, whose
 * model definitions are in the cache (`estimate` with a profile reads the project's definitions,
 * cached 10 minutes).
 */
const BASKET = [
  ['version', ['--version'], 'fresh', 1.2],
  ['help', ['--help'], 'fresh', 1.2],
  ['profile list', ['profile', 'list'], 'profiles', 1.5],
  ['tokens count', ['tokens', 'count', '--encoding', 'o200k_base', 'hello'], 'fresh', 1.5],
  ['estimate', ['estimate', '--model', 'gpt-4o', '--input', 'hi'], 'fresh', 1.5],
  ['estimate --offline', ['estimate', '--model', 'gpt-4o', '--input', 'hi', '--offline'], 'profiles', 1.5],
  ['estimate, profile', ['estimate', '--model', 'gpt-4o', '--input', 'hi'], 'profiles', null],
  ['models match', ['models', 'match', 'gpt-4o', '--offline'], 'profiles', 1.5],
];
const only = args.only?.split(',');
const basket = BASKET.filter(([label]) => !only || only.includes(label.split(/[ ,]/)[0]) || only.includes(label));

const builds = [{ label: 'llmobs', dir: root }];
for (const spec of args.compare) {
  const [dir, label] = spec.split('=');
  builds.push({ label: label ?? dir, dir: resolve(dir) });
}
for (const build of builds) {
  if (!existsSync(join(build.dir, 'dist', 'cli.cjs')) && !existsSync(join(build.dir, 'dist', 'cli.js'))) {
    console.error(`bench: ${build.dir}/dist is missing; run \`npm run build\` there first`);
    process.exit(1);
  }
}

// Homes of their own; no colour, no TTY, and a small environment: in particular no
// NODE_EXTRA_CA_CERTS, which makes every Node process (bare node too) read a certificate bundle.
const top = mkdtempSync(join(tmpdir(), 'llmobs-startup-'));
const envOf = (home) => ({
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  XDG_CACHE_HOME: join(home, '.cache'),
  XDG_DATA_HOME: join(home, '.local', 'share'),
  LLMOBS_CONFIG_DIR: join(home, 'llmobs'),
  NO_COLOR: '1',
});
const homes = { fresh: join(top, 'fresh'), profiles: join(top, 'profiles') };
for (const home of Object.values(homes)) mkdirSync(home);
const envs = { fresh: envOf(homes.fresh), profiles: envOf(homes.profiles) };

function spawn(command, argv, home, input, cwd = homes[home]) {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, argv, { cwd, env: envs[home], input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], encoding: 'utf8' });
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
function cpu(argv, home, cwd = homes[home]) {
  if (!hasBash) return undefined;
  const result = spawnSync('bash', ['-c', 'TIMEFORMAT="%3U %3S"; time "$@" >/dev/null 2>&1', 'bash', process.execPath, ...argv], { cwd, env: envs[home], stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const [user, sys] = result.stderr.trim().split(/\s+/).map(Number);
  return (user + sys) * 1000;
}

// bin/llmobs.cjs; a build from before the CommonJS entry (--compare) has bin/llmobs.js.
const bin = (dir) => (existsSync(join(dir, 'bin', 'llmobs.cjs')) ? join(dir, 'bin', 'llmobs.cjs') : join(dir, 'bin', 'llmobs.js'));

// The `profiles` home: a Cloud profile, and a local server (in memory, stopped at the end) that
// `llmobs server --profile local` saves as the active profile.
spawn(process.execPath, [bin(root), 'profile', 'add', 'eu', '--region', 'eu', '--public-key', 'pk-lf-bench-eu', '--secret-key-stdin'], 'profiles', 'sk-lf-bench-eu');
const server = spawnAsync(process.execPath, [bin(root), 'server', '--port', '0', '--ephemeral', '--json', '--profile', 'local'], { cwd: homes.profiles, env: envs.profiles, stdio: ['ignore', 'pipe', 'ignore'] });
await new Promise((resolveStart, rejectStart) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.includes('\n')) resolveStart(JSON.parse(out.split('\n')[0]));
  });
  server.on('exit', (code) => rejectStart(new Error(`bench: llmobs server exited with ${code}`)));
});
// Each compared build runs in copies of the homes: the compile cache of bin/llmobs.cjs keeps one
// build's folder at a time, so builds sharing a home would find their compiled code gone each run.
const homeOf = (home, index) => (index === 0 ? home : `${home}-${index}`);
for (let index = 1; index < builds.length; index++) {
  for (const home of ['fresh', 'profiles']) {
    homes[homeOf(home, index)] = join(top, homeOf(home, index));
    cpSync(homes[home], homes[homeOf(home, index)], { recursive: true });
    envs[homeOf(home, index)] = envOf(homes[homeOf(home, index)]);
  }
}
const cacheDir = join(homes.profiles, '.cache', 'llmobs');
/**
 * Fills the definitions cache (`models match` always asks the server and rewrites the cache).
 * Done again before a round when the copy is five minutes old, so that no measured `estimate`
 * reads an expired copy and goes to the server.
 */
let warmedAt = 0;
function warmCache() {
  builds.forEach((_, index) => spawn(process.execPath, [bin(root), 'models', 'match', 'gpt-4o'], homeOf('profiles', index)));
  warmedAt = Date.now();
}
warmCache();
const cacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith('.json')) : []);
if (cacheFiles().length !== 1) throw new Error(`bench: expected one definitions cache file in ${cacheDir}, found ${cacheFiles().length}`);
const cacheFile = join(cacheDir, cacheFiles()[0]);

const cases = [{ label: 'node -e ""', home: 'fresh', argv: ['-e', ''] }];
for (const [label, argv, home, goal] of basket) {
  for (const [index, build] of builds.entries()) cases.push({ label: `${build.label} ${label}`, home: homeOf(home, index), argv: [bin(build.dir), ...argv], goal: build.dir === root ? goal : undefined });
}
const require = createRequire(join(root, 'package.json'));
let langfuseCli;
try {
  langfuseCli = join(dirname(require.resolve('langfuse-cli/package.json')), 'bin', 'langfuse.mjs');
} catch {
  console.error('bench: langfuse-cli is not installed (npm install); its rows are left out');
}
if (langfuseCli) {
  const { version } = JSON.parse(readFileSync(join(dirname(langfuseCli), '..', 'package.json'), 'utf8'));
  if (!only || only.includes('version')) cases.push({ label: `langfuse-cli ${version} --version`, home: 'fresh', argv: [langfuseCli, '--version'] });
  if (!only || only.includes('help')) cases.push({ label: `langfuse-cli ${version} --help`, home: 'fresh', argv: [langfuseCli, '--help'] });
}
if (args.libraries) {
  // What a user would write with each library to count "hello" from the command line, run in
  // this repository, whose node_modules has them (dev dependencies).
  const script = (code) => ['--input-type=module', '-e', code];
  cases.push(
    { label: 'js-tiktoken o200k_base hello', home: 'fresh', cwd: root, argv: script(`import { getEncoding } from 'js-tiktoken'; console.log(getEncoding('o200k_base').encode('hello').length)`) },
    { label: 'tiktoken (WASM) o200k_base hello', home: 'fresh', cwd: root, argv: script(`import { get_encoding } from 'tiktoken'; console.log(get_encoding('o200k_base').encode('hello').length)`) },
    { label: 'gpt-tokenizer o200k_base hello', home: 'fresh', cwd: root, argv: script(`import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'; console.log(countTokens('hello'))`) },
  );
}

try {
  for (const c of cases) spawn(process.execPath, c.argv, c.home, undefined, c.cwd); // warm the file cache; fails early on a broken build
  const cacheBefore = readFileSync(cacheFile, 'utf8');
  let refreshed = 0;
  const times = cases.map(() => []);
  const cpus = cases.map(() => []);
  for (let round = 0; round < runs; round++) {
    if (Date.now() - warmedAt > 5 * 60_000) {
      warmCache();
      refreshed++;
    }
    cases.forEach((c, i) => times[i].push(spawn(process.execPath, c.argv, c.home, undefined, c.cwd)));
    if (hasBash) cases.forEach((c, i) => cpus[i].push(cpu(c.argv, c.home, c.cwd)));
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const bare = median(times[0]);
  const bareCpu = hasBash ? median(cpus[0]) : undefined;
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${runs} interleaved rounds, node ${process.version}, ${new Date().toISOString().slice(0, 16)}Z, load average after the run ${load}; medians of the whole process`);
  console.log(`${'command'.padEnd(40)} ${'wall'.padStart(9)} ${'ratio'.padStart(7)} ${'paired'.padStart(7)}  ${hasBash ? `${'cpu'.padStart(9)} ${'ratio'.padStart(7)}  ` : ''}goal (wall ratio)`);
  for (const [i, c] of cases.entries()) {
    const m = median(times[i]);
    const ratio = m / bare;
    // The median of each round's own ratio to that round's bare node: a round's runs are a second
    // apart, so a change of the machine's pace between rounds leaves it alone.
    const paired = median(times[i].map((t, round) => t / times[0][round]));
    const goal = c.goal === undefined ? '' : c.goal === null ? 'reported' : `≤ ${c.goal.toFixed(1)}×  ${ratio <= c.goal ? 'met' : 'NOT met'}`;
    const cpuCols = hasBash ? `${median(cpus[i]).toFixed(0).padStart(6)} ms ${(median(cpus[i]) / bareCpu).toFixed(2).padStart(6)}×  ` : '';
    console.log(`${c.label.padEnd(40)} ${m.toFixed(1).padStart(6)} ms ${ratio.toFixed(2).padStart(6)}× ${paired.toFixed(2).padStart(6)}×  ${cpuCols}${goal}`);
  }
  // A measured `estimate` with the profile must have read the cache, never the server.
  const cacheAfter = readFileSync(cacheFile, 'utf8');
  if (cacheAfter !== cacheBefore && refreshed === 0) console.log('note: the definitions cache changed during the run: some `estimate, profile` runs asked the server');
  console.log('"estimate" runs with no configuration (built-in catalogue); "estimate, profile" with the active profile, the project\'s definitions from a warm cache.');
} finally {
  // The server writes its compile cache as it exits: remove the homes after that.
  const exited = new Promise((resolveExit) => server.once('exit', resolveExit));
  server.kill();
  await exited;
  rmSync(top, { recursive: true, force: true });
}
