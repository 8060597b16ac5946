// The program: its options, its commands (src/commands/index.ts), and run(), the one place where an
// error becomes a message and an exit code. Kept light: a command's modules, the output module,
// zod, undici and the config store load only when a command runs.
import { type Argument, Command, CommanderError, Help, Option } from 'commander';
import { summary } from './completion/shared.js';
import { COMMANDS } from './commands/index.js';
import { addExamples, complete, mount } from './commands/define.js';
import { wholeNumberArg } from './commands/options.js';
import { Context, type ContextDeps, defaultDeps } from './context.js';
import { formatInteger } from './core/thousands.js';
import { CliError, EXIT_CODE_HELP, ExitCode } from './errors.js';
import { outputPending } from './io/stdio.js';
import type { GlobalOptions } from './types.js';
import { VERSION } from './version.js';

// An hour: past 2^31 ms Node's timers fire at once, and a request should not wait longer anyway.
const MAX_TIMEOUT_MS = 3_600_000;
const MAX_RETRIES = 20;

function programOptions(): Option[] {
  return [
    new Option('--profile <profile>', 'use this profile (default: $LLMOBS_PROFILE, then the active profile)'),
    new Option('--base-url <url>', 'server address, e.g. https://us.cloud.langfuse.com or http://localhost:3000'),
    new Option('--json', 'print JSON on stdout (errors as JSON on stderr)'),
    new Option('-q, --jq <expression>', "filter the JSON output with jq (implies --json), e.g. --jq '.data[].name'"),
    new Option('--csv', 'print tables as CSV (RFC 4180, with a header row)'),
    new Option('--headers', 'print a header row in piped tables too'),
    new Option('--no-headers', 'no header row, even on a terminal or in CSV'),
    new Option('--verbose', 'trace requests, retries and timings on stderr (also LLMOBS_DEBUG=1)'),
    new Option('--no-color', 'disable colour (also NO_COLOR)'),
    new Option('--timeout <ms>', `time limit per request attempt in milliseconds, 1 to ${formatInteger(MAX_TIMEOUT_MS)}`).argParser(wholeNumberArg('--timeout', 1, MAX_TIMEOUT_MS)).default(30_000),
    new Option('--retries <n>', `retries after a rate limit or a transient server error, 0 to ${MAX_RETRIES}`).argParser(wholeNumberArg('--retries', 0, MAX_RETRIES)).default(3),
    new Option('--max-pages <n>', 'most pages a listing (--all, --paginate) follows before it stops with an error').argParser(wholeNumberArg('--max-pages', 1, 1_000_000)).default(1000),
  ];
}

/**
 * The program and its commands. With `argv` (a run), each command gets its flags and verbs when
 * the run reaches it; without (tests, completion scripts), the whole tree is built at once.
 */
export async function buildProgram(ctx: Context, argv?: readonly string[]): Promise<Command> {
  const program = new Command('llmobs')
    .description('Operate a Langfuse project from the terminal and CI: model definitions, prompts and labels, offline token and cost estimates, and a local Langfuse-compatible server.')
    // Only -V is the program's: commander would take a program-level --version anywhere on the
    // line, and prompt commands need --version for themselves. A leading --version still works
    // (see programVersionFlag).
    .version(VERSION, '-V', 'print the version (also --version before any command)')
    .helpOption('-h, --help', 'show help for a command')
    // Command groups have commander's `help [command]`; the program has llmobs's own `help`
    // command (src/commands/help.ts), which goes to any depth (see below).
    .helpCommand('help [command]', 'show the help of a command')
    .showSuggestionAfterError(true)
    .exitOverride();
  for (const option of programOptions()) program.addOption(option);
  program.configureHelp({
    sortSubcommands: false,
    // Lists of commands: the name, aliases and arguments, and the first clause of the description
    // (the whole one is in the command's own help).
    subcommandTerm: (command) => [[command.name(), ...command.aliases()].join('|'), ...command.registeredArguments.map(argumentText)].join(' '),
    subcommandDescription: (command) => summary(command.description(), 100),
    // Below a command's own options, the global ones by name: the program's help describes them.
    formatHelp(command, helper) {
      const text = Help.prototype.formatHelp.call(this, command, helper);
      return command.parent ? withGlobalOptions(text, globalFlags(command), helper.helpWidth ?? 80) : text;
    },
  });
  addExamples(program, PROGRAM_EXAMPLES, () => `${helpFooter()}\n`);
  program.configureOutput({
    writeOut: (text) => ctx.io.stdout.write(text),
    writeErr: (text) => ctx.io.stderr.write(text),
    outputError: () => {},
    getOutHelpWidth: () => helpWidth(ctx.io.stdout),
    getErrHelpWidth: () => helpWidth(ctx.io.stderr),
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  });
  for (const definition of COMMANDS) mount(program, definition, ctx);
  program.helpCommand(false);
  program.hook('preSubcommand', (_, command) => complete(command));
  if (argv === undefined) await complete(program, true);
  return program;
}

