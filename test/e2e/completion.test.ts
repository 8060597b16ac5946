// The completion scripts in completions/ run in real bash, zsh and fish. Every command of the tree
// is asked for: its subcommands, its options, the values of each option that has known values,
// and its first argument. A command added later is checked the same way without touching this file.
//
// bash: COMP_WORDS/COMP_CWORD are set and the completion function called, as readline would.
// zsh: a real interactive zsh in a pseudo-terminal (zpty) with compinit loading _llmobs from
// $fpath; TAB is pressed and the matches the completion system accepts are captured.
// fish: `complete -C 'llmobs ...'`, fish's own completion engine.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli.js';
import { type CommandSpec, describeTree, type ValueKind } from '../../src/completion/generate.js';
import { Context, defaultDeps } from '../../src/context.js';
import { BIN } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';

const COMPLETIONS = join(import.meta.dirname, '..', '..', 'completions');
const PROFILES = ['alpha', 'beta-us'];
const FILES = ['a.json', 'b.yaml', 'sub'];
const DIRS = ['sub'];

interface Query {
  /** The words before the cursor and the word being completed (last, possibly empty). */
  words: string[];
  expected: string[];
}

const specs = describeTree(await buildProgram(new Context(defaultDeps())));
const byPath = new Map(specs.map((spec) => [spec.path, spec]));

function valuesOf(kind: ValueKind | undefined, target = ''): string[] {
  if (kind === undefined || kind === '@none' || kind === '@any') return [];
  if (kind === '@profiles') return PROFILES;
  if (kind === '@files') return FILES;
  if (kind === '@dirs') return DIRS;
  if (kind === '@commands') return childWords(byPath.get(target)!);
  return kind;
}

function childWords(spec: CommandSpec): string[] {
  return spec.children.flatMap((child) => [child.name, ...child.aliases]);
}

/** Every way to type each command (aliases too), as words after `llmobs`. */
function spellings(): Array<{ words: string[]; spec: CommandSpec }> {
  const out: Array<{ words: string[]; spec: CommandSpec }> = [];
  const visit = (spec: CommandSpec, words: string[]) => {
    out.push({ words, spec });
    for (const child of spec.children) {
      const childSpec = byPath.get(spec.path ? `${spec.path} ${child.name}` : child.name)!;
      for (const name of [child.name, ...child.aliases]) visit(childSpec, [...words, name]);
    }
  };
  visit(byPath.get('')!, []);
  return out;
}

function queries(): Query[] {
  const list: Query[] = [];
  const root = byPath.get('')!;
  const globalFlags = new Set(root.options.flatMap((option) => option.flags));
  for (const { words, spec } of spellings()) {
    const canonical = words.join(' ') === spec.path;
    // Subcommands, or the values of the first argument.
    const first = spec.children.length ? childWords(spec) : valuesOf(spec.args[0]);
    list.push({ words: ['llmobs', ...words, ''], expected: first });
    if (!canonical) continue;
    list.push({ words: ['llmobs', ...words, '-'], expected: spec.options.flatMap((option) => option.flags) });
    for (const option of spec.options) {
      if (option.values === '@none') continue;
      // Global options are checked at the top and one level down; profile names cost a Node.js start each.
      if (option.flags.every((flag) => globalFlags.has(flag)) && spec.path !== '' && spec.path !== 'prompts list') continue;
      const flag = option.flags.find((f) => f.startsWith('--')) ?? option.flags[0]!;
      list.push({ words: ['llmobs', ...words, flag, ''], expected: valuesOf(option.values) });
      // The value is skipped: what follows completes as if the option were not there.
      if (spec.children.length === 0 && spec.args.length === 0) list.push({ words: ['llmobs', ...words, flag, 'x', '-'], expected: spec.options.flatMap((o) => o.flags) });
    }
  }
  list.push(
    { words: ['llmobs', 'pro'], expected: ['profile', 'projects', 'prompt', 'prompts'] },
    { words: ['llmobs', 'prompts', 'c'], expected: ['compile', 'copy', 'create'] },
    { words: ['llmobs', '--json', 'prompt', 'ls', '--li'], expected: ['--limit'] },
    { words: ['llmobs', '--profile', 'alpha', 'labels', 'promote', 'n', '--fr'], expected: ['--from'] },
    { words: ['llmobs', 'profile', 'use', 'be'], expected: ['beta-us'] },
    { words: ['llmobs', 'profile', 'add', 'x', '--region=', ], expected: valuesOf(byPath.get('profile add')!.options.find((o) => o.flags.includes('--region'))!.values) },
    { words: ['llmobs', 'estimate', '--level', 'W'], expected: ['WARNING'] },
    { words: ['llmobs', 'tokens', 'count', '--encoding=cl'], expected: ['cl100k_base', 'claude'] },
    { words: ['llmobs', 'prompts', 'create', 'x', '--file', 'a'], expected: ['a.json'] },
    { words: ['llmobs', 'help', 'prompts', ''], expected: childWords(byPath.get('prompts')!) },
    { words: ['llmobs', 'help', 'labels', 'p'], expected: ['promote'] },
    { words: ['llmobs', 'prompts', 'get', 'team/a', ''], expected: [] },
    { words: ['llmobs', 'api', '--', '-'], expected: [] },
  );
  return list;
}

