// Guards the start-up structure of the shipped binary, not its speed (that is bench/startup.mjs):
// which files each everyday command loads, traced with a module loader hook, and what the build
// put in dist/cli.js. A command that starts loading zod or the HTTP stack fails here.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const METAFILE = join(ROOT, 'node_modules', '.cache', 'llmobs-build', 'meta.json');

interface Metafile {
  inputs: Record<string, { imports: Array<{ path: string; kind: string }> }>;
  outputs: Record<string, { inputs: Record<string, unknown> }>;
  folded: Record<string, string[]>;
  /** Packs: lazily loaded chunks, with the small chunks copied into them (scripts/pack-chunks.mjs). */
  packed: Record<string, string[]>;
}

function metafile(): Metafile {
  if (!existsSync(METAFILE)) throw new Error(`${METAFILE} is missing: run npm run build`);
  return JSON.parse(readFileSync(METAFILE, 'utf8')) as Metafile;
}

/** The source modules and packages bundled into an output file (with what was folded or packed into it). */
function inputsOf(meta: Metafile, file: string): string[] {
  return [file, ...(meta.folded[file] ?? []), ...(meta.packed[file] ?? [])].flatMap((f) => Object.keys(meta.outputs[f]?.inputs ?? {}));
}

const packageOf = (input: string) => /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

