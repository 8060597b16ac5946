#!/usr/bin/env node
// Builds the package: src/ bundled by esbuild into dist/, then the generated data the runtime loads.
//
// One bundle with code splitting. dist/cli.cjs holds commander and the top of the command tree;
// each command's definition (each `import()` in src/commands/register.ts) and each verb (each
// `import('./list.js')` in a command's index file) becomes a chunk in dist/chunks/ that loads when
// it runs, with only the libraries it uses. A command added anywhere under src/commands/ is picked
// up by the same rule: no list to keep here. Each such chunk then carries copies of the small
// chunks it needs (see packLazyChunks). The CLI's files are CommonJS (see toCommonJs). Type
// checking is not done here (esbuild strips types): `npm test` and `npm run typecheck` run tsc.
//
// Pure-JavaScript dependencies are bundled. A package with native or WebAssembly parts stays
// external (imported from node_modules at run time) and must be in "dependencies": the ones named
// in ALWAYS_EXTERNAL, and any dependency found to ship a .node or .wasm file, a binding.gyp, or
// platform packages in optionalDependencies.
//
//   node scripts/build.mjs            build dist/
//   node scripts/build.mjs --analyze  also print what each output file holds
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { analyzeMetafile, build, transform } from 'esbuild';
import { decodeMappings, encodeMappings, PACK_THRESHOLD, packChunks } from './pack-chunks.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
export const METAFILE = join(root, 'node_modules', '.cache', 'llmobs-build', 'meta.json');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/**
 * Two builds. The CLI: dist/cli.cjs (what bin/llmobs.cjs runs) and the chunks of its commands in
 * dist/chunks/. The library entries, built apart so that they never load the CLI's entry: the
 * `llmobs/server` export and modules that scripts/ and bench/ load, with their chunks in dist/lib/.
 */
export const CLI_ENTRY = { cli: 'src/cli.ts' };
/** The CLI's entry as built: CommonJS (see toCommonJs). */
export const CLI_OUTPUT = 'dist/cli.cjs';
// A script or benchmark that imports a module from dist/ adds it here (a test checks that every
// dist/ path they name exists after the build).
export const LIBRARY_ENTRIES = {
  'server/index': 'src/server/index.ts',
  'server/store/index': 'src/server/store/index.ts',
  'server/ingest/batch': 'src/server/ingest/batch.ts',
  'tokenizer/counter': 'src/tokenizer/counter.ts',
  'data/catalogue': 'src/data/catalogue.ts',
  'tokenizer/load': 'src/tokenizer/load.ts',
  'core/models/pattern': 'src/core/models/pattern.ts',
  'completion/generate': 'src/completion/generate.ts',
  context: 'src/context.ts',
};

/** Packages never bundled, whatever the detection below finds (native bindings, WASM, their platform packages). */
export const ALWAYS_EXTERNAL = ['libsql', '@libsql/*', 'better-sqlite3', 'jq-web', 'jq-wasm', 'tiktoken', '@dqbd/tiktoken', 're2'];

const runtimeDeps = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies, ...pkg.peerDependencies });

/** True when the package in `dir` ships native or WebAssembly parts that a bundle cannot carry. */
export function hasNativeParts(dir) {
  if (!existsSync(join(dir, 'package.json'))) return false;
  const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  if (meta.gypfile || meta.binary || existsSync(join(dir, 'binding.gyp'))) return true;
  // Prebuilt binaries published as per-platform packages (libsql, esbuild, sharp...).
  if (Object.keys(meta.optionalDependencies ?? {}).some((dep) => /(darwin|linux|win32|freebsd|android)/.test(dep))) return true;
  const stack = [dir];
  let seen = 0;
  while (stack.length && seen < 5000) {
    const current = stack.pop();
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      seen++;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') stack.push(join(current, entry.name));
      } else if (/\.(node|wasm)$/.test(entry.name)) {
        return true;
      }
    }
  }
  return false;
}

export function externalPackages() {
  const detected = runtimeDeps.filter((name) => hasNativeParts(join(root, 'node_modules', ...name.split('/'))));
  return [...new Set([...ALWAYS_EXTERNAL, ...detected])];
}

/**
 * JSON files (the catalogue) become `JSON.parse('...')`, which V8 reads faster than the object
 * literal esbuild would write.
 */