/** Commander's width for a stream: a terminal's, else none (commander then uses 80). */
function helpWidth(stream: { isTTY?: boolean; columns?: number | undefined }): number {
  // (Commander's types say number; its own defaults give undefined off a terminal too.)
  return (stream.isTTY === true ? stream.columns : undefined) as number;
}

/**
 * The llmobs process (bin/llmobs.js): runs the command, then leaves as soon as nothing is pending
 * rather than after Node has taken the heap down piece by piece. Anything still under way (a
 * timer, a socket, output buffered in a pipe) finishes as usual.
 */
export async function main(argv: string[]): Promise<void> {
  const code = await run(argv);
  process.exitCode = code;
  if (process.getActiveResourcesInfo().length === 0 && process.listenerCount('beforeExit') === 0 && !outputPending()) process.exit(code);
}

export async function run(argv: string[], deps: Partial<ContextDeps> = {}): Promise<number> {
  const ctx = new Context({ ...defaultDeps(), ...deps });
  const program = await buildProgram(ctx, argv);
  try {
    await program.parseAsync(programVersionFlag(argv, program), { from: 'user' });
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

/** `--version` before the first command name asks for the program's version: it becomes `-V`. */
export function programVersionFlag(argv: string[], program: Command): string[] {
  const commands = new Set(program.commands.flatMap((command) => [command.name(), ...command.aliases()]));
  const first = argv.findIndex((arg) => commands.has(arg));
  return argv.map((arg, index) => (arg === '--version' && (first === -1 || index < first) ? '-V' : arg));
}

/** After a parse error the options object may be incomplete; --json and colour still apply. */
function globalsFromArgv(argv: string[], program: Command): Partial<GlobalOptions> {
  const opts = program.opts<Partial<GlobalOptions>>();
  return {
    json: opts.json === true || argv.includes('--json') || opts.jq !== undefined || argv.includes('--jq') || argv.includes('-q'),
    verbose: opts.verbose === true || argv.includes('--verbose'),
    color: opts.color !== false && !argv.includes('--no-color'),
  };
}

function argumentText(argument: Argument): string {
  const name = `${argument.name()}${argument.variadic ? '...' : ''}`;
  return argument.required ? `<${name}>` : `[${name}]`;
}

/**
 * The flags of the program's options, as a command's help lists them. A verb under a command
 * that runs itself (`server link`) does not take that command's flags: they are not listed.
 */
function globalFlags(command: Command): string[] {
  const flags: string[] = [];
  let root = command;
  while (root.parent) root = root.parent;
  if (root !== command) {
    for (const option of root.options) {
      if (!option.hidden && option.long) flags.push(option.short ? `${option.short}/${option.long}` : option.long);
    }
  }
  return flags;
}

function withGlobalOptions(text: string, flags: readonly string[], width: number): string {
  const block = `Global options (llmobs --help describes them):\n${wrap(flags.join(', '), width, '  ', '  ')}\n`;
  const commands = text.indexOf('\nCommands:\n');
  return commands === -1 ? `${text.replace(/\n*$/, '\n')}\n${block}` : `${text.slice(0, commands + 1)}${block}\n${text.slice(commands + 1)}`;
}

/** Greedy word wrap: `first` starts the first line, `indent` the others. A long word stays whole. */
function wrap(text: string, width: number, first: string, indent: string): string {
  const lines: string[] = [];
  let line = first;
  for (const word of text.split(' ')) {
    if (line.trim() && line.length + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
    } else line = line.trim() ? `${line} ${word}` : line + word;
  }
  lines.push(line);
  return lines.join('\n');
}

const PROGRAM_EXAMPLES = [
  'llmobs profile add prod-us --region us',
  "llmobs prompts list --all --jq '.data[].name'",
  'llmobs labels promote support/agent --from staging --to production',
  'llmobs help prompts create',
];

/** The end of the program's help: environment and exit codes. */
export function helpFooter(): string {
  const codes = EXIT_CODE_HELP.map(([code, text]) => wrap(text, 80, `  ${String(code).padStart(2)}  `, '      ')).join('\n');
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
