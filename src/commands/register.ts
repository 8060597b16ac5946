// The command tree. Only commander is loaded here; each verb's module loads when it runs.
import { Command, Option } from 'commander';
import type { Context } from '../context.js';
import { collect } from './options.js';
import { lazy } from './action.js';
import { registerEstimate } from './estimate/index.js';
import { registerLabels } from './labels/index.js';
import { registerModels } from './models/index.js';
import { registerProfile } from './profile/index.js';
import { registerPrompts } from './prompts/index.js';
import { registerTokens } from './tokens/index.js';

/**
 * Registers every command on `program`. With `argv` (a run of the CLI), a command group defines
 * its verbs only when its name or an alias is among the arguments: the other groups keep their
 * name, aliases, description and options, which is all the top-level help, suggestions and
 * dispatch need, and start-up skips building a few hundred options nobody asked for. Without
 * `argv` (completions, tests) the whole tree is built. Commands that walk the whole tree from a
 * run are listed in WHOLE_TREE.
 */
export function registerCommands(program: Command, ctx: Context, argv?: readonly string[]): void {
  if (argv && !argv.some((arg) => WHOLE_TREE.has(arg))) {
    const named = new Set(argv);
    program.createCommand = (name?: string) => new GroupCommand(name, named);
  }
  registerProfile(program, ctx);
  registerModels(program, ctx);
  registerPrompts(program, ctx);
  registerLabels(program, ctx);
  registerTokens(program, ctx);
  registerEstimate(program, ctx);

  program
    .command('health')
    .description('check that the server answers (GET /api/public/health, no credentials needed)')
    .action(lazy(ctx, () => import('./health.js')));

  program
    .command('projects')
    .description('show the project the credentials belong to')
    .action(lazy(ctx, () => import('./projects.js')));

  program
    .command('whoami')
    .description('show which server, profile, project and key are in use')
    .action(lazy(ctx, () => import('./whoami.js')));

  program
    .command('api')
    .description('send a request to any API endpoint with the profile\'s credentials, retries and error handling')
    .argument('<method>', 'HTTP method: GET, POST, PUT, PATCH, DELETE or HEAD')
    .argument('<path>', 'endpoint path, e.g. /api/public/models or just models')
    .option('-f, --field <key=value>', 'string parameter: query parameter for GET/HEAD/DELETE, JSON body field otherwise (repeatable)', collect)
    .option('-F, --typed-field <key=value>', 'like --field, but true/false/null/numbers/JSON are typed and @file reads a file (repeatable)', collect)
    .option('--input <file>', 'request body from a JSON file, or - for stdin (fields then go to the query string)')
    .option('--paginate', 'follow meta.page/totalPages and print one array of every page\'s data')
    .action(lazy(ctx, () => import('./api.js')));

  program
    .command('completion')
    .description('print a shell completion script')
    .argument('<shell>', 'bash, zsh or fish')
    .action(lazy(ctx, () => import('./completion.js')));

  program
    .command('server')
    .description('run a local Langfuse-compatible API server (for trying llmobs, tests and CI rehearsals)')
    .addOption(new Option('--port <port>', 'port to listen on (0 picks a free port)').default('3000'))
    .addOption(new Option('--host <host>', 'address to listen on').default('127.0.0.1'))
    .option('--data-dir <dir>', 'where data and keys are kept (default: $XDG_DATA_HOME/llmobs/server)')
    .option('--ephemeral', 'keep everything in memory and forget it on exit')
    .action(lazy(ctx, () => import('./server.js')));
}

/** Commands whose action needs every verb defined (the completion script is generated from the tree). */
const WHOLE_TREE = new Set(['completion']);

/** A top-level command whose verbs are defined only if it was named on the command line. */
class GroupCommand extends Command {
  constructor(
    name: string | undefined,
    private readonly named: ReadonlySet<string>,
  ) {
    super(name);
  }

  // `any`: commander types command() with overloads that depend on createCommand's return type.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override command(nameAndArgs: string, ...rest: any[]): any {
    if ([this.name(), ...this.aliases()].some((name) => this.named.has(name))) return super.command(nameAndArgs, ...rest);
    return UNUSED;
  }

  override createCommand(name?: string): Command {
    return new Command(name);
  }
}

/**
 * Stands in for a verb that is not defined in this run: every method call is accepted and
 * ignored, so the registration code of a group runs unchanged; it reads as '' in a string.
 */
const UNUSED: Command = new Proxy(Object.create(null) as Command, {
  get: (_target, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => '' : () => UNUSED),
});
