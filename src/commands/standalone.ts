// The top-level commands that have no verbs of their own (the command groups register
// themselves in their folders). Each loads its module only when it runs.
import { Argument, type Command, InvalidArgumentError, Option } from 'commander';
import type { Context } from '../context.js';
import { lazy } from './action.js';
import { examples, helpText } from './examples.js';
import { collect } from './options.js';

const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export function registerHealth(program: Command, ctx: Context): void {
  examples(
    program
      .command('health')
      .description('check that the server answers (GET /api/public/health, no credentials needed)')
      .action(lazy(ctx, () => import('./health.js'))),
    'llmobs health',
    'llmobs health --base-url https://us.cloud.langfuse.com --json',
  );
}

export function registerProjects(program: Command, ctx: Context): void {
  examples(
    program
      .command('projects')
      .description('show the project the credentials belong to')
      .action(lazy(ctx, () => import('./projects.js'))),
    'llmobs projects',
    "llmobs projects --profile prod-us --jq '.[0].id'",
  );
}

export function registerWhoami(program: Command, ctx: Context): void {
  examples(
    program
      .command('whoami')
      .description('show which server, profile, project and key are in use')
      .action(lazy(ctx, () => import('./whoami.js'))),
    'llmobs whoami',
    'llmobs whoami --profile prod-us --json',
  );
}

export function registerDoctor(program: Command, ctx: Context): void {
  examples(
    program
      .command('doctor')
      .description('check the setup end to end: Node.js, profile file permissions, settings, proxy, connection, clock, server version, key, and the region a rejected key belongs to; says what to fix (exit 9 when something is wrong)')
      .option('--check-regions', 'after a 401, try the key on every Langfuse Cloud region to find its own (done without asking only when the key already went to a Langfuse Cloud host)')
      .option('--no-check-regions', 'never send the key to another host')
      .action(lazy(ctx, () => import('./doctor/action.js'))),
    'llmobs doctor',
    'llmobs doctor --profile prod-us --json',
    '# After a 401 from a self-hosted address: is it a Langfuse Cloud key, and of which region?',
    'llmobs doctor --check-regions',
  );
}

export function registerApi(program: Command, ctx: Context): void {
  const api = program
    .command('api')
    .description('send a request to any API endpoint with the profile\'s credentials, retries and error handling')
    .argument('<method-or-path>', 'endpoint path, e.g. /api/public/models or just models; or an HTTP method followed by the path')
    .argument('[path]', 'endpoint path, when a method comes first')
    .addOption(
      new Option('-X, --method <method>', 'the HTTP method, instead of the first argument')
        .choices(HTTP_METHODS)
        // In any case, as the first argument: the choices stay for help and completion.
        .argParser((value) => {
          if (!HTTP_METHODS.includes(value.toUpperCase())) throw new InvalidArgumentError(`Allowed choices are ${HTTP_METHODS.join(', ')}.`);
          return value.toUpperCase();
        }),
    )
    .option('-f, --field <key=value>', 'string parameter: query parameter for GET/HEAD/DELETE, JSON body field otherwise (repeatable)', collect)
    .option('-F, --typed-field <key=value>', 'like --field, but true/false/null/numbers/JSON are typed and @file reads a file (repeatable)', collect)
    .option('-H, --header <name:value>', 'add a request header (repeatable); values of credential headers are never printed', collect)
    .option('--input <file>', 'request body from a JSON file, or - for stdin (fields then go to the query string)')
    .option('--paginate', 'follow every page (meta.page/totalPages, or meta.cursor on cursor-paged routes) and print one array of every page\'s data')
    .option('-i, --include', 'print the response status line and headers before the body')
    .option('--silent', 'do not print the response body')
    .option('--curl', 'print the request as a curl command (credentials as environment variables) and send nothing')
    .addHelpText('after', helpText(`
With one argument it is the path and the method is GET, or POST when -f, -F or --input are given.
A prompt name with a "/" is one path segment: write it as %2F (team%2Fsummary).`))
    .action(lazy(ctx, () => import('./api.js')));
  examples(
    api,
    'llmobs api /api/public/models',
    "llmobs api models -X GET -f limit=5 --jq '.data[].modelName'",
    "llmobs api PATCH '/api/public/v2/prompts/team%2Fsummary/versions/3' -F 'newLabels=[\"production\"]'",
    'llmobs api POST models --input model.json',
    'llmobs api /api/public/v2/prompts --paginate --include',
    "llmobs api v2/observations -f traceId=abc123 --paginate --jq 'length'",
    '# The same request as a curl command (nothing is sent)',
    'llmobs api v2/prompts -X GET -f name=team/summary --curl',
  );
}

export function registerCompletion(program: Command, ctx: Context): void {
  examples(
    program
      .command('completion')
      .description('print a shell completion script')
      .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
      .action(lazy(ctx, () => import('./completion.js'))),
    'llmobs completion bash > ~/.local/share/bash-completion/completions/llmobs',
    'llmobs completion zsh > ~/.zfunc/_llmobs',
    'llmobs completion fish > ~/.config/fish/completions/llmobs.fish',
  );
}

export function registerServer(program: Command, ctx: Context): void {
  const server = program
    .command('server')
    .description('run a local Langfuse-compatible API server (for trying llmobs, tests and CI rehearsals); with --profile NAME it also saves a profile for it and makes it active')
    .addOption(new Option('--port <port>', 'port to listen on (0 picks a free port)').default('3000'))
    .addOption(new Option('--host <host>', 'address to listen on').default('127.0.0.1'))
    .option('--data-dir <dir>', 'where data and keys are kept (default: $XDG_DATA_HOME/llmobs/server)')
    .option('--ephemeral', 'keep everything in memory and forget it on exit')
    .option('--bearer-secret-key', 'also accept "Authorization: Bearer <secret key>" (the service specification\'s scheme; Langfuse answers 401)')
    .action(lazy(ctx, () => import('./server.js')));
  examples(
    server,
    'llmobs server',
    '# Save a profile "local" for it and make it the active one',
    'llmobs server --profile local',
    'llmobs server --port 0 --ephemeral --json',
    'llmobs server --data-dir ./lf-data --host 0.0.0.0 --port 3100',
  );
}

export function registerHelp(program: Command, ctx: Context): void {
  examples(
    program
      .command('help')
      .description('show the help of a command, at any depth')
      .argument('[command...]', 'the command, e.g. prompts create')
      .action(lazy(ctx, () => import('./help.js'))),
    'llmobs help prompts create',
    'llmobs help labels promote',
  );
}

export function registerVersion(program: Command, ctx: Context): void {
  examples(
    program
      .command('version')
      .description('print the version of llmobs and of Node.js')
      .action(lazy(ctx, () => import('./version.js'))),
    'llmobs version',
    'llmobs version --json',
  );
}