const jsonAsText = {
  name: 'json-as-text',
  setup(b) {
    b.onLoad({ filter: /\.json$/ }, ({ path }) => {
      const text = JSON.stringify(JSON.parse(readFileSync(path, 'utf8')));
      return { loader: 'js', contents: `export default JSON.parse(${JSON.stringify(text)});` };
    });
  },
};

/** The esbuild options of one of the two builds; `define` adds constants written in at build time. */
export function buildOptions(entryPoints, chunkDir, plugins = [], define = {}) {
  return {
    absWorkingDir: root,
    entryPoints,
    outdir: dist,
    outbase: 'src',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: `${chunkDir}/[name]-[hash]`,
    external: externalPackages(),
    plugins: [builtinRequires, dynamicCommonJs, jsonAsText, ...plugins],
    define: { LLMOBS_BUILD_VERSION: JSON.stringify(pkg.version), ...define },
    minifyWhitespace: true,
    minifySyntax: true,
    keepNames: false,
    sourcemap: 'linked',
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  };
}

/**
 * Bundled CommonJS packages (commander, cli-table3, ajv...) call require() for Node's own modules,
 * which an ES module does not have. Each such require becomes process.getBuiltinModule() (Node
 * 20.16+), which costs nothing, rather than a createRequire() banner in every chunk, which loads
 * node:module and its source-map support at every start. Modules that are heavy to initialise and
 * only sometimes used (child_process pulls in net and dgram; commander needs it only for
 * executable subcommands, which llmobs has none of) load on first property access.
 */
const LAZY_BUILTINS = new Set(['child_process']);
const builtinRequires = {
  name: 'builtin-requires',
  setup(b) {
    b.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      if (args.kind !== 'require-call') return undefined;
      const name = args.path.replace(/^node:/, '');
      return BUILTINS.has(name) ? { path: name, namespace: 'node-builtin' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, ({ path }) => ({
      loader: 'js',
      contents: LAZY_BUILTINS.has(path)
        ? `let m; const load = () => (m ??= process.getBuiltinModule(${JSON.stringify(`node:${path}`)}));
module.exports = new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load(), ownKeys: () => Reflect.ownKeys(load()), getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(load(), key) });`
        : `module.exports = process.getBuiltinModule(${JSON.stringify(`node:${path}`)});`,
    }));
  },
};

/** Node's module type of a file: by extension, else the nearest package.json's "type". */
function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

/**
 * `await import('yaml')` of a CommonJS package gives named exports in Node (read from the
 * module's source), but a split esbuild bundle gives only `default`. Such imports go through a
 * small ES module that requires the package and exports its names, found by loading it here.
 */
const dynamicCommonJs = {
  name: 'dynamic-commonjs',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === 'inner') return undefined;
      const resolved = await b.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir, pluginData: 'inner' });
      if (resolved.errors.length || resolved.external || !isCommonJs(resolved.path)) return undefined;
      return { path: resolved.path, namespace: 'dynamic-commonjs' };
    });
    b.onLoad({ filter: /.*/, namespace: 'dynamic-commonjs' }, ({ path }) => {
      const names = Object.keys(createRequire(path)(path)).filter((name) => name !== 'default' && /^[A-Za-z_$][\w$]*$/.test(name));
      return {
        loader: 'js',
        resolveDir: dirname(path),
        contents: `const m = require(${JSON.stringify(path)});\nexport default m;\nexport const { ${names.join(', ')} } = m;\n`,
      };
    });
  },
};

/** Third-party code in the bundle keeps its licence: one file with each bundled package's notice. */
function writeLicenses(metafile) {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    if (!input.startsWith('node_modules/')) continue; // sources, and virtual modules of the plugins
    const dir = join(root, /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input)[1]);
    if (packages.has(dir)) continue;
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenseFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\..*)?$/i.test(f));
    packages.set(dir, { name: meta.name, version: meta.version, license: meta.license, text: licenseFile ? readFileSync(join(dir, licenseFile), 'utf8').trim() : undefined });
  }
  const sorted = [...packages.values()].sort((a, b) => a.name.localeCompare(b.name));
  const body = sorted
    .map((p) => `${p.name} ${p.version} (${p.license ?? 'see package'})\n\n${p.text ?? `No licence file in the package; its package.json says: ${p.license}`}`)
    .join(`\n\n${'-'.repeat(72)}\n\n`);
  writeFileSync(join(dist, 'THIRD-PARTY-LICENSES.txt'), `dist/ bundles code from these packages:\n\n${body}\n`);
}

