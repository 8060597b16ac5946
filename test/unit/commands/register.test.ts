// A run defines only the commands it names (start-up); what the user sees must not depend on it.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, helpFooter, PROGRAM_FLAGS, PROGRAM_VALUE_FLAGS, programOptionsFor, showsProgramHelp } from '../../../src/cli.js';
import { listedCommands, PROGRAM_HELP_FOOTER, PROGRAM_OPTION_HELP, REGISTRARS, standInTerm, TOP_LEVEL } from '../../../src/commands/register.js';
import { Context, defaultDeps, globalsFrom } from '../../../src/context.js';

const build = (argv?: string[]) => buildProgram(new Context(defaultDeps()), argv);
const find = (program: Command, name: string) => program.commands.find((command) => command.name() === name)!;
const verbs = (program: Command, name: string) => find(program, name).commands.map((verb) => verb.name());
const groups = (program: Command) => program.commands.filter((command) => command.commands.length > 0);

describe('command tree of a run', () => {
  it('defines the named commands only; in a help the others stand in, with no options or verbs', async () => {
    const full = await build();
    const run = await build(['--json', 'help', 'profile', 'list']);
    expect(verbs(run, 'profile')).toEqual(verbs(full, 'profile'));
    expect(verbs(full, 'models').length).toBeGreaterThan(3);
    expect(verbs(run, 'models')).toEqual([]);
    expect(find(run, 'api').options).toEqual([]);
    expect(standInTerm(find(run, 'api'))).toBe('api <method-or-path> [path]');
    expect(standInTerm(find(run, 'profile'))).toBeUndefined();
    // A run that a command takes shows no list of commands: the others are left out.
    expect((await build(['--json', 'profile', 'list'])).commands.map((command) => command.name())).toEqual(['profile']);
    expect((await build(['-V'])).commands.map((command) => command.name())).toEqual([]);
    // A help asked for by its flag lists records for the others, with the same terms and summaries.
    const flagged = await build(['profile', '--help']);
    expect(flagged.commands.map((command) => command.name())).toEqual(['profile']);
    const listed = listedCommands(flagged)!;
    expect(listed.length).toBe(full.commands.length);
    const shown = (program: Command, commands: readonly unknown[]) => {
      const helper = program.createHelp();
      return commands.map((command) => [helper.subcommandTerm(command as Command), helper.subcommandDescription(command as Command)]);
    };
    expect(shown(flagged, listed)).toEqual(shown(full, full.commands));
    // An alias names its command too.
    expect(verbs(await build(['prompt', 'ls']), 'prompts')).toEqual(verbs(full, 'prompts'));
    expect(find(await build(['api', 'models']), 'api').options.map((o) => o.long)).toEqual(find(full, 'api').options.map((o) => o.long));
  });

  it('shows the same top-level help, command names, aliases and descriptions as the whole tree', async () => {
    const full = await build();
    // Every run whose arguments no command takes: the program answers, with its help or an error.
    for (const argv of [['--help'], ['help'], ['-h', 'profile'], [], ['--json'], ['--'], ['--', 'models'], ['--profile', 'models'], ['--verbose', '--timeout', '5'], ['-q', '.x'], ['-Vq', 'models'], ['nosuch', '--json'], ['--json', '-']]) {
      const run = await build(argv);
      expect(run.helpInformation(), argv.join(' ')).toBe(full.helpInformation());
    }
    for (const argv of [[], ['help', 'version'], ['nosuch'], ['--', 'version']]) {
      expect(showsProgramHelp(argv), argv.join(' ')).toBe(true);
      const run = await build(argv);
      expect(run.commands.map((c) => [c.name(), c.aliases(), c.description()]), argv.join(' ')).toEqual(full.commands.map((c) => [c.name(), c.aliases(), c.description()]));
    }
  });

  it('defines the program\'s options the arguments may name, all of them for a help; the flags it lists are theirs', async () => {
    const full = await build();
    expect(full.options.map((option) => [option.short, option.long])).toEqual(PROGRAM_FLAGS);
    expect(full.options.map((option) => option.required || option.optional)).toEqual(PROGRAM_VALUE_FLAGS);
    const flagsOf = async (argv: string[]) => (await build(argv)).options.map((option) => option.short ?? option.long);
    for (const argv of [['completion', 'bash'], ['-Vh'], ['--json'], ['--profile', 'models'], ['--json', '--help'], ['help', '--no-color']]) {
      expect(programOptionsFor(argv), argv.join(' ')).toBe('all');
      expect(await flagsOf(argv), argv.join(' ')).toEqual(full.options.map((option) => option.short ?? option.long));
    }
    // A help that names none of them: their text stands in for them.
    for (const argv of [['-h'], ['--help'], ['models', '--help'], ['help', 'models'], [], ['--'], ['nosuch']]) {
      expect(programOptionsFor(argv), argv.join(' ')).toBe('help');
      expect(await flagsOf(argv), argv.join(' ')).toEqual([]);
    }
    const cases: Array<[string[], Array<string | undefined>]> = [
      [['--json', 'profile', 'list'], ['--json']],
      [['tokens', 'count', '--max-pages=3'], ['--max-pages']],
      [['estimate', '-q', '.x'], ['-q']],
      [['estimate', '-xqV'], ['-V', '-q']],
      [['--no-color', 'version'], ['--no-color']],
      [['--profile', 'estimate', 'estimate'], ['--profile']],
      [['-q', '.x', 'tokens', 'count', 'hi'], ['-q']],
      [['-V'], ['-V']],
      [['--version'], ['-V']],
      [['--json', '-V'], ['-V', '--json']],
      [['version', '-V'], ['-V']],
      [['version', '--version'], ['-V']],
      [['tokens', 'count', '--no-headers', 'hi'], ['--headers', '--no-headers']],
      [['profile', 'list'], []],
      [['estimate', '--model', 'gpt-4o', '--input', 'hi', '--offline'], []],
      [['tokens', 'count', '--encoding', 'o200k_base', 'hello'], []],
      [['models', 'match', 'gpt-4o', '--offline'], []],
    ];
    for (const [argv, flags] of cases) expect(await flagsOf(argv), argv.join(' ')).toEqual(flags);
  });

  it('gives a run without the program\'s options their defaults', async () => {
    const full = await build();
    expect(Object.keys(full.opts()).sort()).toEqual(['color', 'maxPages', 'retries', 'timeout']);
    expect(globalsFrom({})).toEqual(globalsFrom(full.opts()));
  });

  it('lists the same global options in every command\'s help, with the program\'s options defined or not', async () => {
    const full = await build();
    for (const group of groups(full)) {
      const run = await build([group.name()]);
      expect(run.options).toEqual([]);
      const helpOf = (program: Command) => find(program, group.name()).helpInformation();
      expect(helpOf(run), group.name()).toBe(helpOf(full));
      expect(helpOf(run)).toContain('--profile, --base-url, --json, -q/--jq');
    }
  });

  it('builds the whole tree for commands that walk it', async () => {
    const full = await build();
    const run = await build(['completion', 'bash']);
    expect(groups(full).length).toBeGreaterThan(4);
    for (const group of groups(full)) expect(verbs(run, group.name())).toEqual(verbs(full, group.name()));
  });

  it('defines the named verbs of a group only; the others stand in, with no options', async () => {
    const full = await build();
    const run = await build(['models', 'match', 'gpt-4o', '--offline']);
    const verb = (program: Command, group: string, name: string) => find(program, group).commands.find((command) => command.name() === name)!;
    expect(verb(run, 'models', 'match').options.map((o) => o.long)).toEqual(verb(full, 'models', 'match').options.map((o) => o.long));
    expect(verb(full, 'models', 'list').options.length).toBeGreaterThan(3);
    expect(verb(run, 'models', 'list').options).toEqual([]);
    expect(standInTerm(verb(run, 'models', 'list'))).toBe('list|ls');
    expect(standInTerm(verb(run, 'models', 'match'))).toBeUndefined();
    // By alias too.
    expect(verb(await build(['prompt', 'ls']), 'prompts', 'list').options.map((o) => o.long)).toEqual(verb(full, 'prompts', 'list').options.map((o) => o.long));
  });

  it('shows the same help of each group, verb names, aliases and descriptions as the whole tree', async () => {
    const full = await build();
    for (const group of groups(full)) {
      const first = group.commands[0]!.name();
      for (const argv of [[group.name()], [group.name(), '--help'], ['help', group.name()], [group.name(), first, '--help']]) {
        const run = find(await build(argv), group.name());
        expect(run.helpInformation(), argv.join(' ')).toBe(group.helpInformation());
        expect(run.commands.map((c) => [c.name(), c.aliases(), c.description()])).toEqual(group.commands.map((c) => [c.name(), c.aliases(), c.description()]));
      }
    }
  });

  it('top-level.json is up to date with the command tree (run `npm run build && npm run completions`)', async () => {
    const full = await build();
    const help = full.createHelp();
    const entry = (command: Command) => ({
      name: command.name(),
      aliases: command.aliases(),
      term: help.subcommandTerm(command),
      description: command.description(),
      summary: help.subcommandDescription(command),
    });
    expect(TOP_LEVEL).toEqual(full.commands.map((command) => (command.commands.length > 0 ? { ...entry(command), verbs: command.commands.map(entry) } : entry(command))));
    expect(PROGRAM_HELP_FOOTER).toBe(helpFooter());
    expect(PROGRAM_OPTION_HELP).toEqual(full.options.map((option) => ({ term: help.optionTerm(option), description: help.optionDescription(option) })));
    expect(Object.keys(REGISTRARS)).toEqual(full.commands.map((command) => command.name()));
  });
});
