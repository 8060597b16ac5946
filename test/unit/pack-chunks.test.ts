// Packs of chunks (scripts/pack-chunks.mjs): a lazily loaded chunk carries copies of the small
// chunks it needs. Checked on a small package laid out as the real one (bin/llmobs.cjs copied,
// dist/cli.cjs, dist/chunks/), run in a child process with the launcher's compile cache and
// without it (plain require), in several orders.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { join } from 'node:path';
import { execa } from 'execa';
import { transform } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
// @ts-expect-error: a build script in plain JavaScript, without type declarations
import { decodeMappings, encodeMappings, packChunks } from '../../scripts/pack-chunks.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const THRESHOLD = 1000;

// Each chunk counts its runs in a global, so that a second instance shows.
const run = (name: string) => `globalThis.runs ??= {}; globalThis.runs[${JSON.stringify(name)}] = (globalThis.runs[${JSON.stringify(name)}] ?? 0) + 1;\n`;
const SOURCES: Record<string, string> = {
  'shared.cjs': `${run('shared')}exports.token = {};\nexports.where = function where() { return new Error('here').stack; };\n`,
  'helper.cjs': `${run('helper')}const shared = require('./shared.cjs');\nexports.shared = shared;\n`,
  // Bigger than the threshold: stays a file, and requires a chunk that packs carry.
  'big.cjs': `${run('big')}exports.shared = require('./shared.cjs');\nexports.padding = '${'x'.repeat(THRESHOLD)}';\n`,
  'bad.cjs': `${run('bad')}throw new Error('bad chunk');\n`,
  'a.cjs': `${run('a')}exports.shared = require('./helper.cjs').shared;\n`,
  'b.cjs': `${run('b')}exports.shared = require('./shared.cjs');\nexports.big = require('./big.cjs');\nexports.helper = require('./helper.cjs');\n`,
  'c.cjs': `${run('c')}exports.shared = require('./shared.cjs');\n`,
  // Throws at load, through a chunk that it carries.
  'd.cjs': `${run('d')}exports.shared = require('./shared.cjs');\nrequire('./bad.cjs');\n`,
  // Loads late.cjs lazily, when asked (as a command's definition has the output modules imported):
  // late.cjs is its companion, and comes from its pack.
  'e.cjs': `${run('e')}exports.later = () => require('./late.cjs');\n`,
  'late.cjs': `${run('late')}exports.shared = require('./shared.cjs');\n`,
};
const GRAPH = {
  'shared.cjs': [],
  'helper.cjs': ['shared.cjs'],
  'big.cjs': ['shared.cjs'],
  'bad.cjs': [],
  'a.cjs': ['helper.cjs'],
  'b.cjs': ['shared.cjs', 'big.cjs', 'helper.cjs'],
  'c.cjs': ['shared.cjs'],
  'd.cjs': ['shared.cjs', 'bad.cjs'],
  'e.cjs': [],
  'late.cjs': ['shared.cjs'],
};

// Loads the chunks named on the command line in that order (a name alone: a plain require of the
// file), then reports what ran and whether every reference to shared.cjs is the same object.
const CLI = `'use strict';
exports.run = async (argv) => {
  const loaded = argv.filter((name) => name !== 'd').map((name) => require('./chunks/' + name + '.cjs'));
  for (const m of [...loaded]) if (m.later) loaded.push(m.later());
  const shared = require('./chunks/shared.cjs');
  const refs = loaded.flatMap((m) => [m.shared, m.big?.shared, m.helper?.shared].filter(Boolean));
  const cached = () => Object.keys(require.cache).filter((f) => f.includes('chunks')).map((f) => f.slice(f.lastIndexOf('/') + 1)).sort();
  const report = { runs: globalThis.runs, same: refs.every((ref) => ref === shared) };
  if (argv.includes('d')) {
    report.bad = [];
    for (let i = 0; i < 2; i++) {
      try { require('./chunks/d.cjs'); } catch (error) { report.bad.push(error.message, cached()); }
    }
  }
  report.cached = cached();
  report.stack = shared.where();
  process.stdout.write(JSON.stringify(report));
  return 0;
};
`;