/**
 * Sources that find files relative to their own module. In the bundle their code runs from
 * dist/chunks/ (or dist/lib/), one directory below dist/: data they read must be found from
 * there too, or be imported (JSON) so that it is bundled. The ones known to do it right:
 */
// sqlite.ts and otel/decode.ts require libsql and protobufjs at run time (createRequire), which is
// why those two stay runtime dependencies; output.ts only as a fallback outside the CLI.
const RELATIVE_PATHS_CHECKED = new Set(['src/data/catalogue.ts', 'src/tokenizer/load.ts', 'src/version.ts', 'src/server/store/sqlite.ts', 'src/server/ingest/otel/decode.ts', 'src/output/output.ts']);
function warnRelativePaths(metafile) {
  const users = Object.keys(metafile.inputs).filter(
    (input) => input.startsWith('src/') && !RELATIVE_PATHS_CHECKED.has(input) && /import\.meta\.(url|dirname|filename)|__dirname/.test(readFileSync(join(root, input), 'utf8')),
  );
  for (const input of users) {
    console.warn(`build: ${input} locates files relative to itself; bundled, it runs from dist/chunks/. Check that what it reads is found from there (see scripts/build.mjs).`);
  }
}

/** Every import left external must be installed for users: it has to be a runtime dependency. */
function checkExternals(metafile) {
  const missing = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const imp of output.imports) {
      if (!imp.external || imp.path.startsWith('node:') || imp.path.startsWith('.')) continue;
      const name = imp.path.startsWith('@') ? imp.path.split('/').slice(0, 2).join('/') : imp.path.split('/')[0];
      if (!isBuiltin(name) && !runtimeDeps.includes(name)) missing.add(name);
    }
  }
  if (missing.size) {
    console.error(`build: ${[...missing].join(', ')} stay external (not bundled) but are not in "dependencies" of package.json`);
    process.exit(1);
  }
}

const BUILTINS = new Set((await import('node:module')).builtinModules);
const isBuiltin = (name) => BUILTINS.has(name);

/**
 * esbuild puts every module that the entry shares with a command's chunk (commander, errors,
 * context...) in chunks of their own, so `llmobs --version` would open ten files. Each costs a
 * read and a trip through the module loader, which shows at start-up. This pass folds the entry's
 * static imports into the entry (dist/cli.cjs) itself, and the command chunks that imported a
 * folded chunk import the same names from the entry instead (live bindings, one instance). A
 * command's chunk always loads after the entry, so nothing loads twice.
 */
async function foldEntryImports(metafile, entry) {
  const outputs = metafile.outputs;
  const folded = [];
  const visit = (file) => {
    for (const imp of outputs[file].imports) {
      if (imp.kind === 'import-statement' && !imp.external && !folded.includes(imp.path)) {
        folded.push(imp.path);
        visit(imp.path);
      }
    }
  };
  visit(entry);
  if (folded.length === 0) return [];
  const absolute = (file) => join(root, file);
  for (const file of folded) {
    // Code that finds files relative to its own module would look in the wrong directory.
    if (readFileSync(absolute(file), 'utf8').includes('import.meta.url')) throw new Error(`build: ${file} uses import.meta.url and cannot be folded into ${entry}`);
  }
  const prefix = (n) => `__folded${n}_`;
  let source = `export * from ${JSON.stringify(absolute(entry))};\n`;
  folded.forEach((file, n) => {
    const names = outputs[file].exports;
    if (names.length) source += `export { ${names.map((name) => `${name} as ${prefix(n)}${name}`).join(', ')} } from ${JSON.stringify(absolute(file))};\n`;
  });
  const foldedAbs = new Set(folded.map(absolute));
  await build({
    absWorkingDir: root,
    stdin: { contents: source, resolveDir: dist, sourcefile: 'cli-entry.js', loader: 'js' },
    outfile: absolute(entry),
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [
      {
        name: 'other-chunks-stay-external',
        setup(b) {
          b.onResolve({ filter: /\.c?js$/ }, (args) => {
            const path = args.path.startsWith('/') ? args.path : join(args.resolveDir, args.path);
            if (foldedAbs.has(path) || path === absolute(entry)) return { path };
            return { path: `./${relative(dist, path)}`, external: true };
          });
        },
      },
    ],
  });
  // The command chunks import the folded names from the entry itself; the folded files go.
  const foldedIndex = new Map(folded.map((file, n) => [absolute(file), n]));
  for (const file of Object.keys(outputs)) {
    if (!/\.c?js$/.test(file) || file === entry || foldedIndex.has(absolute(file))) continue;
    const path = absolute(file);
    const code = readFileSync(path, 'utf8');
    const edits = [];
    const rewritten = importsFromEntry(code, dirname(path), foldedIndex, `./${relative(dirname(path), absolute(entry))}`.replace('./../', '../'), prefix, edits);
    if (rewritten !== code) {
      writeFileSync(path, rewritten);
      if (existsSync(`${path}.map`)) writeFileSync(`${path}.map`, shiftMap(readFileSync(`${path}.map`, 'utf8'), code, edits));
    }
  }
  for (const file of folded) {
    rmSync(absolute(file));
    rmSync(`${absolute(file)}.map`, { force: true });
  }
  return folded;
}

