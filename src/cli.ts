// Builds the commander program and runs it. The only place where an error becomes a message and
// an exit code. Kept light: command modules, output styling, zod, undici and the config store
// load only when a command actually runs, so `--version` and `--help` start fast.
import { type Argument, Command, CommanderError, Help, Option, type OutputConfiguration } from 'commander';
import { summary } from './completion/shared.js';
import { examplesSection, registerExamples, wrapLine } from './commands/examples.js';
import { formatHelp } from './commands/help-format.js';
import { wholeNumberArg } from './commands/options.js';
import { listedCommands, type OptionHelp, PROGRAM_HELP_FOOTER, PROGRAM_OPTION_HELP, registerCommands, type StandIns, standInSummary, standInTerm, TOP_LEVEL, wholeTree } from './commands/register.js';
import { Context, type ContextDeps, defaultDeps } from './context.js';
import type { GlobalOptions } from './types.js';
import { CliError, EXIT_CODE_HELP, ExitCode } from './errors.js';
import { piped } from './io/stdio.js';
import { formatInteger } from './core/thousands.js';
import { VERSION } from './version.js';

// An hour: past 2^31 ms Node's timers fire at once, and a request should not wait longer anyway.
const MAX_TIMEOUT_MS = 3_600_000;
const MAX_RETRIES = 20;

/**
 * The program's options, in the order of its help, each with its flags (a test checks them
 * against the options defined). A run defines those its arguments may name (see programOptionsFor).
 */
const PROGRAM_OPTIONS: ReadonlyArray<{ flags: readonly [short: string | undefined, long: string | undefined]; value?: true; add: (program: Command) => void }> = [
  // Only -V is the program's: commander would take a program-level --version anywhere on the
  // line, and prompt commands need --version for themselves. A leading --version still works.
  { flags: ['-V', undefined], add: (p) => p.version(VERSION, '-V', 'print the version (also --version before any command)') },
  { flags: [undefined, '--profile'], value: true, add: (p) => p.addOption(new Option('--profile <profile>', 'use this profile (default: $LLMOBS_PROFILE, then the active profile)')) },
  { flags: [undefined, '--base-url'], value: true, add: (p) => p.addOption(new Option('--base-url <url>', 'server address, e.g. https://us.cloud.langfuse.com or http://localhost:3000')) },
  { flags: [undefined, '--json'], add: (p) => p.option('--json', 'print JSON on stdout (errors as JSON on stderr)') },
  { flags: ['-q', '--jq'], value: true, add: (p) => p.option('-q, --jq <expression>', "filter the JSON output with jq (implies --json), e.g. --jq '.data[].name'") },
  { flags: [undefined, '--csv'], add: (p) => p.option('--csv', 'print tables as CSV (RFC 4180, with a header row)') },
  { flags: [undefined, '--headers'], add: (p) => p.option('--headers', 'print a header row in piped tables too') },
  { flags: [undefined, '--no-headers'], add: (p) => p.option('--no-headers', 'no header row, even on a terminal or in CSV') },
  { flags: [undefined, '--verbose'], add: (p) => p.option('--verbose', 'trace requests, retries and timings on stderr (also LLMOBS_DEBUG=1)') },
  { flags: [undefined, '--no-color'], add: (p) => p.option('--no-color', 'disable colour (also NO_COLOR)') },
  {
    flags: [undefined, '--timeout'],
    value: true,
    add: (p) => p.addOption(new Option('--timeout <ms>', `time limit per request attempt in milliseconds, 1 to ${formatInteger(MAX_TIMEOUT_MS)}`).argParser(wholeNumberArg('--timeout', 1, MAX_TIMEOUT_MS)).default(30_000)),
  },
  {
    flags: [undefined, '--retries'],
    value: true,
    add: (p) => p.addOption(new Option('--retries <n>', `retries after a rate limit or a transient server error, 0 to ${MAX_RETRIES}`).argParser(wholeNumberArg('--retries', 0, MAX_RETRIES)).default(3)),
  },
  {
    flags: [undefined, '--max-pages'],
    value: true,
    add: (p) => p.addOption(new Option('--max-pages <n>', 'most pages a listing (--all, --paginate) follows before it stops with an error').argParser(wholeNumberArg('--max-pages', 1, 1_000_000)).default(1000)),
  },
];

