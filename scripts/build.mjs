#!/usr/bin/env node
// Builds the package into dist/: src/ bundled by esbuild, the built-in catalogue as a data file,
// the tokenizers' rank tables, the web UI's pages (dist/ui), and the licences of the bundled
// packages.
//
// One esbuild run with code splitting: every entry, and every module that code loads with
// `import()`, becomes a file of dist/ that loads when it is needed, so a command loads only what it
// uses. All files sit in dist/ itself, so code finds the data files beside its own module.
// Runtime dependencies ("dependencies" in package.json: native or WebAssembly parts) stay in
// node_modules; everything else is bundled. Types are not checked here (`npm run typecheck`).
//
// The build is written to a temporary folder and then moved into place, so two builds at once
// (or one interrupted) never leave a half-written dist/.
//
//   node scripts/build.mjs
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { writeRanks } from './build-ranks.mjs';
import { importSource } from './import-source.mjs';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * The entries: the CLI, the `llmobs/server` export, and the modules that bench/ loads. An entry
 * named `a` is dist/a.mjs.
 */
export const ENTRIES = {
  cli: 'src/cli.ts',
  server: 'src/server/index.ts',
  // The server's read thread, started as a file of its own (src/server/store/read-thread.ts).
  'read-worker': 'src/server/store/read-worker.ts',
  store: 'src/server/store/index.ts',
  ingest: 'src/server/ingest/batch.ts',
  'ingest-routes': 'src/server/ingest/routes.ts',
  tokenizer: 'src/tokenizer/index.ts',
  catalogue: 'src/data/catalogue.ts',
  pattern: 'src/core/models/pattern.ts',
};

/** The web UI's page and its one script and one stylesheet, served by `llmobs server` (src/server/ui). */
export const UI_ENTRY = 'src/server/ui/app/main.tsx';

