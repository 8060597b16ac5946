#!/usr/bin/env node
// Start-up of the whole `llmobs` process for a basket of everyday commands, as CPU-time ratios to
// a bare `node -e ""`, next to the official langfuse-cli, in one interleaved run (every round runs
// every command once, so machine noise hits all alike). See bench/README.md.
//
//   node bench/startup.mjs [--runs 11] [--node PATH] [--compare DIR[=LABEL]]... [--only version,help,...] [--libraries]
//
// --node runs everything measured (bare node, the basket, langfuse-cli) with another Node binary.
// --compare runs the same basket from another checkout (built), e.g. a copy of main, in the same
// rounds. --libraries adds what a user would write with the other tokenizer libraries to count
// "hello" (slow: js-tiktoken takes over a second a run). Exit code 0 whatever the numbers: it
// reports, it does not judge (the goal column does).
import { spawn as spawnAsync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const usage = 'node bench/startup.mjs [--runs 11] [--node PATH] [--compare DIR[=LABEL]]... [--only version,help,...] [--libraries]\nSee bench/README.md.';
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '11' },
    node: { type: 'string' },
    compare: { type: 'string', multiple: true, default: [] },
    only: { type: 'string' },
    libraries: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const runs = Number(args.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs needs a positive whole number');
const node = args.node ? resolve(args.node) : process.execPath;
const nodeVersion = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout?.trim();
if (!nodeVersion) throw new Error(`--node ${node} does not run`);
if (spawnSync('bash', ['-c', 'true']).status !== 0) {
  console.error('bench: needs bash, whose `time` reads the CPU time of each run');
  process.exit(1);
}

/**
 * The basket: label, arguments, home, goal as a CPU-time ratio to bare node (null: reported
 * only), and the langfuse-cli command it must use no more CPU than. Homes: `fresh` has no
 * configuration at all (the first `npx llmobs` of a new user, or a CI job without keys);
 * `profiles` has two profiles, the active one a local server started here, whose model
 * definitions are in the cache (`estimate` with a profile reads the project's definitions, cached
 * 10 minutes).
 */
const BASKET = [
  ['version', ['--version'], 'fresh', 1.3, '--version'],
  ['help', ['--help'], 'fresh', 1.3, '--help'],
  ['profile list', ['profile', 'list'], 'profiles', 1.5],
  ['tokens count', ['tokens', 'count', '--encoding', 'o200k_base', 'hello'], 'fresh', 1.5],
  ['estimate', ['estimate', '--model', 'gpt-4o', '--input', 'hi'], 'fresh', 1.5],
  ['estimate --offline', ['estimate', '--model', 'gpt-4o', '--input', 'hi', '--offline'], 'profiles', 1.5],
  ['estimate, profile', ['estimate', '--model', 'gpt-4o', '--input', 'hi'], 'profiles', null],
  ['models match', ['models', 'match', 'gpt-4o', '--offline'], 'profiles', 1.5],
];
const only = args.only?.split(',');
const basket = BASKET.filter(([label]) => !only || only.includes(label.split(/[ ,]/)[0]) || only.includes(label));

/** A checkout's launcher, as its package.json names it (so that older layouts compare too). */
function bin(dir) {
  const { bin: entry } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  return join(dir, typeof entry === 'string' ? entry : entry.llmobs);
}
const builds = [{ label: 'llmobs', dir: root }];
for (const spec of args.compare) {
  const [dir, label] = spec.split('=');
  builds.push({ label: label ?? dir, dir: resolve(dir) });
}
for (const build of builds) {
  if (!existsSync(join(build.dir, 'dist')) || !existsSync(bin(build.dir))) {
    console.error(`bench: ${build.dir} has no build; run \`npm run build\` there first`);
    process.exit(1);
  }
}

// Homes of their own; no colour, no TTY, and a small environment: in particular no
// NODE_EXTRA_CA_CERTS, which makes every Node process (bare node too) read a certificate bundle.
// Node 22 and later keep the compile cache in its default folder (os.tmpdir()), as for a user.
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

/** Runs a command to its end; throws with its stderr when it fails. */
function run(argv, home, input, cwd = homes[home]) {
  const result = spawnSync(node, argv, { cwd, env: envs[home], input, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'], encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${argv.join(' ')} exited with ${result.status}: ${result.stderr}`);
}

/**
 * Wall and CPU time (user + system, all threads) of one run, in ms, through bash's `time`, which
 * reads the child's rusage to the millisecond. On a busy machine the wall time includes waiting
 * for a core and the CPU time does not: the goals read the CPU time.
 */
function measure(argv, home, cwd = homes[home]) {
  const result = spawnSync('bash', ['-c', 'TIMEFORMAT="%3R %3U %3S"; time "$@" >/dev/null 2>&1', 'bash', node, ...argv], { cwd, env: envs[home], stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const [wall, user, sys] = result.stderr.trim().split(/\s+/).map(Number);
  if (result.status !== 0 || !(wall >= 0)) throw new Error(`${argv.join(' ')} failed under bash's time: ${result.stderr}`);
  return { wall: wall * 1000, cpu: (user + sys) * 1000 };
}

// The `profiles` home: a Cloud profile, and a local server (in memory, stopped at the end) that
// `llmobs server --profile local` saves as the active profile.
run([bin(root), 'profile', 'add', 'eu', '--region', 'eu', '--public-key', 'pk-lf-bench-eu', '--secret-key-stdin'], 'profiles', 'sk-lf-bench-eu');
const server = spawnAsync(node, [bin(root), 'server', '--port', '0', '--ephemeral', '--json', '--profile', 'local'], { cwd: homes.profiles, env: envs.profiles, stdio: ['ignore', 'pipe', 'ignore'] });
await new Promise((resolveStart, rejectStart) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk;
    if (out.includes('\n')) resolveStart(JSON.parse(out.split('\n')[0]));
  });
  server.on('exit', (code) => rejectStart(new Error(`bench: llmobs server exited with ${code}`)));
});
const cacheDir = join(homes.profiles, '.cache', 'llmobs');
// Each compared build runs in copies of the homes: builds may write their definitions cache in
// formats the other does not read, and would replace each other's copy at every run.
const homeOf = (home, index) => (index === 0 ? home : `${home}-${index}`);
/**
 * Fills the definitions cache (`models match` always asks the server and rewrites the cache),
 * each build in its own home. Done again before a round when the copy is five minutes old, so
 * that no measured `estimate` reads an expired copy and goes to the server.
 */
let warmedAt = 0;
function warmCache() {
  for (const [index, build] of builds.entries()) run([bin(build.dir), 'models', 'match', 'gpt-4o'], homeOf('profiles', index));
  warmedAt = Date.now();
}
run([bin(root), 'models', 'match', 'gpt-4o'], 'profiles');
for (let index = 1; index < builds.length; index++) {
  for (const home of ['fresh', 'profiles']) {
    homes[homeOf(home, index)] = join(top, homeOf(home, index));
    cpSync(homes[home], homes[homeOf(home, index)], { recursive: true });
    envs[homeOf(home, index)] = envOf(homes[homeOf(home, index)]);
  }
}
const cacheFiles = () => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((f) => f.endsWith('.json')) : []);
if (cacheFiles().length !== 1) throw new Error(`bench: expected one definitions cache file in ${cacheDir}, found ${cacheFiles().length}`);
const cacheFile = join(cacheDir, cacheFiles()[0]);
warmCache();

const cases = [{ label: 'node -e ""', home: 'fresh', argv: ['-e', ''] }];
const require = createRequire(join(root, 'package.json'));
let langfuseCli;
try {
  langfuseCli = join(dirname(require.resolve('langfuse-cli/package.json')), 'bin', 'langfuse.mjs');
} catch {
  console.error('bench: langfuse-cli is not installed (npm install); its rows are left out');
}
const peers = {};
if (langfuseCli) {
  const { version } = JSON.parse(readFileSync(join(dirname(langfuseCli), '..', 'package.json'), 'utf8'));
  for (const flag of ['--version', '--help']) {
    if (only && !only.includes(flag.slice(2))) continue;
    peers[flag] = { label: `langfuse-cli ${version} ${flag}`, home: 'fresh', argv: [langfuseCli, flag] };
  }
}
for (const [label, argv, home, goal, peer] of basket) {
  for (const [index, build] of builds.entries()) {
    const ours = index === 0;
    cases.push({ label: `${build.label} ${label}`, home: homeOf(home, index), argv: [bin(build.dir), ...argv], goal: ours ? goal : undefined, peer: ours ? peers[peer] : undefined });
  }
}
cases.push(...Object.values(peers));
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

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  // Warms the file cache and Node's compile cache; fails early on a broken build.
  for (const c of cases) run(c.argv, c.home, undefined, c.cwd);
  const cacheBefore = readFileSync(cacheFile, 'utf8');
  let refreshed = 0;
  const samples = cases.map(() => []);
  for (let round = 0; round < runs; round++) {
    if (Date.now() - warmedAt > 5 * 60_000) {
      warmCache();
      refreshed++;
    }
    cases.forEach((c, i) => samples[i].push(measure(c.argv, c.home, c.cwd)));
  }
  const wall = (i) => median(samples[i].map((s) => s.wall));
  const cpu = (i) => median(samples[i].map((s) => s.cpu));
  const bareWall = wall(0);
  const bareCpu = cpu(0);
  const cpuOf = (c) => cpu(cases.indexOf(c));
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`${runs} interleaved rounds, node ${nodeVersion}${args.node ? ` (${node})` : ''}, ${new Date().toISOString().slice(0, 16)}Z, load average after the run ${load}; medians of the whole process`);
  console.log(`${'command'.padEnd(40)} ${'wall'.padStart(9)} ${'ratio'.padStart(7)}  ${'cpu'.padStart(9)} ${'ratio'.padStart(7)} ${'paired'.padStart(7)}  goal (cpu ratio)`);
  for (const [i, c] of cases.entries()) {
    const ratio = cpu(i) / bareCpu;
    // The median of each round's own ratio to that round's bare node: a round's runs are a second
    // apart, so a change of the machine's pace between rounds leaves it alone.
    const paired = median(samples[i].map((s, round) => s.cpu / samples[0][round].cpu));
    let goal = '';
    if (c.goal === null) goal = 'reported';
    else if (c.goal !== undefined) {
      const met = ratio <= c.goal && (!c.peer || cpu(i) <= cpuOf(c.peer));
      goal = `≤ ${c.goal.toFixed(1)}×${c.peer ? ' and ≤ langfuse-cli' : ''}  ${met ? 'met' : 'NOT met'}`;
    }
    console.log(`${c.label.padEnd(40)} ${wall(i).toFixed(1).padStart(6)} ms ${(wall(i) / bareWall).toFixed(2).padStart(6)}×  ${cpu(i).toFixed(0).padStart(6)} ms ${ratio.toFixed(2).padStart(6)}× ${paired.toFixed(2).padStart(6)}×  ${goal}`);
  }
  // A measured `estimate` with the profile must have read the cache, never the server.
  const cacheAfter = readFileSync(cacheFile, 'utf8');
  if (cacheAfter !== cacheBefore && refreshed === 0) console.log('note: the definitions cache changed during the run: some `estimate, profile` runs asked the server');
  console.log('"estimate" runs with no configuration (built-in catalogue); "estimate, profile" with the active profile, the project\'s definitions from a warm cache.');
} finally {
  // Stop the server before its home goes.
  const exited = new Promise((resolveExit) => server.once('exit', resolveExit));
  server.kill();
  await exited;
  rmSync(top, { recursive: true, force: true });
}
