import { type Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { verb } from '../register.js';
import { collect } from '../options.js';
import { addPagingFlags } from '../paging-flags.js';
import { examples, helpText } from '../examples.js';

// Kept here rather than imported from src/core so that registering commands loads nothing heavy.
const UNITS = ['TOKENS', 'CHARACTERS', 'MILLISECONDS', 'SECONDS', 'REQUESTS', 'IMAGES'];

function definitionOptions(command: Command, verb: 'create' | 'update'): Command {
  const update = verb === 'update';
  return command
    .option('--name <name>', update ? 'new model name' : 'model name (unique among the project\'s definitions; the same name as a built-in one overrides it)')
    .option('--match-pattern <regex>', update ? 'new match pattern (Postgres regex)' : 'Postgres regex matched against the generation\'s model name (default: (?i)^<name>$, the name in any case)')
    .addOption(new Option('--tokenizer <tokenizer>', 'tokenizer for generations sent without usage (none: no tokenizer)').choices(['openai', 'claude', 'none']))
    .option('--tokenizer-model <model>', 'tiktoken model of the openai tokenizer, e.g. gpt-4o')
    .option('--tokens-per-message <n>', 'tokens added per chat message (openai chat models, usually 3)')
    .option('--tokens-per-name <n>', 'tokens added per message name (openai chat models, usually 1)')
    .option('--tokenization-config <json>', 'the whole tokenizer config as JSON: tokenizerModel, tokensPerMessage, tokensPerName')
    .option('--price <usage-type=usd>', 'price of a usage type in USD per unit, or per million with /1M: --price input=2.5/1M (repeatable; any usage type, e.g. input, output, input_cached_tokens)', collect)
    .addOption(new Option('--unit <unit>', update ? 'new unit' : 'unit of the usage counts (default: TOKENS)').choices(UNITS))
    .option('--start-date <date>', update ? 'new start date (ISO date or date-time; none removes it)' : 'ISO date or date-time; among matching definitions the latest start date wins')
    .option('--file <file>', update
      ? 'the new definition from a JSON or YAML file (- for stdin); fields it leaves out are kept, flags override it'
      : 'the definition from a JSON or YAML file (- for stdin), in the API shape or the spec\'s (name, match_pattern, tokenizer, tokenization_config, pricing); flags override it')
    .option('--strict', 'refuse to send when the checks warn (not only when they find errors)')
    .option('--dry-run', 'check and print the request body without sending it');
}

export function registerModels(program: Command, ctx: Context): void {
  const models = program
    .command('models')
    .description('model definitions: list, inspect, create, update and delete them, or keep them in a file (pull, status, push); see what a model name matches and what it costs');
  examples(models, 'llmobs models list --custom', 'llmobs models match gpt-4o-2024-08-06', 'llmobs models create --name my-model --price input=2.5/1M --price output=10/1M');

  verb(models, 'list', () => {
    const list = models
      .command('list')
      .alias('ls')
      .description('list model definitions, the project\'s own (custom) and the built-in ones, with prices per 1M tokens');
    addPagingFlags(list, { noun: 'definitions', serverDefault: 50 })
      .option('--custom', 'only the project\'s own definitions (the server cannot filter: pages are read until --limit is reached, or all)')
      .option('--managed', 'only the built-in, Langfuse-managed definitions (read like --custom)')
      .addHelpText('after', helpText(`
  --json prints {"data": [...], "meta": {page, limit, totalItems, totalPages}}, the same shape with
  --limit and --all (meta is the server's, of the first page read; totalItems counts before --custom
  or --managed).`))
      .action(lazy(ctx, () => import('./list.js')));
    examples(list, 'llmobs models list', 'llmobs models ls --custom', 'llmobs models list --all --json', 'llmobs models list --limit 200 --csv > models.csv');
  });

  verb(models, 'get', () => {
    const get = models
      .command('get')
      .description('show one definition in full, with every pricing tier')
      .argument('<id-or-name>', 'definition id, or model name')
      .action(lazy(ctx, () => import('./get.js')));
    examples(get, 'llmobs models get gpt-4o', 'llmobs models get b9854a5c92dc496b997d99d20 --json');
  });

  verb(models, 'create', () => {
    const create = definitionOptions(
      models.command('create').description('create a model definition from flags or a file; checked before sending (exit 2 and nothing sent when the server would reject or misread it)'),
      'create',
    ).action(lazy(ctx, () => import('./create.js')));
    examples(
      create,
      'llmobs models create --name my-model --price input=2.5/1M --price output=10/1M --tokenizer openai --tokenizer-model gpt-4o --tokens-per-message 3 --tokens-per-name 1',
      "llmobs models create --name ft:gpt-4o:acme --match-pattern '(?i)^ft:gpt-4o:acme(:.+)?$' --price input=3.75/1M --price output=15/1M",
      'llmobs models create --file model.yaml --dry-run',
    );
  });

  verb(models, 'update', () => {
    const update = definitionOptions(
      models
        .command('update')
        .description('change a custom definition: in place where the server supports it (Langfuse 4.35+), else by deleting and re-creating it with --recreate')
        .argument('<id-or-name>', 'definition id, or model name'),
      'update',
    )
      .option('--remove-price <usage-type>', 'stop pricing a usage type (repeatable)', collect)
      .option('--recreate', 'on servers without update (before Langfuse 4.35): delete the definition and create it again, which gives it a new id')
      .action(lazy(ctx, () => import('./update.js')));
    examples(update, 'llmobs models update my-model --price output=12/1M', 'llmobs models update my-model --remove-price input_cached_tokens --dry-run', 'llmobs models update my-model --file model.yaml --recreate');
  });

  verb(models, 'delete', () => {
    const remove = models
      .command('delete')
      .alias('rm')
      .description('delete a custom definition (built-in ones cannot be deleted: override them instead)')
      .argument('<id-or-name>', 'definition id, or model name')
      .option('-y, --yes', 'do not ask for confirmation (required without a terminal)')
      .action(lazy(ctx, () => import('./delete.js')));
    examples(remove, 'llmobs models delete my-model', 'llmobs models rm old-model --yes');
  });

  verb(models, 'pull', () => {
    const pull = models
      .command('pull')
      .description('write the project\'s own definitions (all pages) to a file, JSON or YAML by its extension')
      .option('--file <file>', 'definitions file', 'models.yaml')
      .option('--force', 'overwrite a file that differs from the server')
      .action(lazy(ctx, () => import('./pull.js')));
    examples(pull, 'llmobs models pull', 'llmobs models pull --file models.json --force');
  });

  verb(models, 'status', () => {
    const status = models
      .command('status')
      .description('compare a definitions file with the project\'s own definitions: unchanged, changed (with a diff), new, only on the server')
      .option('--file <file>', 'definitions file', 'models.yaml')
      .option('--prune', 'count definitions only on the server as changes (what push --prune deletes)')
      .option('--exit-code', 'exit 9 when something would be pushed (0 when in sync), for CI checks')
      .action(lazy(ctx, () => import('./status.js')));
    examples(status, 'llmobs models status', '# In CI: fail when the project differs from the file', 'llmobs models status --file models.yaml --exit-code');
  });

  verb(models, 'push', () => {
    const push = models
      .command('push')
      .description('make the project\'s own definitions match a file: create new ones, replace changed ones in place (Langfuse 4.35+), leave equal ones alone')
      .option('--file <file>', 'definitions file', 'models.yaml')
      .option('--prune', 'also delete the project\'s definitions the file does not have')
      .option('--recreate', 'on servers without PUT (before Langfuse 4.35): replace by delete + create, which is not atomic and gives new ids')
      .option('--dry-run', 'print the plan and send nothing')
      .addHelpText('after', helpText(`
  A definition matches the server's by id when the file gives one, else by modelName. Every
  definition is checked as models create checks one before anything is sent (exit 2 on errors).`))
      .action(lazy(ctx, () => import('./push.js')));
    examples(push, 'llmobs models push --dry-run', 'llmobs models push --file models.yaml --prune');
  });

  verb(models, 'match', () => {
    const match = models
      .command('match')
      .description('which definition a generation\'s model name matches, why, which others lose, and the tokenizer and prices that apply')
      .argument('<model-name>', 'the model name exactly as generations send it')
      .option('--offline', 'use the built-in catalogue, never the network (default: the project\'s definitions when a profile or keys are configured, else the catalogue)')
      .option('--remote', 'use the project\'s definitions from the configured server; fail if none is configured')
      .option('--models-file <file>', 'custom definitions from a JSON or YAML file (one, an array, or a saved list) added on top, as if created in the project')
      .option('--expect <id-or-name>', 'exit 9 unless this definition (id or model name) wins')
      .action(lazy(ctx, () => import('./match.js')));
    examples(
      match,
      'llmobs models match gpt-4o-2024-08-06',
      '# In CI: fail unless the name is priced by your own definition',
      'llmobs models match ft:gpt-4o:acme:run-7 --expect ft:gpt-4o:acme',
      'llmobs models match claude-sonnet-4-5 --offline --models-file models.yaml --json',
    );
  });

  verb(models, 'lint', () => {
    const lint = models
      .command('lint')
      .description('check every custom definition: patterns, tokenizer, prices, and definitions that never win because others hide them')
      .option('--offline', 'check the definitions in --models-file instead of the profile\'s')
      .option('--models-file <file>', 'with --offline: the definitions to check (JSON or YAML)')
      .option('--strict', 'exit 9 on warnings too (default: on errors only)')
      .action(lazy(ctx, () => import('./lint.js')));
    examples(lint, 'llmobs models lint', 'llmobs models lint --strict', 'llmobs models lint --offline --models-file models.yaml');
  });
}