/** What each shell prints for a query: one candidate per line after a marker line. */
function parse(output: string, count: number): string[][] {
  const results: string[][] = Array.from({ length: count }, () => []);
  let current = -1;
  for (const line of output.split('\n')) {
    const marker = /^=== (\d+)$/.exec(line.trim());
    if (marker) current = Number(marker[1]);
    else if (current >= 0 && line.trim() !== '') results[current]!.push(line.replace(/\t.*$/, '').replace(/\/$/, '').trim());
  }
  return results;
}

function normalise(words: string[], candidates: string[]): string[] {
  // --option=value: zsh and fish offer the whole word, bash only the value.
  const cur = words.at(-1)!;
  const prefix = /^--[^=]+=/.exec(cur)?.[0] ?? '';
  return [...new Set(candidates.map((c) => (prefix && c.startsWith(prefix) ? c.slice(prefix.length) : c)))].sort();
}

function installed(shell: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${shell}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let env: Record<string, string | undefined>;
let cwd: string;

beforeAll(async () => {
  env = isolatedEnv();
  // `llmobs` on PATH, as an installed one would be: the scripts run it for profile names.
  const bin = tempDir('llmobs-bin-');
  writeFileSync(join(bin, 'llmobs'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`, { mode: 0o755 });
  env.PATH = `${bin}:${process.env.PATH}`;
  for (const name of PROFILES) {
    const added = await execa(process.execPath, [BIN, 'profile', 'add', name, '--base-url', 'http://localhost:3000', '--public-key', 'pk-lf-1', '--secret-key-stdin'], {
      env,
      extendEnv: false,
      input: 'sk-lf-1',
      reject: false,
    });
    expect(added.exitCode, added.stderr).toBe(0);
  }
  cwd = tempDir('llmobs-cwd-');
  writeFileSync(join(cwd, 'a.json'), '{}');
  writeFileSync(join(cwd, 'b.yaml'), 'a: 1\n');
  mkdirSync(join(cwd, 'sub'));
});

const all = queries();

function shellCase(shell: 'bash' | 'zsh' | 'fish', script: () => { file: string; args: string[] }) {
  if (!installed(shell)) {
    if (process.env.CI === 'true') {
      it(`${shell} is installed (CI installs bash, zsh and fish in .ci/run)`, () => {
        expect.fail(`${shell} is not installed, so its completion cannot be tested`);
      });
    } else {
      it.skip(`${shell} completion: skipped, ${shell} is not installed (apt-get install -y ${shell})`, () => {});
    }
    return;
  }
  it(`completes every command, subcommand, option and value in ${shell} (${all.length} cases)`, async () => {
    const { file, args } = script();
    const result = await execa(file, args, { env, extendEnv: false, cwd, reject: false, timeout: 120_000 });
    expect(result.stderr, 'the script must run without errors').toBe('');
    expect(result.exitCode).toBe(0);
    const got = parse(String(result.stdout), all.length);
    const failures = all
      .map((query, index) => ({ line: query.words.join(' '), expected: [...new Set(query.expected)].sort(), got: normalise(query.words, got[index]!) }))
      .filter((entry) => JSON.stringify(entry.expected) !== JSON.stringify(entry.got));
    if (failures.length && process.env.LLMOBS_COMPLETION_DEBUG) writeFileSync(`/tmp/completion-${shell}.json`, JSON.stringify(failures, null, 1));
    expect(failures).toEqual([]);
  }, 150_000);
}

describe('shell completion in real shells', () => {
  shellCase('bash', () => {
    const lines = [`source ${JSON.stringify(join(COMPLETIONS, 'llmobs.bash'))}`];
    all.forEach((query, index) => {
      // Bash breaks words at "=" (COMP_WORDBREAKS), so --opt=value arrives as three words.
      const words = query.words.flatMap((word, i) => {
        const at = word.indexOf('=');
        if (!word.startsWith('--') || at === -1) return [word];
        const rest = word.slice(at + 1);
        return i === query.words.length - 1 && rest === '' ? [word.slice(0, at), '='] : [word.slice(0, at), '=', rest];
      });
      lines.push(`COMP_WORDS=(${words.map(shq).join(' ')}); COMP_CWORD=${words.length - 1}; COMPREPLY=(); _llmobs`);
      lines.push(`echo '=== ${index}'; printf '%s\\n' "\${COMPREPLY[@]}"`);
    });
    const file = join(tempDir('llmobs-bash-'), 'run.bash');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return { file: 'bash', args: ['--norc', '--noprofile', file] };
  });

  shellCase('zsh', () => {
    const lines = [
      'zmodload zsh/zpty',
      'zpty z zsh -f -i',
      `zpty -w z ${shq(`PROMPT='%% '; RPROMPT=''; unsetopt zle_bracketed_paste 2>/dev/null; fpath=(${COMPLETIONS} $fpath); autoload -U compinit; compinit -u -D`)}`,
      // The matches the completion system accepts for the typed word, each on its own line.
      `zpty -w z ${shq(`compadd() { local -a m; builtin compadd -A m "$@"; local w; for w in "\${m[@]}"; do print -r -- "<ma""tch>$w"; done; builtin compadd "$@"; }`)}`,
      `zpty -w z ${shq("zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no; LISTMAX=100000")}`,
      // A key that completes and then says it is done: the next keys are sent only after that, so
      // the completion system never sees typeahead (which makes it stop early).
      `zpty -w z ${shq("__n=0; __complete_and_mark() { zle complete-word; print -r -- \"<do\"\"ne-$(( ++__n ))>\"; }; zle -N __complete_and_mark; bindkey '^T' __complete_and_mark")}`,
      `zpty -w z ${shq('echo READY-$((1+1))')}`,
      `zpty -r z out '*READY-2*'`,
    ];
    all.forEach((query, index) => {
      lines.push(`zpty -w -n z ${shq(query.words.join(' '))}$'\\C-t'`);
      lines.push(`out=''; zpty -r z out '*<done-${index + 1}>*'`);
      lines.push(`zpty -w -n z $'\\C-u'`);
      lines.push(`print -r -- '=== ${index}'; print -r -- "$out" | tr -d '\\r' | sed -n 's/.*<match>\\(.*\\)$/\\1/p'`);
    });
    lines.push('zpty -d z');
    const file = join(tempDir('llmobs-zsh-'), 'run.zsh');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return { file: 'zsh', args: ['-f', file] };
  });

  shellCase('fish', () => {
    const lines = [`source ${fishq(join(COMPLETIONS, 'llmobs.fish'))}`];
    all.forEach((query, index) => {
      lines.push(`echo '=== ${index}'; complete -C ${fishq(query.words.join(' '))}`);
    });
    const file = join(tempDir('llmobs-fish-'), 'run.fish');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return { file: 'fish', args: ['--no-config', file] };
  });
});

function shq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function fishq(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}
