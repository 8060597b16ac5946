// Guards the start-up structure of the shipped binary, not its speed (that is bench/startup.mjs):
// which files each everyday command loads, traced with a module loader hook, and what the build
// put in each file of dist/. A command that starts loading zod or the HTTP stack fails here.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');
const METAFILE = join(ROOT, 'node_modules', '.cache', 'llmobs-build', 'meta.json');

interface Metafile {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

function metafile(): Metafile {
  if (!existsSync(METAFILE)) throw new Error(`${METAFILE} is missing: run npm run build`);
  return JSON.parse(readFileSync(METAFILE, 'utf8')) as Metafile;
}

/** The source modules and packages bundled into a file of dist/ (the build writes it from a temporary folder). */
function inputsOf(meta: Metafile, file: string): string[] {
  const output = Object.entries(meta.outputs).find(([name]) => name.endsWith(`/${file.replace(/^dist\//, '')}`));
  return Object.keys(output?.[1].inputs ?? {});
}

const packageOf = (input: string) => /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1];

/** A module loader hook that appends every file URL the process loads to a file. */
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
  writeFileSync(join(dir, 'trace.mjs'), `import { register } from 'node:module';\nregister(new URL('./hooks.mjs', import.meta.url), { data: { out: ${JSON.stringify(file)} } });\n`);
  return { flag: pathToFileURL(join(dir, 'trace.mjs')).href, file };
}

/** Runs the binary and returns the files it loaded, relative to the package root. */
async function loadedFiles(args: string[]): Promise<string[]> {
  const { flag, file } = tracer();
  const result = await execa(process.execPath, ['--import', flag, BIN, ...args], { env: isolatedEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
  expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
  const urls = readFileSync(file, 'utf8').trim().split('\n');
  return [...new Set(urls)].map((url) => relative(ROOT, new URL(url).pathname));
}

/** The source modules and packages a run loaded. */
async function loadedInputs(args: string[]): Promise<Set<string>> {
  const meta = metafile();
  const files = await loadedFiles(args);
  expect(files.filter((file) => !/^(bin\/llmobs\.js|dist\/)/.test(file)), args.join(' ')).toEqual([]);
  const inputs = files.flatMap((file) => inputsOf(meta, file));
  return new Set([...inputs, ...inputs.flatMap((input) => packageOf(input) ?? [])]);
}

describe('start-up structure of the built CLI', () => {
  it('--version and --help load commander and the definitions they show, none of zod, undici, yaml, chalk or libsql', async () => {
    for (const args of [['--version'], ['--help'], ['-V'], ['prompts', '--help'], ['prompts', 'create', '--help']]) {
      const loaded = await loadedInputs(args);
      expect(loaded.has('commander'), args.join(' ')).toBe(true);
      // A group's verbs load only when the run reaches the group.
      expect(loaded.has('src/commands/prompts/create.ts'), args.join(' ')).toBe(args[0] === 'prompts');
      expect(['zod', 'undici', 'yaml', 'chalk', 'libsql', 'cli-table3'].filter((name) => loaded.has(name)), args.join(' ')).toEqual([]);
    }
  });

  // What each everyday command must not load: none of them loads zod, the HTTP stack, the
  // packages with native or WebAssembly parts, or the table and prompt libraries (piped output),
  // or the server's web UI.
  const offline = ['undici', 'cli-table3', '@inquirer/prompts', 'yaml', 'zod', 'libsql', 'protobufjs', 'jq-wasm', 'chalk', 'src/server/ui/index.ts', 'src/server/ui/internal-api.ts'];
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
    const loaded = await loadedInputs(args);
    expect(forbidden.filter((name) => loaded.has(name))).toEqual([]);
  });

  it('writes to a pipe or /dev/null without making Node\'s stdio streams (their modules are not loaded)', async () => {
    const dir = tempDir('llmobs-streams-');
    const preload = join(dir, 'modules.cjs');
    writeFileSync(preload, `process.on('exit', () => require('node:fs').writeFileSync(process.env.MODULES_OUT, process.moduleLoadList.join('\\n')));\n`);
    const streamModules = async (stdio: 'pipe' | 'ignore', args: string[]) => {
      const out = join(dir, `${stdio}.txt`);
      const result = await execa(process.execPath, ['-r', preload, BIN, ...args], { env: isolatedEnv({ MODULES_OUT: out }), extendEnv: false, reject: false, stdin: 'ignore', stdout: stdio, stderr: stdio });
      expect(result.exitCode).toBe(0);
      return readFileSync(out, 'utf8').split('\n').filter((name) => /^NativeModule (stream|internal\/streams\/(readable|writable|duplex)|internal\/fs\/sync_write_stream|net|tty)$/.test(name));
    };
    for (const args of [['estimate', '--model', 'gpt-4o', '--input', 'hi'], ['--help']]) {
      expect(await streamModules('pipe', args), `piped: ${args.join(' ')}`).toEqual([]);
      expect(await streamModules('ignore', args), `to /dev/null: ${args.join(' ')}`).toEqual([]);
    }
  });

  it('loads the regex engine when a pattern must be compiled, and only then', async () => {
    const loads = async (args: string[]) => (await loadedInputs(args)).has('src/core/regex/automaton.ts');
    // gpt-4.1's pattern reads "gpt-4", any character, "1": its literals are all in the name.
    expect(await loads(['models', 'match', 'gpt-4.1', '--offline'])).toBe(true);
    // A tier with a usage condition (a regex over usage keys) in the definition that matches.
    expect(await loads(['estimate', '--model', 'gemini-2.5-pro', '--usage', '{"input": 10}'])).toBe(true);
    expect(await loads(['models', 'match', 'gpt-4o', '--offline'])).toBe(false);
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