/** The program's options as flags, in the order of its help, and whether each takes a value. */
export const PROGRAM_FLAGS = PROGRAM_OPTIONS.map((option) => option.flags);
export const PROGRAM_VALUE_FLAGS = PROGRAM_OPTIONS.map((option) => option.value === true);

/**
 * What a run defines of the program's options (see programOptionsFor): all, those of a set, or
 * none with the help's text of each standing in for them.
 */
export type ProgramOptions = 'all' | 'help' | ReadonlySet<number>;

/** Programs whose help shows the options from PROGRAM_OPTION_HELP, not defined in the run. */
const optionStandIns = new WeakSet<Command>();

/** An option of the program as its help shows it, standing in for one not defined in the run. */
interface StandInOption {
  readonly standIn: OptionHelp;
}
const standInOptions: readonly StandInOption[] = PROGRAM_OPTION_HELP.map((standIn) => ({ standIn }));
const standInOf = (option: unknown): OptionHelp | undefined => (option as Partial<StandInOption>).standIn;

/**
 * Which of the program's options a run defines (`shows`: showsProgramHelp, when already known).
 * - The whole tree: all of them.
 * - A run that may show the program's help (see showsProgramHelp): none when it names none, their
 *   text standing in for them in the help ('help'), as commands not named stand in; all of them
 *   when it names some.
 * - Any other run: each one its arguments may name, none when they name none (the commands'
 *   actions apply the defaults: context.ts, globalsFrom).
 * Cautious: any argument that could be a flag of one counts (a value or an operand after `--`
 * too), a cluster of short flags names each of its letters, --headers and --no-headers come
 * together (each changes the other's default), and a leading --version is -V (programVersionFlag).
 */
export function programOptionsFor(argv: readonly string[], shows = showsProgramHelp(argv)): ProgramOptions {
  if (wholeTree(argv)) return 'all';
  const named = new Set<number>();
  const name = (test: (short: string | undefined, long: string | undefined) => boolean) => {
    PROGRAM_FLAGS.forEach(([short, long], index) => {
      if (test(short, long)) named.add(index);
    });
  };
  for (const arg of argv) {
    if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const flag = equals === -1 ? arg : arg.slice(0, equals);
      name((short, long) => long === flag || (flag === '--version' && short === '-V') || (long !== undefined && (flag === '--headers' || flag === '--no-headers') && long.endsWith('-headers')));
    } else if (arg.startsWith('-')) {
      for (let i = 1; i < arg.length; i++) name((short) => short === `-${arg[i]}`);
    }
  }
  if (shows) return named.size === 0 ? 'help' : 'all';
  return named;
}

/**
 * How a run stands in for the commands it does not name (see StandIns): commander Commands for a
 * program's help or answer that lists or suggests them, records for a help asked for by its flag
 * (only its list shows them; the `help` command and a run without arguments look commands up),
 * none for a run that a command takes.
 */
function standInsFor(argv: readonly string[] | undefined, shows: boolean): StandIns {
  if (argv === undefined || wholeTree(argv)) return 'commands';
  if (!shows) return 'none';
  return argv.length > 0 && !argv.includes('help') && argv.some(isHelpFlag) ? 'listed' : 'commands';
}

const isHelpFlag = (arg: string): boolean => arg === '--help' || (arg.startsWith('-') && !arg.startsWith('--') && arg.includes('h'));

/**
 * Whether the run may show a help, or the program's own answer that lists its commands: a help
 * asked for (`help`, `--help`, `-h`, in a cluster too), no arguments, or arguments no command
 * takes (see mayShowProgramHelp). Any other run is a command's (or `-V`'s): it needs neither the
 * program's options nor its other commands.
 */
export function showsProgramHelp(argv: readonly string[]): boolean {
  if (argv.length === 0) return true;
  for (const arg of argv) {
    if (arg === 'help' || isHelpFlag(arg)) return true;
  }
  return mayShowProgramHelp(argv);
}

