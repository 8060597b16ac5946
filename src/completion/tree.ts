// The command tree as the completion scripts see it: each command's subcommands (with aliases),
// options (its own and the global ones) and what each option and argument takes. Values come from
// `.choices()`, or from the value's name: `<profile>` profile names, `<file>`/`<x-file>` files,
// `<dir>`/`<x-dir>` directories, `<region>` the Langfuse Cloud regions, `<command...>` command
// names. Anything else is free text and completes nothing.
import type { Argument, Command, Option } from 'commander';
import { REGION_NAMES } from '../config/regions.js';

/**
 * `@none` a flag; `@any` free text; `@files`, `@dirs`, `@profiles`; `@commands` command names
 * (the arguments of `help`, one level deeper each); otherwise the words to offer.
 */
export type ValueKind = '@none' | '@any' | '@files' | '@dirs' | '@profiles' | '@commands' | string[];

export interface OptionSpec {
  flags: string[];
  values: ValueKind;
  description: string;
}

export interface ChildSpec {
  name: string;
  aliases: string[];
  description: string;
}

export interface CommandSpec {
  /** Names from the root, canonical (no aliases): '' for the program, 'prompts create'. */
  path: string;
  children: ChildSpec[];
  options: OptionSpec[];
  /** Value kind of each positional argument; a variadic last one repeats. */
  args: ValueKind[];
  variadic: boolean;
}

export function valuesFor(name: string, choices: readonly string[] | undefined): ValueKind {
  if (choices?.length) return [...choices];
  if (name === 'profile') return '@profiles';
  if (name === 'file' || name.endsWith('-file')) return '@files';
  if (name === 'dir' || name.endsWith('-dir')) return '@dirs';
  if (name === 'region') return [...REGION_NAMES];
  if (name === 'command') return '@commands';
  return '@any';
}

function optionSpec(option: Option): OptionSpec {
  const flags = [option.long, option.short].filter((flag): flag is string => Boolean(flag));
  const takesValue = option.required || option.optional;
  const valueName = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags);
  return {
    flags,
    values: takesValue ? valuesFor((valueName?.[1] ?? valueName?.[2] ?? '').replace(/[=:].*$/, ''), option.argChoices) : '@none',
    description: option.description,
  };
}

const isHidden = (command: Command) => (command as unknown as { _hidden?: boolean })._hidden === true;

export function describeTree(program: Command): CommandSpec[] {
  const globals = program.options.filter((option) => !option.hidden).map(optionSpec);
  const help: OptionSpec = { flags: ['--help', '-h'], values: '@none', description: 'show help' };
  const specs: CommandSpec[] = [];
  const visit = (command: Command, path: string) => {
    const children = command.commands.filter((child) => !isHidden(child));
    const own = path ? command.options.filter((option) => !option.hidden).map(optionSpec) : [];
    const registered = command.registeredArguments;
    specs.push({
      path,
      children: children.map((child) => ({ name: child.name(), aliases: child.aliases(), description: child.description() })),
      options: [...own, ...globals, help],
      args: registered.map((argument: Argument) => valuesFor(argument.name(), argument.argChoices)),
      variadic: registered.at(-1)?.variadic === true,
    });
    for (const child of children) visit(child, path ? `${path} ${child.name()}` : child.name());
  };
  visit(program, '');
  return specs;
}

