// The command tree. Only commander is loaded here; each verb's module loads when it runs.
import { type Command, Option } from 'commander';
import type { Context } from '../context.js';
import { collect } from './options.js';
import { lazy } from './action.js';
import { registerEstimate } from './estimate/index.js';
import { registerLabels } from './labels/index.js';
import { registerModels } from './models/index.js';
import { registerProfile } from './profile/index.js';
import { registerPrompts } from './prompts/index.js';
import { registerTokens } from './tokens/index.js';
import { registerTraces } from './traces/index.js';
import { registerObservations } from './observations/index.js';
import { registerCost } from './cost/index.js';

export function registerCommands(program: Command, ctx: Context): void {
  registerProfile(program, ctx);
  registerModels(program, ctx);
  registerPrompts(program, ctx);
  registerLabels(program, ctx);
  registerTokens(program, ctx);
  registerEstimate(program, ctx);
  registerTraces(program, ctx);
  registerObservations(program, ctx);
  registerCost(program, ctx);

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
    .option('--bearer-secret-key', 'also accept "Authorization: Bearer <secret key>" (the service specification\'s scheme; Langfuse answers 401)')
    .action(lazy(ctx, () => import('./server.js')));
}