/**
 * Rewrites the import statements at the top of a chunk (esbuild writes them all there) that name
 * a folded chunk: `import{a as b}from"./chunk-X.js"` becomes an import of the prefixed name from
 * the entry, and a bare `import"./chunk-X.js"` goes (the entry has run it already).
 */
function importsFromEntry(code, dir, foldedIndex, entryPath, prefix, edits = []) {
  const statement = /^import\s*(?:\{([^}]*)\}\s*from\s*)?"([^"]+)";?/;
  let rest = code;
  let head = '';
  for (let match = statement.exec(rest); match; match = statement.exec(rest)) {
    const [text, names, from] = match;
    const n = from.startsWith('.') ? foldedIndex.get(join(dir, from)) : undefined;
    if (n === undefined) head += text;
    else if (names !== undefined) {
      const specifiers = names.split(',').map((spec) => {
        const [imported, local = imported] = spec.trim().split(/\s+as\s+/);
        return `${prefix(n)}${imported} as ${local}`;
      });
      head += `import{${specifiers.join(',')}}from${JSON.stringify(entryPath)};`;
    }
    rest = rest.slice(text.length);
  }
  // Any other form of import of a folded chunk would now point at a deleted file.
  for (const [path] of foldedIndex) {
    const name = path.slice(path.lastIndexOf('/') + 1);
    if (rest.includes(`/${name}"`) || rest.includes(`"./${name}"`)) throw new Error(`build: an import of ${name} that the fold cannot rewrite`);
  }
  // One edit, for the source map: the import statements at the top, as rewritten.
  if (code.length - rest.length !== head.length || !code.startsWith(head)) edits.push({ offset: 0, before: code.length - rest.length, after: head });
  return head + rest;
}

/**
 * The CLI's files become CommonJS (dist/cli.cjs, dist/chunks/*.cjs, run by bin/llmobs.cjs). On
 * Node 20 the first ES module a process loads starts the ES module loader, some 5 ms of CPU of a
 * 25 ms bare start, paid again in part for every further module; require() of a CommonJS file
 * costs a read and a compile. esbuild splits code only in ES module format, so the split output
 * is converted file by file: `import` becomes `require`, `import()` of another chunk a require()
 * in a promise, and exports getters on `module.exports` (still live bindings, still one instance
 * of each module). A package loaded with import() stays an import(): it may be an ES module, or
 * pick other files for import than for require (jq-wasm).
 */
