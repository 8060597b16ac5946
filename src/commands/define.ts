// Commands as declarations. A verb's file declares its name, arguments, flags, help and examples
// with the function that runs it (defineCommand); a command group declares its help and where its
// verbs are (defineGroup; the noun's index.ts lists them). mount() makes commander Commands of
// them: a command's name, aliases, summary and arguments at once (all that lists of commands,
// suggestions and dispatch need), the rest (flags, help text, a group's verbs) when commander
// dispatches to it, so a run loads the verbs of one group and builds the flags of one command.
import { Argument, type Command, Option } from 'commander';
import { type Context, globalsFrom } from '../context.js';

export interface FlagDefinition {
  /** As commander writes them: '-l, --label <label>', '--dry-run', '--no-resolve'. */
  readonly flags: string;
  readonly help: string;
  /** The only values allowed (the help and the completion scripts list them). */
  readonly choices?: readonly string[];
  /** The value when the flag is not given (shown in the help). */
  readonly default?: string;
  /** Each use adds its value to a list. */
  readonly repeatable?: boolean;
  /** Reads the value; throws commander's InvalidArgumentError to refuse it. */
  readonly parse?: (value: string) => unknown;
}

export interface ArgumentDefinition {
  /** '<name>', '[path]', '[names...]'. */
  readonly name: string;
  readonly help: string;
  readonly choices?: readonly string[];
}

export interface RunInput {
  /** The arguments in their declared order (a variadic one is an array). */
  readonly args: readonly unknown[];
  /** The command's own flags by their camel-case names; the global ones are ctx.globals. */
  readonly opts: Record<string, unknown>;
  /** The commander Command that runs (the help and completion commands walk the tree from it). */
  readonly command: Command;
}

export interface CommandDefinition {
  readonly name: string;
  readonly aliases?: readonly string[];
  /** What the command does; lists of commands show its first clause. */
  readonly summary: string;
  readonly args?: readonly ArgumentDefinition[];
  readonly flags?: readonly FlagDefinition[];
  /** Text after the flags in the help, printed as written (lines of at most 80 columns). */
  readonly notes?: string;
  /** Command lines shown at the end of the help; a line that starts with `#` explains the next one. */
  readonly examples: readonly string[];
  readonly run: (ctx: Context, input: RunInput) => Promise<void>;
  /**
   * Verbs under the command, which runs itself when none is named (`llmobs server` and
   * `llmobs server link`), loaded when a run reaches the command.
   */
  readonly subcommands?: () => Promise<readonly CommandDefinition[]>;
}

export interface GroupDefinition {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly summary: string;
  readonly examples: readonly string[];
  /** The group's verbs, in the order of its help: its folder's index.ts, loaded when a run reaches it. */
  readonly verbs: () => Promise<readonly CommandDefinition[]>;
}

export type Definition = CommandDefinition | GroupDefinition;

export const defineCommand = (definition: CommandDefinition): CommandDefinition => definition;
export const defineGroup = (definition: GroupDefinition): GroupDefinition => definition;

export const isGroup = (definition: Definition): definition is GroupDefinition => 'verbs' in definition;

/** Each Command's definition, and its flags and verbs once they are on it. */
const definitions = new WeakMap<Command, { definition: Definition; ctx: Context; complete?: Promise<void> }>();

/** Adds `definition` to `parent` as a command whose body comes when a run reaches it (see complete). */
export function mount(parent: Command, definition: Definition, ctx: Context): Command {
  const command = parent.command(definition.name).description(definition.summary);
  if (definition.aliases?.length) command.aliases([...definition.aliases]);
  if (!isGroup(definition)) {
    for (const arg of definition.args ?? []) {
      const argument = new Argument(arg.name, arg.help);
      if (arg.choices) argument.choices(arg.choices);
      command.addArgument(argument);
    }
  }
  definitions.set(command, { definition, ctx });
  return command;
}

/** The definition a command was mounted from. */
export function definitionOf(command: Command): Definition | undefined {
  return definitions.get(command)?.definition;
}

/**
 * Puts the rest of a mounted command on it, once: a command's flags, help text and action, a
 * group's verbs. The program calls it for each command it dispatches to; `all` completes the
 * verbs too (the help command, the completion scripts, tests).
 */
export async function complete(command: Command, all = false): Promise<void> {
  const entry = definitions.get(command);
  if (entry !== undefined) {
    entry.complete ??= completeOnce(command, entry.definition, entry.ctx);
    await entry.complete;
  }
  if (all) await Promise.all(command.commands.map((child) => complete(child, true)));
}

async function completeOnce(command: Command, definition: Definition, ctx: Context): Promise<void> {
  if (isGroup(definition)) {
    for (const verb of await definition.verbs()) mount(command, verb, ctx);
    command.hook('preSubcommand', (_, verb) => complete(verb));
  } else {
    for (const flag of definition.flags ?? []) command.addOption(option(flag));
    if (definition.subcommands) {
      for (const verb of await definition.subcommands()) mount(command, verb, ctx);
      command.hook('preSubcommand', (_, verb) => complete(verb));
    }
    if (definition.notes) command.addHelpText('after', definition.notes);
    command.action(async (...params: unknown[]) => {
      const self = params.at(-1) as Command;
      ctx.globals = globalsFrom(self.optsWithGlobals());
      await ctx.prepare();
      await definition.run(ctx, { args: params.slice(0, -2), opts: self.opts(), command: self });
    });
  }
  command.addHelpText('after', () => examplesSection(definition.examples));
}

function option(flag: FlagDefinition): Option {
  const option = new Option(flag.flags, flag.help);
  let parse = flag.parse;
  if (flag.choices) {
    option.choices(flag.choices);
    // commander's own check of the choices, kept for repeatable flags too. Upper-case choices are
    // the API's enums (GENERATION, ERROR, GET): they are taken in any case.
    const check = option.parseArg as (value: string, previous: unknown) => unknown;
    const upper = flag.choices.every((choice) => choice === choice.toUpperCase());
    parse ??= (value: string) => check(upper ? value.toUpperCase() : value, undefined);
  }
  if (flag.default !== undefined) option.default(flag.default);
  if (flag.repeatable) {
    const one = parse ?? ((value: string) => value);
    option.argParser((value: string, previous: unknown[] | undefined) => [...(previous ?? []), one(value)]);
  } else if (parse) option.argParser(parse);
  return option;
}

/** The "Examples:" section of a help. */
export function examplesSection(lines: readonly string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

const programExamples = new WeakMap<Command, readonly string[]>();

/** Puts examples at the end of a command's help that is not mounted from a definition (the program's). */
export function addExamples(command: Command, lines: readonly string[], before: () => string = () => ''): void {
  programExamples.set(command, lines);
  command.addHelpText('after', () => `${before()}${examplesSection(lines)}`);
}

/** The examples a command's help ends with. */
export function examplesOf(command: Command): readonly string[] {
  return definitionOf(command)?.examples ?? programExamples.get(command) ?? [];
}