let pkg: string;
let packed: Record<string, string[]>;

beforeAll(async () => {
  pkg = tempDir('llmobs-pack-');
  mkdirSync(join(pkg, 'bin'));
  mkdirSync(join(pkg, 'dist', 'chunks'), { recursive: true });
  copyFileSync(join(ROOT, 'bin', 'llmobs.cjs'), join(pkg, 'bin', 'llmobs.cjs'));
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'pack-test', version: '0.0.0', type: 'module' }));
  writeFileSync(join(pkg, 'dist', 'cli.cjs'), CLI);
  for (const [name, source] of Object.entries(SOURCES)) {
    // Through esbuild, as the build does, for a source map to the original file.
    const out = await transform(source, { format: 'cjs', sourcemap: 'external', sourcefile: `../../src/${name.replace('.cjs', '.ts')}` });
    writeFileSync(join(pkg, 'dist', 'chunks', name), `${out.code}//# sourceMappingURL=${name}.map\n`);
    writeFileSync(join(pkg, 'dist', 'chunks', `${name}.map`), out.map);
  }
  packed = packChunks(join(pkg, 'dist', 'chunks'), GRAPH, ['a.cjs', 'b.cjs', 'c.cjs', 'd.cjs', 'e.cjs', 'late.cjs'], THRESHOLD, { 'e.cjs': ['late.cjs'] });
  // e.cjs runs late.cjs from its pack: the file, were it read, would throw.
  writeFileSync(join(pkg, 'dist', 'chunks', 'late.cjs'), `throw new Error('late.cjs was read from its file');\n`);
});

interface Report {
  runs: Record<string, number>;
  same: boolean;
  cached: string[];
  bad?: Array<string | string[]>;
  stack: string;
}

async function load(order: string[], env: Record<string, string> = {}, cache = tempDir('llmobs-pack-cache-')): Promise<Report> {
  const result = await execa(process.execPath, ['--enable-source-maps', join(pkg, 'bin', 'llmobs.cjs'), ...order], { env: isolatedEnv({ LLMOBS_CACHE_DIR: cache, ...env }), extendEnv: false, reject: false });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Report;
}

/** The chunks that loading these runs, with what they require at load. */
function closure(names: string[]): Set<string> {
  const out = new Set<string>();
  const visit = (name: string) => {
    if (out.has(name)) return;
    out.add(name);
    for (const dep of GRAPH[`${name}.cjs` as keyof typeof GRAPH]) visit(dep.replace('.cjs', ''));
  };
  names.forEach(visit);
  return out;
}

