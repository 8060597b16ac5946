// A run defines only the commands it names (start-up); what the user sees must not depend on it.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli.js';
import { REGISTRARS, standInTerm, TOP_LEVEL } from '../../../src/commands/register.js';
import { Context, defaultDeps } from '../../../src/context.js';

const build = (argv?: string[]) => buildProgram(new Context(defaultDeps()), argv);
const find = (program: Command, name: string) => program.commands.find((command) => command.name() === name)!;
const verbs = (program: Command, name: string) => find(program, name).commands.map((verb) => verb.name());
const groups = (program: Command) => program.commands.filter((command) => command.commands.length > 0);

describe('command tree of a run', () => {
  it('defines the named commands only; the others stand in, with no options or verbs', async () => {
    const full = await build();
    const run = await build(['--json', 'profile', 'list']);
    expect(verbs(run, 'profile')).toEqual(verbs(full, 'profile'));
    expect(verbs(full, 'models').length).toBeGreaterThan(3);
    expect(verbs(run, 'models')).toEqual([]);
    expect(find(run, 'api').options).toEqual([]);
    expect(standInTerm(find(run, 'api'))).toBe('api <method-or-path> [path]');
    expect(standInTerm(find(run, 'profile'))).toBeUndefined();
    // An alias names its command too.
    expect(verbs(await build(['prompt', 'ls']), 'prompts')).toEqual(verbs(full, 'prompts'));
    expect(find(await build(['api', 'models']), 'api').options.map((o) => o.long)).toEqual(find(full, 'api').options.map((o) => o.long));
  });

  it('shows the same top-level help, command names, aliases and descriptions as the whole tree', async () => {
    const full = await build();
    for (const argv of [['--help'], ['-V'], ['profile', 'list'], ['version'], []]) {
      const run = await build(argv);
      expect(run.helpInformation(), argv.join(' ')).toBe(full.helpInformation());
      expect(run.commands.map((c) => [c.name(), c.aliases(), c.description()])).toEqual(full.commands.map((c) => [c.name(), c.aliases(), c.description()]));
    }
  });

  it('builds the whole tree for commands that walk it', async () => {
    const full = await build();
    const run = await build(['completion', 'bash']);
    expect(groups(full).length).toBeGreaterThan(4);
    for (const group of groups(full)) expect(verbs(run, group.name())).toEqual(verbs(full, group.name()));
  });

  it('top-level.json is up to date with the command tree (run `npm run build && npm run completions`)', async () => {
    const full = await build();
    const help = full.createHelp();
    expect(TOP_LEVEL).toEqual(
      full.commands.map((command) => ({ name: command.name(), aliases: command.aliases(), term: help.subcommandTerm(command), description: command.description() })),
    );
    expect(Object.keys(REGISTRARS)).toEqual(full.commands.map((command) => command.name()));
  });
});