// ES modules through a loader hook; CommonJS through Module.prototype._compile. Every file the
// process loads is appended to $TRACE_FILE.
function tracer(): { flag: string; file: string } {
  const dir = tempDir('llmobs-trace-');
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
let out;
export async function initialize(data) { out = data.out; }
export async function load(url, context, next) {
  if (url.startsWith('file:')) appendFileSync(out, url + '\\n');
  return next(url, context);
}
`,
  );
  const file = join(dir, 'loaded.txt');
  writeFileSync(file, '');
  writeFileSync(
    join(dir, 'trace.mjs'),
    `import Module, { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
register(new URL('./hooks.mjs', import.meta.url), { data: { out: ${JSON.stringify(file)} } });
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, filename) {
  appendFileSync(${JSON.stringify(file)}, pathToFileURL(filename).href + '\\n');
  return compile.call(this, content, filename);
};
`,
  );
  return { flag: pathToFileURL(join(dir, 'trace.mjs')).href, file };
}

/** Runs the binary and returns the files it loaded, relative to the package root. */
async function loadedFiles(args: string[]): Promise<string[]> {
  const { flag, file } = tracer();
  // Without the compile cache, which replaces the same compile step for the files of dist/.
  const result = await execa(process.execPath, ['--import', flag, BIN, ...args], { env: isolatedEnv({ LLMOBS_COMPILE_CACHE: '0' }), extendEnv: false, reject: false, stdin: 'ignore' });
  expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  // A CommonJS file can be seen by both hooks: each file once, in the order first seen.
  const urls = readFileSync(file, 'utf8').trim().split('\n');
  return [...new Set(urls)].map((url) => relative(ROOT, new URL(url).pathname));
}

describe('start-up structure of the built CLI', () => {
  it('--version and --help load the entry file and nothing else', async () => {
    for (const args of [['--version'], ['--help'], ['-V']]) {
      expect(await loadedFiles(args), args.join(' ')).toEqual(['bin/llmobs.cjs', 'dist/cli.cjs']);
    }
  });

  it('the entry holds commander and the command tree, not the commands', () => {
    const meta = metafile();
    const inputs = inputsOf(meta, 'dist/cli.cjs');
    expect(new Set(inputs.map(packageOf).filter(Boolean))).toEqual(new Set(['commander']));
    // Verbs are chunks of their own: no module that is loaded with import() is in the entry.
    expect(inputs.filter((input) => input.startsWith('src/commands/')).length).toBeGreaterThan(3);
    const lazy = new Set(
      Object.entries(meta.inputs)
        .filter(([file]) => file.startsWith('src/commands/'))
        .flatMap(([, input]) => input.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path)),
    );
    expect(lazy.size).toBeGreaterThan(20);
    expect(inputs.filter((input) => lazy.has(input))).toEqual([]);
    // Each group's verbs did become chunks (the build picks them up from the import() calls).
    const chunks = Object.entries(meta.outputs).filter(([file]) => file.startsWith('dist/chunks/'));
    for (const verb of ['src/commands/profile/list.ts', 'src/commands/estimate/action.ts', 'src/commands/tokens/count.ts', 'src/commands/models/match.ts']) {
      expect(chunks.some(([, output]) => verb in output.inputs), verb).toBe(true);
    }
  });

  // What each everyday command must not load: none of them loads zod, the HTTP stack, the
  // packages with native or WebAssembly parts, or the table and prompt libraries (piped output).
  const offline = ['undici', 'conf', 'ajv', 'cli-table3', '@inquirer/prompts', 'yaml', 'zod', 'libsql', 'protobufjs', 'jq-wasm'];
  // Nor the regex engine when the patterns known at build time decide the name (gpt-4o).
  const regexEngine = ['src/core/models/pattern.ts', 'src/core/regex/are-parser.ts', 'src/core/regex/automaton.ts', 'src/core/regex/js-parser.ts'];
  const cases: Array<[string[], string[]]> = [
    [['tokens', 'count', '--encoding', 'o200k_base', 'hello'], [...offline, 'decimal.js', 'src/data/catalogue.ts', ...regexEngine]],
    [['estimate', '--model', 'gpt-4o', '--input', 'hi'], [...offline, 'decimal.js', ...regexEngine]],
    [['estimate', '--model', 'gpt-4o', '--input', 'hi', '--offline'], [...offline, 'decimal.js', ...regexEngine]],
    [['models', 'match', 'gpt-4o', '--offline'], [...offline, 'decimal.js', ...regexEngine]],
    [['profile', 'list'], [...offline, 'decimal.js', 'src/data/catalogue.ts', ...regexEngine]],
  ];
  it.each(cases)('%j loads only bundled files, none of what it does not use', async (args, forbidden) => {
    const meta = metafile();
    const files = await loadedFiles(args);
    expect(files.filter((file) => !/^(bin\/llmobs\.cjs|dist\/)/.test(file))).toEqual([]);
    const inputs = files.flatMap((file) => inputsOf(meta, file));
    const loaded = new Set([...inputs, ...inputs.map(packageOf)]);
    expect(forbidden.filter((name) => loaded.has(name))).toEqual([]);
  });

  it('writes to a pipe or /dev/null without making Node\'s stdio streams (their modules are not loaded), nor loading node:os', async () => {
    const dir = tempDir('llmobs-streams-');
    const preload = join(dir, 'modules.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));\n`);
    const streamModules = async (stdio: 'pipe' | 'ignore', args: string[]) => {
      const out = join(dir, `${stdio}.txt`);
      const result = await execa(process.execPath, ['-r', preload, BIN, ...args], { env: isolatedEnv({ MODULES_OUT: out }), extendEnv: false, reject: false, stdin: 'ignore', stdout: stdio, stderr: stdio });
      expect(result.exitCode).toBe(0);
      return readFileSync(out, 'utf8').split('\n').filter((name) => /^NativeModule (stream|internal\/streams\/(readable|writable|duplex)|internal\/fs\/sync_write_stream|net|tty|os)$/.test(name));
    };
    for (const args of [['estimate', '--model', 'gpt-4o', '--input', 'hi'], ['--help']]) {
      expect(await streamModules('pipe', args), `piped: ${args.join(' ')}`).toEqual([]);
      expect(await streamModules('ignore', args), `to /dev/null: ${args.join(' ')}`).toEqual([]);
    }
  });

  it('loads the regex engine when a pattern must be compiled, and only then', async () => {
    const meta = metafile();
    const loads = async (args: string[]) => (await loadedFiles(args)).flatMap((file) => inputsOf(meta, file)).includes('src/core/regex/automaton.ts');
    // gpt-4.1's pattern reads "gpt-4", any character, "1": its literals are all in the name.
    expect(await loads(['models', 'match', 'gpt-4.1', '--offline'])).toBe(true);
    // A tier with a usage condition (a regex over usage keys) in the definition that matches.
    expect(await loads(['estimate', '--model', 'gemini-2.5-pro', '--usage', '{"input": 10}'])).toBe(true);
    expect(await loads(['models', 'match', 'gpt-4o', '--offline'])).toBe(false);
  });

  // Packs (scripts/pack-chunks.mjs): the chunks a command needs come in its own files. Some
  // headroom over today's counts (estimate 4, models match 4, tokens count 5, profile list 5,
  // bin/llmobs.cjs included); before packs these loaded 30, 20, 15 and 16 files.
  it.each([
    [['estimate', '--model', 'gpt-4o', '--input', 'hi'], 6],
    [['models', 'match', 'gpt-4o', '--offline'], 6],
    [['tokens', 'count', '--encoding', 'o200k_base', 'hello'], 7],
    [['profile', 'list'], 7],
  ])('%j loads at most %i files', async (args, most) => {
    expect((await loadedFiles(args)).length).toBeLessThanOrEqual(most);
  });

  it('runs each chunk once when every pack loads in one process, in either order, with plain require', async () => {
    const meta = metafile();
    expect(Object.keys(meta.packed).length).toBeGreaterThan(20);
    // Counts the runs of each module: from its file (Module.prototype._compile) or from a pack's
    // copy (the factories packs register).
    const script = join(tempDir('llmobs-packs-'), 'all.cjs');
    writeFileSync(
      script,
      `const Module = require('node:module');
const runs = new Map();
const count = (file) => runs.set(file, (runs.get(file) ?? 0) + 1);
const compile = Module.prototype._compile;
Module.prototype._compile = function (content, file) { count(file); return compile.call(this, content, file); };
globalThis[Symbol.for('llmobs.chunks')] = new (class extends Map { set(file, make) { return super.set(file, () => { count(file); return make(); }); } })();
require(${JSON.stringify(join(ROOT, 'dist', 'cli.cjs'))});
const packs = JSON.parse(process.argv[2]);
for (const pack of packs) require(require('node:path').join(${JSON.stringify(ROOT)}, pack));
process.stdout.write(JSON.stringify({ modules: runs.size, twice: [...runs].filter(([, n]) => n > 1) }));
`,
    );
    const packs = Object.keys(meta.packed).sort();
    for (const order of [packs, [...packs].reverse()]) {
      const result = await execa(process.execPath, [script, JSON.stringify(order)], { env: isolatedEnv(), extendEnv: false, stdin: 'ignore' });
      const report = JSON.parse(result.stdout) as { modules: number; twice: unknown[] };
      expect(report.twice).toEqual([]);
      expect(report.modules).toBeGreaterThan(packs.length);
    }
  });

  it('keeps V8\'s compiled code of dist/ in the cache directory, and runs the same from it, or from a damaged copy', async () => {
    const cache = tempDir('llmobs-cache-');
    const env = isolatedEnv({ LLMOBS_CACHE_DIR: cache });
    const args = ['estimate', '--model', 'gpt-4o', '--input', 'hi', '--json'];
    const run = async () => {
      const result = await execa(process.execPath, [BIN, ...args], { env, extendEnv: false, reject: false, stdin: 'ignore' });
      expect(result.exitCode, result.stderr).toBe(0);
      return result.stdout;
    };
    const uncached = await execa(process.execPath, [BIN, ...args], { env: { ...env, LLMOBS_COMPILE_CACHE: '0' }, extendEnv: false, stdin: 'ignore' });
    expect(existsSync(join(cache, 'compile-cache')), 'LLMOBS_COMPILE_CACHE=0 writes nothing').toBe(false);
    expect(await run()).toBe(uncached.stdout);
    const [build, ...others] = readdirSync(join(cache, 'compile-cache'));
    expect(others).toEqual([]);
    const entries = () => readdirSync(join(cache, 'compile-cache', build!));
    expect(entries()).toContain(`cli.cjs@estimate-${readFileSync(join(ROOT, 'dist', 'cli.cjs'), 'utf8').length}.bin`);
    expect(entries().some((name) => name.startsWith('chunks+'))).toBe(true);
    expect(entries().filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // The second run starts from the entries: V8 took them, none was written again.
    const written = () => entries().map((name) => [name, statSync(join(cache, 'compile-cache', build!, name)).mtimeMs]);
    const first = written();
    expect(await run()).toBe(uncached.stdout);
    expect(written()).toEqual(first);
    // An entry a minute old or more is written again by a run that uses it (with what that run
    // compiled too), then used as it is.
    const aged = Date.now() / 1000 - 120;
    for (const name of entries()) utimesSync(join(cache, 'compile-cache', build!, name), aged, aged);
    expect(await run()).toBe(uncached.stdout);
    const refreshed = written();
    expect(refreshed.every(([, mtimeMs]) => (mtimeMs as number) > aged * 1000 + 60_000)).toBe(true);
    expect(await run()).toBe(uncached.stdout);
    expect(written()).toEqual(refreshed);
    // The entry's code is kept per command: another command writes its own, and leaves the
    // other entries as they were.
    const length = readFileSync(join(ROOT, 'dist', 'cli.cjs'), 'utf8').length;
    await execa(process.execPath, [BIN, 'tokens', 'count', 'hi', '--json'], { env, extendEnv: false, stdin: 'ignore' });
    await execa(process.execPath, [BIN, '--version'], { env, extendEnv: false, stdin: 'ignore' });
    // A run that starts with an option keeps that option's (--help and --version theirs; an
    // option's value is no command), one with anything else the common one.
    await execa(process.execPath, [BIN, '--profile', 'nosuch', 'tokens', 'count', 'hi'], { env, extendEnv: false, stdin: 'ignore', reject: false });
    await execa(process.execPath, [BIN, '--help'], { env, extendEnv: false, stdin: 'ignore' });
    await execa(process.execPath, [BIN, 'Nope'], { env, extendEnv: false, stdin: 'ignore', reject: false });
    expect(entries().filter((name) => name.startsWith('cli.cjs')).sort()).toEqual(
      ['', '@--help', '@--profile', '@--version', '@estimate', '@tokens'].map((variant) => `cli.cjs${variant}-${length}.bin`),
    );
    expect(written().filter(([name]) => (name as string).startsWith('cli.cjs@estimate'))).toEqual(refreshed.filter(([name]) => (name as string).startsWith('cli.cjs@estimate')));
    // Damaged entries are refused by V8 and written again.
    for (const name of entries()) writeFileSync(join(cache, 'compile-cache', build!, name), 'not V8 code');
    expect(await run()).toBe(uncached.stdout);
    expect(readFileSync(join(cache, 'compile-cache', build!, `cli.cjs@estimate-${length}.bin`), 'utf8')).not.toBe('not V8 code');
    // When this build starts a new folder, another build's folder stays if it was written to in
    // the last week (two installs used in turn keep theirs), and goes once it is older.
    const folder = (name: string, daysOld: number) => {
      const path = join(cache, 'compile-cache', name);
      mkdirSync(path);
      const time = new Date(Date.now() - daysOld * 24 * 3600 * 1000);
      utimesSync(path, time, time);
      return name;
    };
    writeFileSync(join(cache, 'stale-marker'), '');
    const recent = folder('00000000000000a1-v20.0.0-x64', 1);
    folder('00000000000000a2-v20.0.0-x64', 8);
    // Node's own cache, which earlier builds used on Node 22.1+, goes by the same rules; folders
    // named otherwise are left alone.
    folder('v22.1.0-x64-efbf4b2c-0', 30);
    const nodes = folder('v24.0.0-x64-0123abcd-0', 1);
    const foreign = folder('kept-by-hand', 30);
    rmSync(join(cache, 'compile-cache', build!), { recursive: true });
    expect(await run()).toBe(uncached.stdout);
    expect(readdirSync(join(cache, 'compile-cache')).sort()).toEqual([build, recent, nodes, foreign].sort());
    expect(existsSync(join(cache, 'stale-marker')), 'only compile-cache/ is cleaned').toBe(true);
    // At most eight folders: the oldest others go.
    const crowd = Array.from({ length: 9 }, (_, i) => folder(`000000000000000${i}-v20.0.0-x64`, 6 - i * 0.1));
    rmSync(join(cache, 'compile-cache', build!), { recursive: true });
    expect(await run()).toBe(uncached.stdout);
    const kept = readdirSync(join(cache, 'compile-cache')).sort();
    expect(kept).toHaveLength(9);
    expect(kept).toEqual([build, recent, nodes, foreign, ...crowd.slice(-5)].sort());
  });

  it('ships each CommonJS file wrapped as the launcher compiles it, and runs it so through Node\'s own loader too', async () => {
    const { LOADER_HEAD, LOADER_TAIL } = (await import(pathToFileURL(join(ROOT, 'scripts', 'build.mjs')).href)) as { LOADER_HEAD: string; LOADER_TAIL: string };
    const launcher = readFileSync(BIN, 'utf8');
    expect(launcher).toContain(`const HEAD = ${JSON.stringify(LOADER_HEAD).replaceAll('"', "'")};`);
    expect(launcher).toContain(`const TAIL = ${JSON.stringify(LOADER_TAIL).replaceAll('"', "'")};`);
    const files: string[] = [];
    const walk = (folder: string) => {
      for (const entry of readdirSync(folder, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(join(folder, entry.name));
        else if (entry.name.endsWith('.cjs')) files.push(join(folder, entry.name));
      }
    };
    walk(join(ROOT, 'dist'));
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      expect(text.startsWith(LOADER_HEAD), relative(ROOT, file)).toBe(true);
      // Once, at the end (before the source map's comment): the launcher cuts the text there.
      expect(text.indexOf(LOADER_TAIL), relative(ROOT, file)).toBe(text.lastIndexOf(LOADER_TAIL));
      expect(text.slice(text.indexOf(LOADER_TAIL) + LOADER_TAIL.length), relative(ROOT, file)).toMatch(/^(\/\/# sourceMappingURL=[^\n]+\n)?$/);
    }
    // Node's loader (no compile cache) and a plain require() run the same files.
    const plain = await execa(process.execPath, ['-e', `require(${JSON.stringify(join(ROOT, 'dist', 'cli.cjs'))}).run(['--version']).then((code) => process.exit(code))`], { env: isolatedEnv(), extendEnv: false });
    expect(plain.stdout).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
  });

  it('makes its own default cache folders private again when earlier builds left them writable by the group', async () => {
    // As Node 22.1+'s own compile cache made them, under umask 002.
    const env = isolatedEnv();
    const base = join(env.HOME!, '.cache', 'llmobs');
    mkdirSync(join(base, 'compile-cache'), { recursive: true });
    for (const folder of [base, join(base, 'compile-cache')]) chmodSync(folder, 0o775);
    const args = ['tokens', 'count', '--encoding', 'o200k_base', 'hello'];
    const result = await execa(process.execPath, [BIN, ...args], { env, extendEnv: false, stdin: 'ignore' });
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, '1', '']);
    for (const folder of [base, join(base, 'compile-cache')]) expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(readdirSync(join(base, 'compile-cache'))).toHaveLength(1);
    // A folder given by LLMOBS_CACHE_DIR is the user's to set: left as it is, and not used.
    const given = tempDir('llmobs-cache-');
    chmodSync(given, 0o775);
    await execa(process.execPath, [BIN, ...args], { env: { ...env, LLMOBS_CACHE_DIR: given }, extendEnv: false, stdin: 'ignore' });
    expect(statSync(given).mode & 0o777).toBe(0o775);
    expect(readdirSync(given)).toEqual([]);
  });

  it('neither reads nor writes compiled code in a folder that others can write', async () => {
    const cache = tempDir('llmobs-cache-');
    const env = isolatedEnv({ LLMOBS_CACHE_DIR: cache });
    const args = ['tokens', 'count', '--encoding', 'o200k_base', 'hello'];
    mkdirSync(join(cache, 'compile-cache'), { mode: 0o777 });
    chmodSync(join(cache, 'compile-cache'), 0o777);
    const result = await execa(process.execPath, [BIN, ...args], { env, extendEnv: false, stdin: 'ignore' });
    expect([result.exitCode, result.stdout, result.stderr]).toEqual([0, '1', '']);
    expect(readdirSync(join(cache, 'compile-cache'))).toEqual([]);
    // Made private, it is used.
    chmodSync(join(cache, 'compile-cache'), 0o700);
    await execa(process.execPath, [BIN, ...args], { env, extendEnv: false, stdin: 'ignore' });
    expect(readdirSync(join(cache, 'compile-cache'))).toHaveLength(1);
    // A file in it that others can write is not read: it is compiled again and written anew, private.
    const [build] = readdirSync(join(cache, 'compile-cache'));
    const entry = join(cache, 'compile-cache', build!, readdirSync(join(cache, 'compile-cache', build!)).find((name) => name.startsWith('cli.cjs'))!);
    const written = statSync(entry).mtimeMs;
    await execa(process.execPath, [BIN, ...args], { env, extendEnv: false, stdin: 'ignore' });
    expect(statSync(entry).mtimeMs, 'a private entry is read, not written again').toBe(written);
    chmodSync(entry, 0o666);
    const again = await execa(process.execPath, [BIN, ...args], { env, extendEnv: false, stdin: 'ignore' });
    expect(again.stdout).toBe('1');
    expect(statSync(entry).mode & 0o777).toBe(0o600);
  });
});

