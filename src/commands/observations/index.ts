import { type Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { examples } from '../examples.js';
import { collect } from '../options.js';
import { addPagingFlags } from '../paging-flags.js';

// Kept here rather than imported, so that registering commands loads nothing heavy.
const TYPES = ['GENERATION', 'SPAN', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL'];
const TIME = 'ISO time with Z or offset, a date (midnight UTC), 30m/24h/7d/2w ago, or now';

/** The v2 observations API's filters, for every command that reads observations. */
export function observationFilters(command: Command, options: { type?: boolean } = {}): Command {
  if (options.type !== false) command.addOption(new Option('--type <type>', 'only this observation type').choices(TYPES));
  return command
    .option('--name <name>', 'only observations with this name')
    .option('--trace <id>', 'only the observations of this trace')
    .option('--user <id>', 'only observations of this user')
    .option('--session <id>', 'only observations of this session')
    .option('--environment <env>', 'only this environment (repeatable)', collect)
    .addOption(new Option('--level <level>', 'only this level').choices(['DEBUG', 'DEFAULT', 'WARNING', 'ERROR']))
    .option('--version <version>', 'only observations with this version')
    .option('--from <time>', `start time on or after this (${TIME})`)
    .option('--to <time>', `start time before this (same forms)`);
}

const FIELDS_HELP = 'field groups (core, basic, time, io, metadata, model, usage, prompt, metrics, trace_context), fields (providedModelName, totalCost) or paths (usageDetails.input); names pick the columns, in order (comma-separated, repeatable)';

export function registerObservations(program: Command, ctx: Context): void {
  const observations = program
    .command('observations')
    .description('observations (spans, generations, events ...) through the v2 API: list them, or export them to a file that survives interruption');

  examples(observations, 'llmobs observations list --type GENERATION --level ERROR', 'llmobs observations export --from 2026-05-01 --to 2026-06-01 --output may.jsonl');

  const list = observationFilters(
    observations
      .command('list')
      .alias('ls')
      .description('list observations, newest first: a table, or --format jsonl|csv|json'),
  );
  addPagingFlags(list, { noun: 'observations', serverDefault: 50, pages: false })
    .option('--fields <list>', `${FIELDS_HELP} (default: basic,model,usage)`, collect)
    .addOption(new Option('--format <format>', 'write data instead of a table').choices(['jsonl', 'csv', 'json']))
    .option('--output <file>', 'write to this file (format from --format or the extension, else jsonl)')
    .action(lazy(ctx, () => import('./list.js')));
  examples(list, 'llmobs observations list', 'llmobs observations ls --type GENERATION --level ERROR --limit 20', 'llmobs observations list --trace 7f3c9a2e --fields id,type,name,totalCost --format csv');

  const exporter = observationFilters(
    observations
      .command('export')
      .description('export every matching observation, page by page with flat memory; after a failure or Ctrl-C, --resume continues where it stopped'),
  )
    .option('--output <file>', 'write to this file, with a checkpoint beside it while it runs (default: stdout, no checkpoint)')
    .addOption(new Option('--format <format>', 'jsonl (default), csv, or json (an array, one element per line); the extension of --output decides when not given').choices(['jsonl', 'csv', 'json']))
    .option('--fields <list>', `${FIELDS_HELP} (default: every group)`, collect)
    .option('--limit <n>', 'export at most this many')
    .option('--page-size <n>', 'observations per request, 1 to 1000 (default 1000)')
    .option('--expand-metadata <keys>', 'metadata keys whose values are exported whole (the server cuts values over 200 characters)')
    .option('--resume', 'continue the interrupted export of --output from its checkpoint')
    .option('--force', 'start over, replacing --output and its checkpoint')
    .action(lazy(ctx, () => import('./export.js')));
  examples(
    exporter,
    'llmobs observations export --from 2026-05-01 --to 2026-06-01 --output may.jsonl',
    '# after a failure or Ctrl-C: continue where it stopped',
    'llmobs observations export --output may.jsonl --resume',
    'llmobs observations export --type GENERATION --fields id,providedModelName,usageDetails.input,totalCost --output generations.csv',
  );
}