async function toCommonJs(metafile, files) {
  for (const file of files) {
    const path = join(root, file);
    const mapPath = `${path}.map`;
    const original = readFileSync(path, 'utf8').replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '');
    // What changes before the conversion, in one pass (its source map follows: shiftMap).
    const replacements = new Map([
      // A CommonJS module has its own file and folder names at hand, at no cost.
      ['import.meta.dirname', '__dirname'],
      ['import.meta.filename', '__filename'],
      // Computed on first use: most runs never use it, and the first pathToFileURL of a process
      // costs (path.resolve, the URL parser).
      ['import.meta.url', '__llmobsImportMetaUrl()'],
    ]);
    for (const imp of metafile.outputs[file]?.imports ?? []) {
      if (!imp.external) continue;
      if (imp.path.startsWith('node:') || isBuiltin(imp.path.split('/')[0])) continue;
      if (imp.kind !== 'dynamic-import') throw new Error(`build: ${file} imports ${imp.path} statically; load a package that stays external with import() or createRequire`);
      replacements.set(`import(${JSON.stringify(imp.path)})`, `__llmobsImport(${JSON.stringify(imp.path)})`);
    }
    const edits = [];
    const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    let code = replaceRecorded(original, new RegExp([...replacements.keys()].map(literal).join('|'), 'g'), (text) => replacements.get(text), edits);
    const banner = ['"use strict";'];
    if (code.includes('__llmobsImport(')) banner.push('var __llmobsImport=(specifier)=>import(specifier);');
    if (code.includes('__llmobsImportMetaUrl()')) banner.push('var __llmobsMetaUrl;function __llmobsImportMetaUrl(){return __llmobsMetaUrl??=require("node:url").pathToFileURL(__filename).href}');
    // The bundle's source map goes in inline, so that the converted file maps to the sources.
    if (existsSync(mapPath)) code += `\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(shiftMap(readFileSync(mapPath, 'utf8'), original, edits)).toString('base64')}`;
    const out = await transform(code, {
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      supported: { 'dynamic-import': false },
      minifyWhitespace: true,
      minifySyntax: true,
      legalComments: 'none',
      sourcemap: 'external',
      sourcefile: basename(file),
      banner: banner.join(''),
      logLevel: 'silent',
    });
    if (out.warnings.length) throw new Error(`build: ${file} does not convert to CommonJS cleanly: ${out.warnings.map((w) => w.text).join('; ')}`);
    if (/\bimport\.meta\b/.test(out.code)) throw new Error(`build: ${file} still uses import.meta after the conversion to CommonJS`);
    // A rewrite of esbuild's output, and its source map with it.
    const layerEdits = [];
    const oneLayer = oneLayerOfExports(out.code, file, layerEdits);
    writeFileSync(path, `${oneLayer}//# sourceMappingURL=${basename(file)}.map\n`);
    writeFileSync(mapPath, shiftMap(out.map, out.code, layerEdits));
  }
}

/**
 * esbuild's CommonJS form of an ES module sets `module.exports` to a copy of the module's exports
 * object: a second object with a getter per name, each reading through the first one's getter.
 * The exports object itself, marked `__esModule` as the copy is, does the same with one getter
 * and no copy (the names, their order and enumerability are the same, and the bindings still
 * live): fewer objects and property definitions as each file loads, a few hundred per command.
 * A bundled package built by esbuild carries the same helper, and gets the same change.
 */
function oneLayerOfExports(code, file, edits = []) {
  const copying = /__toCommonJS=(\w+)=>__copyProps\(__defProp\(\{\},"__esModule",\{value:!0\}\),\1\)/g;
  if (!code.includes('__toCommonJS')) return code;
  const changed = replaceRecorded(code, copying, (_whole, name) => `__toCommonJS=${name}=>__defProp(${name},"__esModule",{value:!0})`, edits);
  if (changed === code) throw new Error(`build: ${file}: esbuild's __toCommonJS is not in the expected form; update oneLayerOfExports`);
  return changed;
}

/** String.replace that records each replacement (where, how long before and after) in `edits`. */
function replaceRecorded(code, pattern, replacer, edits) {
  return code.replace(pattern, (...match) => {
    const whole = match[0];
    const offset = match.at(-2);
    const replacement = replacer(...match);
    if (replacement !== whole) edits.push({ offset, before: whole.length, after: replacement });
    return replacement;
  });
}

/**
 * The source map (JSON text) of `code` after the edits made to it (replaceRecorded: where, how
 * long the text replaced, and its replacement): the mappings of the code after each edit move
 * with it, by lines and columns; those of the text replaced go. (Each rewrite of esbuild's output
 * that does not follow it leaves everything after it on its line, on bundles' long lines most of
 * a file, mapped to other lines or other files.)
 */
