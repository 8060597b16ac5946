// Rules every command follows, checked by walking the whole commander tree: commands added later
// (by anyone) are held to them without touching this file.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, run } from '../../../src/cli.js';
import { definitionOf, examplesOf } from '../../../src/commands/define.js';
import { Context, defaultDeps } from '../../../src/context.js';
import { llmobsWords } from '../../helpers/shell-words.js';
import { Capture, stdinFrom } from '../../helpers/streams.js';

function program(): Promise<Command> {
  return buildProgram(new Context(defaultDeps()));
}

function walk(command: Command, path: string[] = []): Array<{ command: Command; path: string[] }> {
  return [{ command, path }, ...command.commands.flatMap((child) => walk(child, [...path, child.name()]))];
}

const commands = walk(await program());
const name = (path: string[]) => ['llmobs', ...path].join(' ');

describe('every command', () => {
  it('has examples in its help', () => {
    const missing = commands.filter(({ command }) => examplesOf(command).length === 0).map(({ path }) => name(path));
    expect(missing).toEqual([]);
  });

  it.each(commands.map(({ path }) => [name(path), path] as const))('%s: every example parses, and one runs this command', async (_label, path) => {
    const fresh = await program();
    let target = fresh;
    for (const word of path) target = target.commands.find((child) => child.name() === word)!;
    const lines = examplesOf(target).filter((line) => !line.startsWith('#'));
    let ranThis = false;
    for (const line of lines) {
      const words = llmobsWords(line);
      expect(words, `an example of ${name(path)} must run llmobs: ${line}`).toBeDefined();
      // A fresh tree for each line (commander keeps option values), actions that only record.
      const tree = await program();
      let ran: Command | undefined;
      for (const { command } of walk(tree)) command.action((...params: unknown[]) => void (ran = params.at(-1) as Command));
      tree.exitOverride();
      tree.configureOutput({ writeOut: () => {}, writeErr: () => {}, outputError: () => {} });
      await expect(tree.parseAsync(words!, { from: 'user' }), line).resolves.toBeDefined();
      const ranPath: string[] = [];
      for (let c = ran; c?.parent; c = c.parent) ranPath.unshift(c.name());
      if (path.length === 0 || ranPath.join(' ') === path.join(' ') || (path.length && ranPath.join(' ').startsWith(`${path.join(' ')} `))) ranThis = true;
    }
    expect(ranThis, `no example of ${name(path)} runs it`).toBe(true);
  });

  it('uses no flag that a global option already has (the global one would take it)', async () => {
    const root = await program();
    const globalFlags = new Set(root.options.flatMap((option) => [option.long, option.short]).filter(Boolean));
    const clashes = commands
      .filter(({ path }) => path.length > 0)
      .flatMap(({ command, path }) => command.options.flatMap((option) => [option.long, option.short]).filter((flag) => flag && globalFlags.has(flag)).map((flag) => `${name(path)} ${flag}`));
    expect(clashes).toEqual([]);
  });

  it.each(commands.filter(({ path }) => path.length > 0).map(({ path }) => [path.join(' ')] as const))('llmobs help %s prints the same help as --help', async (joined) => {
    const path = joined.split(' ');
    const viaHelp = await capture(['help', ...path]);
    const viaFlag = await capture([...path, '--help']);
    expect(viaHelp.exitCode).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toContain(`Usage: llmobs ${path.join(' ')}`);
  });
});

describe('flags with choices', () => {
  const withChoices = commands.flatMap(({ command, path }) => command.options.filter((option) => option.argChoices).map((option) => ({ option, label: `${name(path)} ${option.long}` })));

  it('exist (the check below has something to check)', () => {
    expect(withChoices.map(({ label }) => label)).toEqual(expect.arrayContaining(['llmobs cost report --type', 'llmobs observations list --type', 'llmobs api --method']));
  });

  it('refuse a value outside their choices, repeatable flags included, when the flag is read', () => {
    for (const { option, label } of withChoices) expect(() => option.parseArg!('not-a-choice', undefined), label).toThrow(/Allowed choices are/);
  });

  it('take the API\'s upper-case enums in any case, and lower-case choices only as written', () => {
    for (const { option, label } of withChoices) {
      const choice = option.argChoices![0]!;
      const other = choice === choice.toUpperCase() ? choice.toLowerCase() : choice.toUpperCase();
      if (other === choice) continue;
      if (choice === choice.toUpperCase()) {
        const read = option.parseArg!(other, undefined);
        expect(Array.isArray(read) ? read : [read], label).toEqual([choice]);
      } else expect(() => option.parseArg!(other, undefined), label).toThrow(/Allowed choices are/);
    }
  });
});

describe('help that reads well', () => {
  it.each(commands.map(({ path }) => [name(path), path] as const))('%s --help fits 80 columns, examples aside', async (_label, path) => {
    const help = (await capture([...path, '--help'])).stdout;
    const body = help.slice(0, help.indexOf('\nExamples:'));
    const long = body.split('\n').filter((line) => line.length > 80);
    expect(long).toEqual([]);
  });

  it.each(commands.map(({ path }) => [name(path), path] as const))('%s --help in a run, which builds only what it reaches, is the help of the whole tree', async (_label, path) => {
    let target = await program();
    for (const word of path) target = target.commands.find((child) => child.name() === word)!;
    let whole = '';
    target.configureOutput({ ...target.configureOutput(), writeOut: (text) => void (whole += text) });
    target.outputHelp();
    expect((await capture([...path, '--help'])).stdout).toBe(whole);
  });

  it('writes the notes of every command as they print: lines indented by two spaces, one space between words', () => {
    for (const { command, path } of commands) {
      const notes = definitionOf(command);
      if (!notes || !('notes' in notes) || !notes.notes) continue;
      for (const line of notes.notes.split('\n').filter(Boolean)) {
        expect(line, name(path)).toMatch(/^ {2}\S/);
        expect(line.trim(), name(path)).not.toMatch(/ {2}/);
      }
    }
  });

  it('a command\'s help names the global options in a few lines rather than describing each again', async () => {
    const root = await program();
    const globalFlags = root.options.flatMap((option) => option.long ?? []);
    for (const { path } of commands.filter(({ path }) => path.length > 0)) {
      const help = (await capture([...path, '--help'])).stdout;
      const start = help.indexOf('\nGlobal options');
      expect(start, name(path)).toBeGreaterThan(0);
      const block = help.slice(start + 1).split('\n\n')[0]!;
      expect(block.split('\n').length, `${name(path)}:\n${block}`).toBeLessThanOrEqual(5);
      for (const flag of globalFlags) expect(block, name(path)).toContain(flag);
      expect(help).not.toContain('time limit per request attempt');
    }
    // The program's own help describes each.
    expect((await capture(['--help'])).stdout).toContain('time limit per request attempt');
  });
});

async function capture(argv: string[]): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const stdout = new Capture(false);
  const stderr = new Capture(false);
  const exitCode = await run(argv, { io: { stdout, stderr, stdin: stdinFrom(undefined, false) } });
  return { exitCode, stdout: stdout.text, stderr: stderr.text };
}