/** The flags of the program's options that take a value. */
const VALUE_FLAGS = new Set(PROGRAM_OPTIONS.filter((option) => option.value).flatMap((option) => option.flags));

/**
 * Whether the program itself may answer the run with its help, which lists all its options: no
 * command takes the run (its first operand, past the program's options and their values, is no
 * command's name or alias) and no -V (or leading --version) answers first with the version.
 * Cautious: `--`, or a short-flag cluster that takes a value, counts as may.
 */
function mayShowProgramHelp(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return true;
    if (arg === '-V' || arg === '--version') return false;
    if (arg.startsWith('--')) {
      if (!arg.includes('=') && VALUE_FLAGS.has(arg)) i++;
    } else if (arg.startsWith('-') && arg.length > 1) {
      if (VALUE_FLAGS.has(arg)) i++;
      else if ([...arg.slice(1)].some((letter) => VALUE_FLAGS.has(`-${letter}`))) return true;
    } else {
      return !TOP_LEVEL.some((entry) => entry.name === arg || entry.aliases.includes(arg));
    }
  }
  return true;
}

/**
 * The command tree; `argv` lets a run define only the commands it names (see registerCommands)
 * and the program's options it may name (see programOptionsFor). An option the tree does not
 * know makes run() build it again with all of the program's, for the error to suggest the
 * closest of all options.
 */
export async function buildProgram(ctx: Context, argv?: readonly string[], programOptions?: ProgramOptions): Promise<Command> {
  // Worked out once for both what it defines of the program's options and its stand-ins.
  const shows = argv !== undefined && showsProgramHelp(argv);
  programOptions ??= argv === undefined ? 'all' : programOptionsFor(argv, shows);
  const program = new Command('llmobs');
  program
    .description('Operate a Langfuse project from the terminal and CI: model definitions, prompts and labels, offline token and cost estimates, and a local Langfuse-compatible server.')
    .helpOption('-h, --help', 'show help for a command')
    // The command groups' own `help`; the program's is registered with the commands.
    .helpCommand('help [command]', 'show the help of a command');
  if (programOptions === 'help') optionStandIns.add(program);
  else {
    PROGRAM_OPTIONS.forEach((option, index) => {
      if (programOptions === 'all' || programOptions.has(index)) option.add(program);
    });
  }
  program
    .showSuggestionAfterError(true)
    .configureHelp({
      sortSubcommands: false,
      // The program's options not defined in a run that shows its help stand in with their text.
      visibleOptions(command) {
        const options = Help.prototype.visibleOptions.call(this, command);
        return optionStandIns.has(command) ? [...(standInOptions as unknown as Option[]), ...options] : options;
      },
      optionTerm: (option) => standInOf(option)?.term ?? option.flags,
      optionDescription(option) {
        return standInOf(option)?.description ?? Help.prototype.optionDescription.call(this, option);
      },
      // Lists of commands: the name and arguments, and the first clause of the description (the
      // whole one is in the command's own help). A command or verb not defined in this run
      // stands in with the term and summary of its definition, made ahead (see registerCommands).
      subcommandTerm: (command) => standInTerm(command) ?? subcommandTerm(command),
      // A help asked for by its flag lists records for the commands not defined ('listed').
      visibleCommands(command) {
        const listed = listedCommands(command);
        return listed === undefined ? Help.prototype.visibleCommands.call(this, command) : (listed.filter((sub) => !(sub as { _hidden?: boolean })._hidden) as Command[]);
      },
      subcommandDescription: (command) => standInSummary(command) ?? summary(command.description(), 100),
      // Below a command's own options, the global ones by name: the program's help describes them.
      // Commander's layout, written by a shorter way (see commands/help-format.ts).
      // The program's ends with its footer and examples, in the same text: one write.
      formatHelp(command, helper) {
        const text = formatHelp(command, helper);
        if (command.parent) return withGlobalOptions(text, globalFlags(command), helper.helpWidth ?? 80);
        return `${text}${PROGRAM_HELP_FOOTER ?? helpFooter()}\n${examplesSection(PROGRAM_EXAMPLES)}\n`;
      },
    });
  registerExamples(program, PROGRAM_EXAMPLES);

  // Commander must never exit or print errors behind our back.
  program.exitOverride();
  const commanderDefaults = program.configureOutput() as Required<OutputConfiguration>;
  program.configureOutput({
    writeOut: (text) => ctx.io.stdout.write(text),
    writeErr: (text) => ctx.io.stderr.write(text),
    outputError: () => {},
    // Commander's defaults, without making Node's stdio streams when the output is piped (no
    // terminal width, no colours; see io/stdio.ts).
    // (Commander's types say number; its own defaults give undefined off a terminal too.)
    getOutHelpWidth: () => (piped(1) || !process.stdout.isTTY ? undefined : process.stdout.columns) as number,
    getErrHelpWidth: () => (piped(2) || !process.stderr.isTTY ? undefined : process.stderr.columns) as number,
    getOutHasColors: () => !piped(1) && commanderDefaults.getOutHasColors(),
    getErrHasColors: () => !piped(2) && commanderDefaults.getErrHasColors(),
    // Commander strips colour codes from every help and message it writes without colours, with a
    // regex compiled at first use: text without an escape character has none to strip.
    stripColor: (text) => (text.includes('\x1b') ? commanderDefaults.stripColor(text) : text),
  });

  await registerCommands(program, ctx, argv, standInsFor(argv, shows));
  return program;
}

