// The command tree. Only commander is loaded here; each command's definition, and each verb's
// module, loads when it is named.
import type { Command } from 'commander';
import type { Context } from '../context.js';
import topLevel from './top-level.json' with { type: 'json' };

type Register = (program: Command, ctx: Context) => void;

/**
 * Every top-level command, in the order of the help, and where it is defined: a command group
 * in its folder's index.ts, a command without verbs in standalone.ts.
 */
export const REGISTRARS: Record<string, () => Promise<Register>> = {
  profile: async () => (await import('./profile/index.js')).registerProfile,
  models: async () => (await import('./models/index.js')).registerModels,
  prompts: async () => (await import('./prompts/index.js')).registerPrompts,
  labels: async () => (await import('./labels/index.js')).registerLabels,
  tokens: async () => (await import('./tokens/index.js')).registerTokens,
  estimate: async () => (await import('./estimate/index.js')).registerEstimate,
  traces: async () => (await import('./traces/index.js')).registerTraces,
  observations: async () => (await import('./observations/index.js')).registerObservations,
  cost: async () => (await import('./cost/index.js')).registerCost,
  health: async () => (await import('./standalone.js')).registerHealth,
  projects: async () => (await import('./standalone.js')).registerProjects,
  whoami: async () => (await import('./standalone.js')).registerWhoami,
  doctor: async () => (await import('./standalone.js')).registerDoctor,
  api: async () => (await import('./standalone.js')).registerApi,
  completion: async () => (await import('./standalone.js')).registerCompletion,
  server: async () => (await import('./standalone.js')).registerServer,
  help: async () => (await import('./standalone.js')).registerHelp,
  version: async () => (await import('./standalone.js')).registerVersion,
};

/**
 * What the top-level help shows of each command (name, aliases, the usage term and the
 * description), taken from the whole tree by `npm run completions`; a test checks that it is
 * current.
 */
export interface TopLevelEntry {
  name: string;
  aliases: string[];
  term: string;
  description: string;
  /** What a list of commands shows of the description (the help's `subcommandDescription`). */
  summary: string;
  /** A command group's verbs, the same for its own help. */
  verbs?: TopLevelEntry[];
}
export const TOP_LEVEL: readonly TopLevelEntry[] = topLevel.commands;

/** The program's options as its help shows them (term and description), from the whole tree. */
export interface OptionHelp {
  term: string;
  description: string;
}
export const PROGRAM_OPTION_HELP: readonly OptionHelp[] = topLevel.programOptions ?? [];

/** The end of the program's help (src/cli.ts, helpFooter), written out ahead. */
export const PROGRAM_HELP_FOOTER: string | undefined = (topLevel as { programHelpFooter?: string }).programHelpFooter;

/** Commands whose action needs every command defined (the completion script is generated from the tree). */
const WHOLE_TREE = new Set(['completion']);

/** Whether a run's arguments name a command that needs the whole tree. */
export function wholeTree(argv: readonly string[]): boolean {
  return argv.some((arg) => WHOLE_TREE.has(arg));
}

/** What the help shows of commands that stand in for a definition not loaded. */
const standInEntries = new WeakMap<object, TopLevelEntry>();

/** The help's term for a command that stands in for one not loaded (see registerCommands). */
export function standInTerm(command: object): string | undefined {
  return standInEntries.get(command)?.term;
}

/** The help's summary of the description of a command that stands in for one not loaded. */
export function standInSummary(command: object): string | undefined {
  return standInEntries.get(command)?.summary;
}

/** Whether the run's arguments name this command or verb, by name or alias. */
function namedIn(entry: TopLevelEntry, words: ReadonlySet<string>): boolean {
  return words.has(entry.name) || entry.aliases.some((alias) => words.has(alias));
}