export function shiftMap(mapText, code, edits) {
  if (edits.length === 0) return mapText;
  const map = JSON.parse(mapText);
  let lines = decodeMappings(map.mappings);
  const lineStarts = [0];
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  while (lines.length < lineStarts.length) lines.push([]);
  const position = (offset) => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return [low, offset - lineStarts[low]];
  };
  // From the last edit to the first: an edit moves only what follows it, so the positions of the
  // ones before it stay those of `code`.
  for (const { offset, before, after } of [...edits].sort((a, b) => b.offset - a.offset)) {
    const [startLine, startColumn] = position(offset);
    const [endLine, endColumn] = position(offset + before);
    const added = after.split('\n');
    const newEndLine = startLine + added.length - 1;
    const newEndColumn = (added.length === 1 ? startColumn : 0) + added.at(-1).length;
    const moved = (lines[endLine] ?? []).filter((segment) => segment[0] >= endColumn).map(([column, ...rest]) => [newEndColumn + column - endColumn, ...rest]);
    const kept = (lines[startLine] ?? []).filter((segment) => segment[0] < startColumn);
    const middle = Array.from({ length: newEndLine - startLine }, () => []);
    const joined = [kept, ...middle];
    joined[joined.length - 1] = [...joined[joined.length - 1], ...moved];
    lines = [...lines.slice(0, startLine), ...joined, ...lines.slice(endLine + 1)];
  }
  map.mappings = encodeMappings(lines);
  return JSON.stringify(map);
}

/**
 * Code splitting makes a chunk for each set of entries that share code, so a command loads
 * dozens of small chunks (`estimate` some thirty files), and each file costs a trip through the
 * module loader, a read, and a read of its compiled code. Each chunk that loads lazily (a
 * command's definition, a verb) becomes a pack: the small chunks it needs at load are copied into
 * its file, and run from there, once per process whichever pack loads them first (see
 * scripts/pack-chunks.mjs). Big shared chunks (the catalogue, decimal.js, zod...) stay files.
 * Returns, for each pack (a path of dist/chunks/), the chunks copied into it.
 */
function packLazyChunks(metafile) {
  const dir = 'dist/chunks/';
  const inDir = (file) => file.startsWith(dir) && file.endsWith('.cjs') && existsSync(join(root, file));
  const chunks = {};
  const roots = new Set();
  for (const [file, output] of Object.entries(metafile.outputs)) {
    for (const imp of output.imports) {
      if (imp.external || !inDir(imp.path)) continue;
      if (imp.kind === 'dynamic-import') roots.add(imp.path.slice(dir.length));
      else if (inDir(file)) (chunks[file.slice(dir.length)] ??= []).push(imp.path.slice(dir.length));
    }
    if (inDir(file)) chunks[file.slice(dir.length)] ??= [];
  }
  // LLMOBS_PACK_THRESHOLD=bytes builds with another threshold, to measure one.
  const threshold = Number(process.env.LLMOBS_PACK_THRESHOLD ?? PACK_THRESHOLD);
  // A command's definition (src/commands/<name>/index.ts, standalone.ts) carries the output modules that every
  // run of a command imports (Context.prepare): two files fewer to load per command.
  // (The chunk an import() of a module loads has that module as its entry point.)
  const imported = (module) => Object.keys(metafile.outputs).filter((file) => inDir(file) && metafile.outputs[file].entryPoint === module).map((file) => file.slice(dir.length));
  const outputModules = ['src/output/output.ts', 'src/output/color.ts'].flatMap(imported);
  if (outputModules.length !== 2) throw new Error(`build: the chunks that import() of the output modules loads are not found (${outputModules.join(', ')})`);
  const companions = {};
  for (const name of roots) {
    if (/^src\/commands\/(?:[^/]+\/index|standalone)\.ts$/.test(metafile.outputs[dir + name].entryPoint ?? '')) companions[name] = outputModules;
  }
  const packed = packChunks(join(root, dir), chunks, [...roots].sort(), threshold, companions);
  return Object.fromEntries(Object.entries(packed).map(([pack, list]) => [dir + pack, list.map((name) => dir + name)]));
}