export async function run(argv: string[], deps: Partial<ContextDeps> = {}): Promise<number> {
  const ctx = new Context({ ...defaultDeps(), ...deps });
  let program = await buildProgram(ctx, argv);
  try {
    try {
      await program.parseAsync(programVersionFlag(argv, program), { from: 'user' });
    } catch (error) {
      // An option the tree does not know, in a run that left the program's options out: parsed
      // again with them (commander stops at an unknown option before any action runs), for the
      // error to be the same as with the whole tree (it suggests the closest of all options).
      if (!(error instanceof CommanderError && error.code === 'commander.unknownOption' && program.options.length < PROGRAM_OPTIONS.length)) throw error;
      program = await buildProgram(ctx, argv, 'all');
      await program.parseAsync(programVersionFlag(argv, program), { from: 'user' });
    }
    await ctx.prepare();
    ctx.out.finish();
    return ctx.exitCode;
  } catch (error) {
    return await reportError(ctx, program, argv, error);
  } finally {
    await ctx.dispose();
  }
}

async function reportError(ctx: Context, program: Command, argv: string[], error: unknown): Promise<number> {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
    // Help printed because a command group was called without a verb: a usage error.
    if (error.code === 'commander.help' || error.code === 'commander.executeSubCommandAsync') return ExitCode.usage;
  }
  ctx.globals = { ...ctx.globals, ...globalsFromArgv(argv, program) };
  try {
    await ctx.prepare();
  } catch {
    ctx.io.stderr.write(ctx.redactMessage(`error: ${error instanceof Error ? error.message : String(error)}\n`));
    return ExitCode.unexpected;
  }
  if (error instanceof CommanderError) {
    const message = error.message.replace(/^error: /, '');
    ctx.out.error({ code: 'usage', message, exitCode: ExitCode.usage, hint: 'Run with --help to see the usage.' });
    return ExitCode.usage;
  }
  if (error instanceof CliError) {
    ctx.out.error({
      code: error.code,
      message: error.message,
      exitCode: error.exitCode,
      status: (error as { status?: number }).status,
      hint: error.hint,
      details: error.details,
    });
    if (ctx.verbose && error.cause instanceof Error && error.cause.stack) ctx.trace(error.cause.stack);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  ctx.out.error({
    code: 'unexpected',
    message: `unexpected error: ${message}`,
    exitCode: ExitCode.unexpected,
    hint: ctx.verbose ? undefined : 'Run again with --verbose for details.',
  });
  if (ctx.verbose && error instanceof Error && error.stack) ctx.trace(error.stack);
  return ExitCode.unexpected;
}

