import { type Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { examples } from '../examples.js';
import { collect } from '../options.js';
import { observationFilters } from '../observations/index.js';

const TIME = 'ISO time with Z or offset, a date (midnight UTC), 30m/24h/7d/2w ago, or now';
const TYPES = ['GENERATION', 'SPAN', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL'];

export function registerCost(program: Command, ctx: Context): void {
  const cost = program.command('cost').description('what the project spent (from the Metrics API), and what past generations cost under other prices');
  examples(cost, 'llmobs cost report --month last --by model', 'llmobs cost recompute --input may.jsonl --models-file new-prices.yaml');

  const report = cost
    .command('report')
    .description('cost, tokens and count per model, day, user, prompt ... for a time range (default: this month so far); --budget USD exits 9 when the total is over it')
    .option('--from <time>', `start of the range, inclusive (${TIME}; default: the 1st of this month, UTC)`)
    .option('--to <time>', 'end of the range, exclusive (default: now)')
    .option('--month <month>', 'a calendar month (UTC): YYYY-MM, this or last')
    .option('--by <grouping>', 'group by model, user, prompt, environment, name, type, trace, release, level, and/or hour, day, week, month (repeatable or comma-separated; default: model)', collect)
    .addOption(new Option('--type <type>', 'count only these observation types (repeatable; default: all but SPAN and EVENT)').choices(TYPES).argParser(collect))
    .option('--environment <env>', 'only these environments (repeatable)', collect)
    .option('--budget <usd>', 'exit 9 when the total cost is over this amount in USD, saying by how much')
    .option('--no-cache', 'ask the server even when the same report was answered within the last 5 minutes')
    .action(lazy(ctx, () => import('./report.js')));
  examples(
    report,
    'llmobs cost report',
    'llmobs cost report --month last --by model',
    'llmobs cost report --from 7d --by day',
    'llmobs cost report --month 2026-05 --by model --by day --csv > may.csv',
    '# a CI spend gate: exit 9 when last month cost more than $500',
    'llmobs cost report --month last --budget 500',
  );

  const recompute = observationFilters(
    cost
      .command('recompute')
      .description('re-price past generations with model definitions (the project\'s, or the built-in catalogue with --offline; plus --models-file) and compare with the stored cost, per model')
      .option('--input <file>', 'read generations from a file written by observations export (JSON Lines or JSON; - for stdin), offline'),
    { type: true },
  )
    .option('--month <month>', 'with the API: a calendar month (UTC), YYYY-MM, this or last (default: this month so far)')
    .option('--limit <n>', 'with the API: re-price at most this many generations')
    .option('--models-file <file>', 'custom model definitions (JSON or YAML) added to the others, as if created in the project')
    .option('--offline', 'price with the built-in catalogue (and --models-file), never the server\'s definitions')
    .option('--remote', "price with the project's definitions on the server (every page; cached 10 minutes); the default when a profile or keys are configured")
    .option('--ignore-start-dates', 'match as the server does at ingestion: a definition\'s start date is not compared with the generation\'s time')
    .option('--output <file>', 'write one JSON line per generation: id, traceId, startTime, model, definition, storedCost, recomputedCost, difference')
    .action(lazy(ctx, () => import('./recompute.js')));
  examples(
    recompute,
    'llmobs cost recompute --input may.jsonl --models-file new-prices.yaml',
    'llmobs cost recompute --month last --remote --json',
    'llmobs cost recompute --input may.jsonl --output repriced.jsonl',
  );
}
