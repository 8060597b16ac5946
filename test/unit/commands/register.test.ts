// A run defines only the verbs of the command groups it names (start-up); what the user sees must
// not depend on it.
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../src/cli.js';
import { Context, defaultDeps } from '../../../src/context.js';

const build = (argv?: string[]) => buildProgram(new Context(defaultDeps()), argv);
const groups = (program: Command) => program.commands.filter((command) => command.commands.length > 0 || ['profile', 'models', 'prompts', 'labels', 'tokens'].includes(command.name()));
const verbs = (program: Command, name: string) => program.commands.find((command) => command.name() === name)!.commands.map((verb) => verb.name());

describe('command tree of a run', () => {
  it('defines the verbs of the named group only', () => {
    const full = build();
    const run = build(['--json', 'profile', 'list']);
    expect(verbs(run, 'profile')).toEqual(verbs(full, 'profile'));
    expect(verbs(full, 'models').length).toBeGreaterThan(3);
    expect(verbs(run, 'models')).toEqual([]);
    // An alias names its group too.
    expect(verbs(build(['prompt', 'ls']), 'prompts')).toEqual(verbs(full, 'prompts'));
  });

  it('shows the same top-level help, command names and aliases as the whole tree', () => {
    const full = build();
    for (const argv of [['--help'], ['-V'], ['profile', 'list'], []]) {
      const run = build(argv);
      expect(run.helpInformation()).toBe(full.helpInformation());
      expect(run.commands.map((c) => [c.name(), c.aliases(), c.description(), c.options.map((o) => o.flags)])).toEqual(
        full.commands.map((c) => [c.name(), c.aliases(), c.description(), c.options.map((o) => o.flags)]),
      );
    }
  });

  it('builds the whole tree for commands that walk it', () => {
    const run = build(['completion', 'bash']);
    for (const group of groups(build())) expect(verbs(run, group.name())).toEqual(group.commands.map((verb) => verb.name()));
  });
});