describe('the program\'s options in a run that names few or none', () => {
  it('reports an unknown option with the suggestion the whole tree gives, before anything runs', async () => {
    for (const [typo, suggestion, ...named] of [
      ['--jsn', '--json'],
      ['--timout', '--timeout'],
      ['--encodng', '--encoding'],
      ['--timout', '--timeout', '--json'],
      ['--max-page', '--max-pages', '--verbose', '--no-color'],
    ]) {
      const result = await execa(process.execPath, [BIN, ...named, 'tokens', 'count', typo!, 'hi'], { env: isolatedEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
      expect([result.exitCode, result.stdout], typo).toEqual([2, '']);
      const expected = `unknown option '${typo}'\n(Did you mean ${suggestion}?)`;
      if (named.includes('--json')) expect(JSON.parse(result.stderr).error.message, typo).toBe(expected);
      else expect(result.stderr, typo).toBe(`error: ${expected}\nRun with --help to see the usage.`);
    }
  });
});

describe('source maps of the built files', () => {
  it('map every function of dist/cli.cjs and of the chunks estimate loads to its declaration in src/', () => {
    const { SourceMap } = createRequire(import.meta.url)('node:module') as typeof import('node:module');
    const files = ['cli.cjs', ...readdirSync(join(ROOT, 'dist', 'chunks')).filter((name) => /^(estimate|action|count|match)-.*\.cjs$/.test(name)).map((name) => `chunks/${name}`)];
    expect(files.length).toBeGreaterThan(3);
    let checked = 0;
    for (const file of files) {
      const path = join(ROOT, 'dist', file);
      const code = readFileSync(path, 'utf8');
      const map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, 'utf8')));
      const lines = code.split('\n');
      lines.forEach((line, lineNumber) => {
        for (const match of line.matchAll(/(?<![\w$.])function ([A-Za-z_$][\w$]*)\(/g)) {
          const entry = map.findEntry(lineNumber, match.index!) as { generatedLine?: number; originalSource?: string; originalLine?: number };
          // A declaration whose first mapping is further on (esbuild maps some from their
          // parameters) finds the last one before it, on an earlier line: not its own.
          if (entry.generatedLine !== lineNumber || !entry.originalSource?.includes('/src/') || !entry.originalSource.endsWith('.ts')) continue;
          const source = readFileSync(new URL(entry.originalSource, pathToFileURL(path)), 'utf8').split('\n');
          expect(source[entry.originalLine!], `${file}: ${match[1]} maps to ${entry.originalSource}:${entry.originalLine! + 1}`).toContain(`function ${match[1]!.replace(/\d+$/, '')}`);
          checked++;
        }
      });
    }
    expect(checked).toBeGreaterThan(200);
  });
});

describe('exports of the built files', () => {
  // Code in hot loops (estimate --batch, cost recompute) calls other chunks' functions through
  // their exports objects: V8 inlines those getters only on objects with fast properties. A
  // rewrite of the exports that left them in dictionary mode cost `estimate --batch` 5%.
  it('are objects with fast properties', async () => {
    const script = `const fs = require('fs'), path = require('path'); const dir = ${JSON.stringify(join(ROOT, 'dist', 'chunks'))}; const slow = [];
      for (const f of fs.readdirSync(dir).filter((f) => /^chunk-.*\\.cjs$/.test(f))) { if (!%HasFastProperties(require(path.join(dir, f)))) slow.push(f); }
      if (!%HasFastProperties(require(${JSON.stringify(join(ROOT, 'dist', 'cli.cjs'))}))) slow.push('cli.cjs');
      console.log(JSON.stringify(slow));`;
    const result = await execa(process.execPath, ['--allow-natives-syntax', '-e', script], { env: isolatedEnv(), extendEnv: false, stdin: 'ignore' });
    expect(JSON.parse(result.stdout)).toEqual([]);
  });
});