/**
 * The CommonJS wrapper, written into each file of dist/ that require() loads. bin/llmobs.cjs
 * compiles a file with its cached code as a script that is one function expression, as Node's
 * Module.wrap makes it; a file that is that function already is compiled as read. Wrapping it at
 * run time joined two strings that V8 then copied whole, the size of the file, at every start (a
 * fifth of an `estimate`'s new-generation heap). Node's own loader, which wraps every file, runs
 * the same code through `.apply(this, arguments)`. The header has a line of its own: a source map
 * then needs one line more at its start, not a shift of every column of the first line.
 */
export const LOADER_HEAD = '(function(exports,require,module,__filename,__dirname){\n';
export const LOADER_TAIL = '\n}).apply(this,arguments);\n';

/** Writes LOADER_HEAD and LOADER_TAIL around each CommonJS file of dist/, and one line more into its source map. */
function wrapForLoader(folder = dist) {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      wrapForLoader(path);
      continue;
    }
    if (!entry.name.endsWith('.cjs')) continue;
    const code = readFileSync(path, 'utf8');
    if (code.startsWith(LOADER_HEAD)) throw new Error(`build: ${relative(root, path)} is wrapped twice`);
    const mapComment = /\n?(\/\/# sourceMappingURL=\S+)\s*$/.exec(code);
    const body = mapComment ? code.slice(0, mapComment.index) : code;
    writeFileSync(path, `${LOADER_HEAD}${body}${LOADER_TAIL}${mapComment ? `${mapComment[1]}\n` : ''}`);
    const mapPath = `${path}.map`;
    if (mapComment && existsSync(mapPath)) {
      const map = JSON.parse(readFileSync(mapPath, 'utf8'));
      map.mappings = `;${map.mappings}`;
      writeFileSync(mapPath, JSON.stringify(map));
    }
  }
}

/** Imports a module of src/ (TypeScript) through an in-memory esbuild bundle. */
async function importSource(path) {
  const { outputFiles } = await build({ absWorkingDir: root, entryPoints: [path], bundle: true, format: 'esm', platform: 'node', packages: 'external', write: false, logLevel: 'warning' });
  return import(`data:text/javascript;base64,${Buffer.from(outputFiles[0].contents).toString('base64')}`);
}

/**
 * The built-in catalogue's match patterns, parsed ahead: each one's literal prefilter and the
 * features that make a verdict exact (src/core/models/pattern.ts). Matching a model name then
 * compiles only the patterns whose literals the name contains, instead of all of them at every
 * `estimate` and `models match` (some 45 ms). Written into the bundle as LLMOBS_KNOWN_PATTERNS, in
 * the compact form of src/core/models/known-patterns.ts.
 */
async function knownPatterns() {
  const [{ precomputePatterns }, { encodeKnownPatterns }] = await Promise.all([importSource('src/core/models/pattern.ts'), importSource('src/core/models/known-patterns.ts')]);
  const catalogue = JSON.parse(readFileSync(join(root, 'src', 'data', 'catalogue.json'), 'utf8'));
  return encodeKnownPatterns(precomputePatterns(catalogue.models.map((model) => model.matchPattern)));
}

/**
 * The built-in catalogue in the form src/data/catalogue.ts reads at start: what matching needs
 * first, each model's prices apart, parsed when read. Written to dist/ as CATALOGUE_FILE, whose
 * name the bundle gets as LLMOBS_CATALOGUE_FILE.
 */
export const CATALOGUE_FILE = 'catalogue.data';
async function catalogueText() {
  const { encodeCatalogue } = await importSource('src/data/catalogue.ts');
  return encodeCatalogue(JSON.parse(readFileSync(join(root, 'src', 'data', 'catalogue.json'), 'utf8')));
}

/**
 * dist/build-id: a digest of the CLI's files, which bin/llmobs.cjs names its compile-cache folder
 * by. V8 checks only the length of a source it is given cached code for, so a folder must never
 * hold code cached for another build's files.
 */
export function buildId(dir) {
  const hash = createHash('sha256');
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.cjs')) hash.update(`${relative(dir, path)}\0`).update(readFileSync(path)).update('\0');
    }
  };
  walk(dir);
  return hash.digest('hex').slice(0, 16);
}

function writeBuildId() {
  writeFileSync(join(dist, 'build-id'), `${buildId(dist)}\n`);
}