/**
 * `--version` before the first command name asks for the program's version: it becomes `-V`.
 * (The names from top-level.json: a run defines only the commands it names.)
 */
export function programVersionFlag(argv: string[], program: Command): string[] {
  const commands = new Set([...TOP_LEVEL.flatMap((entry) => [entry.name, ...entry.aliases]), ...program.commands.flatMap((command) => [command.name(), ...command.aliases()])]);
  const first = argv.findIndex((arg) => commands.has(arg));
  return argv.map((arg, index) => (arg === '--version' && (first === -1 || index < first) ? '-V' : arg));
}

/** After a parse error the options object may be incomplete; --json and colour still apply. */
function globalsFromArgv(argv: string[], program: Command): Partial<GlobalOptions> {
  const opts = program.opts<Partial<GlobalOptions>>();
  const globals: Partial<GlobalOptions> = {};
  globals.json = opts.json === true || argv.includes('--json') || opts.jq !== undefined || argv.includes('--jq') || argv.includes('-q');
  globals.verbose = opts.verbose === true || argv.includes('--verbose');
  globals.color = opts.color !== false && !argv.includes('--no-color');
  return globals;
}

/** A command's term in lists of commands: its name, aliases and arguments. */
export function subcommandTerm(command: Command): string {
  return [[command.name(), ...command.aliases()].join('|'), ...command.registeredArguments.map(argumentText)].join(' ');
}

function argumentText(argument: Argument): string {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

/**
 * The flags of the options a command inherits, nearest first, as its help lists them: the
 * program's from PROGRAM_FLAGS, which a run may not have defined (see programOptionsFor).
 */
function globalFlags(command: Command): string[] {
  const named = (short: string | undefined, long: string | undefined) => (long === undefined || long === '--version' ? [] : [short ? `${short}/${long}` : long]);
  const flags: string[] = [];
  for (let parent = command.parent; parent; parent = parent.parent) {
    if (parent.parent === null) flags.push(...PROGRAM_FLAGS.flatMap(([short, long]) => named(short, long)));
    else flags.push(...parent.options.filter((option) => !option.hidden).flatMap((option) => named(option.short, option.long)));
  }
  return flags;
}

function withGlobalOptions(text: string, flags: readonly string[], width: number): string {
  const block = `Global options (llmobs --help describes them):\n${wrapLine(`  ${flags.join(', ')}`, width, '  ')}\n`;
  const commands = text.indexOf('\nCommands:\n');
  return commands === -1 ? `${text.replace(/\n*$/, '\n')}\n${block}` : `${text.slice(0, commands + 1)}${block}\n${text.slice(commands + 1)}`;
}

const PROGRAM_EXAMPLES = [
  'llmobs profile add prod-us --region us',
  "llmobs prompts list --all --jq '.data[].name'",
  'llmobs labels promote support/agent --from staging --to production',
  'llmobs help prompts create',
];

/**
 * The end of the program's help: environment and exit codes. Written out at build time into
 * top-level.json (PROGRAM_HELP_FOOTER, checked current by a test), as the summaries are: wrapping
 * it is a good part of the work a `--help` does once.
 */
export function helpFooter(): string {
  const codes = EXIT_CODE_HELP.map(([code, text]) => wrapLine(`  ${String(code).padStart(2)}  ${text}`, 80, '      ')).join('\n');
  return `
Environment:
  LLMOBS_PROFILE, LLMOBS_BASE_URL, LLMOBS_PUBLIC_KEY, LLMOBS_SECRET_KEY,
  LLMOBS_API_KEY, LANGFUSE_PUBLIC_KEY, LANGFUSE_SECRET_KEY, LANGFUSE_HOST,
  LANGFUSE_BASE_URL, LLMOBS_CONFIG_DIR, LLMOBS_CACHE_DIR, LLMOBS_DEBUG,
  LLMOBS_MAX_RESPONSE_MB, LLMOBS_RETRY_BASE_MS, NO_COLOR, FORCE_COLOR,
  HTTPS_PROXY, HTTP_PROXY, NO_PROXY

Exit codes:
${codes}`;
}