/** The web UI for browsers: no code splitting (one request for the script), minified. */
function buildUi(out) {
  mkdirSync(join(out, 'ui'), { recursive: true });
  copyFileSync(join(root, 'src', 'server', 'ui', 'app', 'index.html'), join(out, 'ui', 'index.html'));
  return build({
    absWorkingDir: root,
    entryPoints: { app: UI_ENTRY },
    outdir: join(out, 'ui'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome110', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    sourcemap: 'linked',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
}

/** The built-in catalogue's data file in dist/; the code gets its name as LLMOBS_CATALOGUE_FILE. */
export const CATALOGUE_FILE = 'catalogue.data';

/**
 * Node's own modules come from process.getBuiltinModule, for bundled CommonJS packages (commander,
 * undici...), which an ES module cannot require(), and for our imports too: the namespace of an ES
 * import reads every export, and node:fs's lazy ones load its promises and streams, which few
 * commands use. node:child_process, which commander requires at load but llmobs never uses through
 * it, loads on first use: it brings the network stack with it.
 */
const builtins = {
  name: 'builtins',
  setup(b) {
    const names = new Set(builtinModules);
    b.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, ({ path }) => {
      const name = path.replace(/^node:/, '');
      return names.has(name) ? { path: name, namespace: 'builtin' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, ({ path }) => ({
      loader: 'js',
      contents:
        path === 'child_process'
          ? 'let m; const load = () => (m ??= process.getBuiltinModule("node:child_process"));\nmodule.exports = new Proxy({}, { get: (_, key) => load()[key] });'
          : `module.exports = process.getBuiltinModule(${JSON.stringify(`node:${path}`)});`,
    }));
  },
};

/**
 * The built-in catalogue as data (src/data/catalogue.ts reads it), and its match patterns parsed
 * ahead (src/core/models/known-patterns.ts): matching a model name then compiles only the patterns
 * whose literals the name contains.
 */
async function catalogue() {
  const [{ encodeCatalogue }, { precomputePatterns }, { encodeKnownPatterns }] = await Promise.all(
    ['src/data/catalogue.ts', 'src/core/models/pattern.ts', 'src/core/models/known-patterns.ts'].map(importSource),
  );
  const file = JSON.parse(readFileSync(join(root, 'src', 'data', 'catalogue.json'), 'utf8'));
  return { data: encodeCatalogue(file), knownPatterns: encodeKnownPatterns(precomputePatterns(file.models.map((model) => model.matchPattern))) };
}

/**
 * Names the build by a digest of the package's version and sources. Caches that the build writes
 * carry it, and a copy written by another build is not trusted (see src/model-definitions/remote.ts).
 */
function buildId() {
  const hash = createHash('sha256').update(pkg.version);
  for (const file of readdirSync(join(root, 'src'), { recursive: true }).sort()) {
    if (/\.(ts|json)$/.test(file)) hash.update(`\0${file}\0`).update(readFileSync(join(root, 'src', file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Third-party code in the bundle keeps its licence: one file with each bundled package's notice. */
function licences(metafile) {
  const dirs = new Set(Object.keys(metafile.inputs).flatMap((input) => /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
  const notices = [...dirs].map((dir) => {
    const meta = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const file = readdirSync(join(root, dir)).find((name) => /^(licen[cs]e|copying)(\..*)?$/i.test(name));
    const text = file ? readFileSync(join(root, dir, file), 'utf8').trim() : `No licence file in the package; its package.json says: ${meta.license}`;
    return `${meta.name} ${meta.version} (${meta.license ?? 'see package'})\n\n${text}`;
  });
  return `dist/ bundles code from these packages:\n\n${notices.sort().join(`\n\n${'-'.repeat(72)}\n\n`)}\n`;
}

async function main() {
  const out = mkdtempSync(join(root, '.dist-'));
  try {
    const { data, knownPatterns } = await catalogue();
    writeFileSync(join(out, CATALOGUE_FILE), data);
    const { metafile } = await build({
      absWorkingDir: root,
      entryPoints: ENTRIES,
      outdir: out,
      bundle: true,
      splitting: true,
      outExtension: { '.js': '.mjs' },
      format: 'esm',
      platform: 'node',
      target: 'node20',
      external: Object.keys(pkg.dependencies),
      plugins: [builtins],
      define: {
        LLMOBS_BUILD_VERSION: JSON.stringify(pkg.version),
        LLMOBS_BUILD_ID: JSON.stringify(buildId()),
        LLMOBS_CATALOGUE_FILE: JSON.stringify(CATALOGUE_FILE),
        LLMOBS_KNOWN_PATTERNS: JSON.stringify(knownPatterns),
      },
      minifyWhitespace: true,
      minifySyntax: true,
      sourcemap: 'linked',
      legalComments: 'none',
      metafile: true,
      logLevel: 'warning',
    });
    const ui = await buildUi(out);
    writeFileSync(join(out, 'THIRD-PARTY-LICENSES.txt'), licences({ inputs: { ...metafile.inputs, ...ui.metafile.inputs } }));
    // What each file of dist/ holds, for the tests that guard what start-up loads. Written aside
    // and renamed into place: a reader never sees half of it, and a node_modules copied with hard
    // links (one checkout per branch) gets a file of its own instead of writing into the shared one.
    const cache = join(root, 'node_modules', '.cache', 'llmobs-build');
    mkdirSync(cache, { recursive: true });
    writeFileSync(join(cache, `meta.json.${process.pid}`), JSON.stringify(metafile));
    renameSync(join(cache, `meta.json.${process.pid}`), join(cache, 'meta.json'));
    await writeRanks(join(out, 'ranks'));
    replace(dist, out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Moves the finished build to dist/, in place of the one there. rename() cannot replace a folder
 * that is not empty, so the old one moves aside first; when another build puts its own in between,
 * that one moves aside in turn. Whichever build finishes last stays, whole.
 */
function replace(target, build) {
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(build, target);
      return;
    } catch (error) {
      if (!['ENOTEMPTY', 'EEXIST'].includes(error.code) || attempt === 20) throw error;
    }
    const old = `${build}-old`;
    try {
      renameSync(target, old);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
    }
    rmSync(old, { recursive: true, force: true });
  }
}

if (import.meta.filename === process.argv[1]) await main();