async function main() {
  // Stale chunks from an earlier build must not linger (their hashes differ).
  for (const entry of existsSync(dist) ? readdirSync(dist) : []) {
    if (entry !== 'ranks') rmSync(join(dist, entry), { recursive: true, force: true });
  }
  mkdirSync(dist, { recursive: true });
  writeFileSync(join(dist, CATALOGUE_FILE), await catalogueText());
  const define = { LLMOBS_KNOWN_PATTERNS: JSON.stringify(await knownPatterns()), LLMOBS_CATALOGUE_FILE: JSON.stringify(CATALOGUE_FILE) };
  const cli = await build({ ...buildOptions(CLI_ENTRY, 'chunks', [], define), outExtension: { '.js': '.cjs' } });
  const library = await build(buildOptions(LIBRARY_ENTRIES, 'lib', [], define));
  const metafile = { inputs: { ...library.metafile.inputs, ...cli.metafile.inputs }, outputs: { ...library.metafile.outputs, ...cli.metafile.outputs } };
  checkExternals(metafile);
  warnRelativePaths(metafile);
  writeLicenses(metafile);
  const folded = await foldEntryImports(cli.metafile, CLI_OUTPUT);
  await toCommonJs(cli.metafile, Object.keys(cli.metafile.outputs).filter((file) => file.endsWith('.cjs') && existsSync(join(root, file))));
  const packed = packLazyChunks(cli.metafile);
  wrapForLoader();
  writeBuildId();
  // What each output file holds, for --analyze and for the test that guards the start-up path.
  mkdirSync(dirname(METAFILE), { recursive: true });
  writeFileSync(METAFILE, JSON.stringify({ ...metafile, folded: { [CLI_OUTPUT]: folded }, packed }));
  if (process.argv.includes('--analyze')) console.log(await analyzeMetafile(metafile));

  // Steps that generate runtime data register themselves as scripts/build-*.mjs.
  for (const file of readdirSync(join(root, 'scripts')).sort()) {
    if (/^build-.+\.mjs$/.test(file)) {
      execFileSync(process.execPath, [join(root, 'scripts', file)], { stdio: 'inherit', cwd: root });
    }
  }

  // The bundle finds its data by paths relative to its chunks: check that they resolve, from the
  // library build and from the CLI's.
  const { DEFAULT_RANKS_DIR } = await import(pathToFileURL(join(dist, 'tokenizer', 'load.js')).href);
  if (!existsSync(join(DEFAULT_RANKS_DIR, 'o200k_base.bin'))) {
    console.error(`build: the bundle looks for rank tables in ${relative(root, DEFAULT_RANKS_DIR)}, where there are none`);
    process.exit(1);
  }
  execFileSync(process.execPath, [join(root, 'bin', 'llmobs.cjs'), 'tokens', 'count', 'hello'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const { builtInDefinitions } = await import(pathToFileURL(join(dist, 'data', 'catalogue.js')).href);
  if (builtInDefinitions().length !== JSON.parse(readFileSync(join(root, 'src', 'data', 'catalogue.json'), 'utf8')).models.length) {
    console.error(`build: the bundle does not read the catalogue in ${CATALOGUE_FILE} whole`);
    process.exit(1);
  }
  const files = Object.keys(metafile.outputs).filter((f) => /\.c?js$/.test(f) && existsSync(join(root, f)));
  // A require() of Node's own module that the plugin missed would throw at run time in an ES
  // module (or be silently skipped where the package tries it in a try block).
  for (const file of files) {
    for (const [, id] of readFileSync(join(root, file), 'utf8').matchAll(/__require\("([^"]+)"\)/g)) {
      if (isBuiltin(id.replace(/^node:/, ''))) throw new Error(`build: ${file} requires ${id} in a way the bundle cannot serve`);
    }
  }
  const size = files.reduce((n, f) => n + statSync(join(root, f)).size, 0);
  const copies = Object.values(packed).reduce((n, list) => n + list.length, 0);
  console.log(`build: ${files.length} files, ${(size / 1024).toFixed(0)} KB of JavaScript in dist/ (${folded.length} chunks folded into ${CLI_OUTPUT}, ${copies} copies of small chunks in ${Object.keys(packed).length} packs)`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await main();