describe('packs of small chunks', () => {
  it('copy the small chunks of each lazily loaded chunk, never a big one', () => {
    expect(packed).toEqual({
      'a.cjs': ['helper.cjs', 'shared.cjs'],
      'b.cjs': ['shared.cjs', 'helper.cjs'],
      'c.cjs': ['shared.cjs'],
      'd.cjs': ['shared.cjs', 'bad.cjs'],
      'e.cjs': ['late.cjs', 'shared.cjs'],
      'late.cjs': ['shared.cjs'],
      'big.cjs': [],
    });
    expect(readFileSync(join(pkg, 'dist', 'chunks', 'b.cjs'), 'utf8')).not.toContain('xxxx');
    // The big chunk takes small ones from the packs too, with nothing copied into it.
    expect(readFileSync(join(pkg, 'dist', 'chunks', 'big.cjs'), 'utf8')).toContain('factories');
    // Every chunk file stays, as built (a pack is never copied into another one).
    expect(readFileSync(join(pkg, 'dist', 'chunks', 'helper.cjs'), 'utf8')).not.toContain('factories');
  });

  const orders = [['a', 'b'], ['b', 'a'], ['big', 'a', 'b'], ['shared', 'b', 'a'], ['a', 'c', 'b'], ['helper', 'c']];
  for (const [mode, env] of [
    ['with the compile cache', {}],
    ['with plain require (LLMOBS_COMPILE_CACHE=0)', { LLMOBS_COMPILE_CACHE: '0' }],
    ['with plain require (NODE_DISABLE_COMPILE_CACHE=1)', { NODE_DISABLE_COMPILE_CACHE: '1' }],
  ] as const) {
    it.each(orders)(`run each chunk once when two packs carry it, ${mode}: %s, %s`, async (...order) => {
      const cache = tempDir('llmobs-pack-cache-');
      // Twice: with the cache on, the second run starts from the compiled code of the first.
      for (const report of [await load(order, env, cache), await load(order, env, cache)]) {
        expect(report.same).toBe(true);
        const expected = closure([...order, 'shared']);
        expect(Object.keys(report.runs).sort()).toEqual([...expected].sort());
        expect(Object.values(report.runs).every((n) => n === 1), JSON.stringify(report.runs)).toBe(true);
        expect(report.cached).toEqual([...expected].map((name) => `${name}.cjs`).sort());
      }
    });
  }

  it('carry the chunks a root loads later (its companions), which then run from the pack, once', async () => {
    for (const env of [{}, { LLMOBS_COMPILE_CACHE: '0' }] as Array<Record<string, string>>) {
      const report = await load(['e', 'a'], env);
      expect(report.runs).toEqual({ e: 1, late: 1, shared: 1, a: 1, helper: 1 });
      expect(report.same).toBe(true);
      expect(report.cached).toEqual(['a.cjs', 'e.cjs', 'helper.cjs', 'late.cjs', 'shared.cjs']);
    }
  });

  it('leave no instance of a chunk that throws while it loads: it runs again when required again', async () => {
    for (const env of [{}, { LLMOBS_COMPILE_CACHE: '0' }] as Array<Record<string, string>>) {
      // a first, then d, which both carry shared.cjs; d throws through bad.cjs, which it carries.
      const report = await load(['a', 'd'], env);
      const after = ['a.cjs', 'helper.cjs', 'shared.cjs'];
      expect(report.bad).toEqual(['bad chunk', after, 'bad chunk', after]);
      expect(report.runs).toEqual({ a: 1, helper: 1, shared: 1, d: 2, bad: 2 });
      expect(report.cached).toEqual(after);
    }
  });

  it('map the copied code to its sources: stack traces name the original file and line', async () => {
    for (const env of [{}, { LLMOBS_COMPILE_CACHE: '0' }] as Array<Record<string, string>>) {
      const report = await load(['a'], env);
      // shared.ts line 3: exports.where = function where() { return new Error('here').stack; }
      expect(report.stack).toMatch(/at (Object\.)?where \(.*src\/shared\.ts:3:\d+\)/);
    }
    const pack = JSON.parse(readFileSync(join(pkg, 'dist', 'chunks', 'a.cjs.map'), 'utf8'));
    expect(pack.sources).toEqual(['../../src/helper.ts', '../../src/shared.ts', '../../src/a.ts']);
    const code = readFileSync(join(pkg, 'dist', 'chunks', 'a.cjs'), 'utf8').split('\n');
    const line = code.findIndex((text) => text.includes("new Error(\"here\")"));
    const entry = new SourceMap(pack).findEntry(line, code[line]!.indexOf('new Error')) as { originalSource?: string; originalLine?: number };
    expect([entry.originalSource, entry.originalLine]).toEqual(['../../src/shared.ts', 2]);
  });

  it('decode and encode source map mappings without loss', () => {
    const map = JSON.parse(readFileSync(join(ROOT, 'dist', 'cli.cjs.map'), 'utf8'));
    expect(encodeMappings(decodeMappings(map.mappings))).toBe(map.mappings);
  });
});