/**
 * How a run stands in for the commands it does not define: with commander Commands ('commands':
 * for the program's help, suggestions and the help command), with records that only a help's
 * list reads ('listed': a run that asks for a help by its flag, whose list is all that shows
 * them), or not at all ('none': a run that a command takes).
 */
export type StandIns = 'commands' | 'listed' | 'none';

/** A command not defined in a run, as a help's list shows it (its term and summary: standInEntries). */
interface ListedStandIn {
  readonly _hidden: false;
  helpGroup(): string;
}

/** Per program, its commands in the order of the help: the defined ones, and records for the others. */
const listings = new WeakMap<Command, ReadonlyArray<Command | ListedStandIn>>();

/** The commands a help lists for `program`, when records stand in for some ('listed'). */
export function listedCommands(program: Command): ReadonlyArray<Command | ListedStandIn> | undefined {
  return listings.get(program);
}

/** Adds to `parent` a command that stands in for `entry`, not defined in this run. */
function standIn(parent: Command, entry: TopLevelEntry): void {
  const command = parent.command(entry.name).description(entry.description);
  if (entry.aliases.length) command.aliases(entry.aliases);
  standInEntries.set(command, entry);
}

/**
 * While a group's registrar runs (registerCommands): the run's arguments and the group's entry.
 * Undefined (the whole tree, or a registrar called directly): every verb is defined.
 */
let defining: { words: ReadonlySet<string>; group: TopLevelEntry | undefined } | undefined;

/**
 * Defines a verb of a command group, as `define` does, when the run names it (by name or alias)
 * or the whole tree is built; else it stands in with its name, aliases and description from
 * top-level.json, all the group's help, suggestions and dispatch need: a run of one verb does
 * not make the options of ten.
 */
export function verb(group: Command, name: string, define: () => void): void {
  const entry = defining?.group?.verbs?.find((v) => v.name === name);
  if (entry === undefined || namedIn(entry, defining!.words)) define();
  else standIn(group, entry);
}

/**
 * Registers every command on `program`. With `argv` (a run of the CLI), only the commands named
 * among the arguments (by name or alias) are defined, each by loading its module; every other
 * one is a stand-in made from top-level.json with its name, aliases and description, which is
 * all the top-level help and suggestions need (`standIns`: see StandIns; src/cli.ts chooses).
 * Without `argv` (completions, tests), or for a command that walks the whole tree (WHOLE_TREE),
 * every command is defined.
 */
export async function registerCommands(program: Command, ctx: Context, argv?: readonly string[], standIns: StandIns = 'commands'): Promise<void> {
  const whole = argv === undefined || wholeTree(argv);
  const named = new Set(argv);
  const entries = new Map(TOP_LEVEL.map((entry) => [entry.name, entry]));
  const names = Object.keys(REGISTRARS);
  // A command missing from top-level.json (added since it was generated) is loaded, never hidden.
  const defined = names.map((name) => {
    const entry = entries.get(name);
    return whole || entry === undefined || namedIn(entry, named);
  });
  const registers = await Promise.all(names.map((name, i) => (defined[i] ? REGISTRARS[name]!() : undefined)));
  names.forEach((name, i) => {
    const register = registers[i];
    if (register) {
      defining = whole ? undefined : { words: named, group: entries.get(name) };
      try {
        register(program, ctx);
      } finally {
        defining = undefined;
      }
      return;
    }
    if (standIns === 'commands') standIn(program, entries.get(name)!);
  });
  if (standIns === 'listed') {
    listings.set(
      program,
      names.map((name) => {
        const defined = program.commands.find((command) => command.name() === name);
        if (defined) return defined;
        const record: ListedStandIn = { _hidden: false, helpGroup: () => '' };
        standInEntries.set(record, entries.get(name)!);
        return record;
      }),
    );
    // Commander writes `[command]` into the usage only for a program with commands defined.
    program.usage('[options] [command]');
  }
  // `help` replaces commander's own, which stops at the first level.
  program.helpCommand(false);
}
