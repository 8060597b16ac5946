import { type Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { examples } from '../examples.js';

export function registerEstimate(program: Command, ctx: Context): void {
  const estimate = program
    .command('estimate')
    .description('estimate usage and cost of a generation with the rules the server applies at ingestion, locally (no request unless the project\'s definitions are used)')
    .option('--model <name>', 'the model name the generation carries (matched against the definitions)')
    .option('--input <text>', 'the generation input: plain text, or JSON such as a chat message array')
    .option('--input-file <file>', 'read the input from a file')
    .option('--output <text>', 'the generation output: plain text or JSON')
    .option('--output-file <file>', 'read the output from a file')
    .option('--usage <json>', 'usage as the client would send it (usageDetails: a map, or OpenAI usage); it wins over tokenizing')
    .option('--usage-file <file>', 'read the usage from a JSON or YAML file')
    .option('--cost <json>', 'costs as the client would send them (costDetails); they win over prices')
    .option('--model-parameters <json>', 'model parameters (pricing tiers can depend on them, e.g. service_tier)')
    .option('--metadata <json>', 'metadata (pricing tiers can depend on it)')
    .addOption(new Option('--level <level>', 'observation level; the server does not tokenize ERROR generations').choices(['DEBUG', 'DEFAULT', 'WARNING', 'ERROR']))
    .option('--explain', 'say which definition matched and why, which pricing tier, and price × units per usage type')
    .option('--offline', 'use the built-in catalogue, never the network (default: the project\'s definitions when a profile or keys are configured, else the catalogue)')
    .option('--remote', 'use the project\'s definitions from the configured server (all pages, cached 10 minutes); fail if none is configured')
    .option('--models-file <file>', 'custom model definitions (JSON or YAML, API or spec shape) added on top, taking precedence as the project\'s own do')
    .option('--batch <file>', 'estimate one generation per line of a JSONL file (- for stdin); one result line per input line')
    .action(lazy(ctx, () => import('./action.js')));
  examples(
    estimate,
    "llmobs estimate --model gpt-4o --input 'What is the capital of France?' --output 'Paris.'",
    'llmobs estimate --model claude-sonnet-4-5 --usage \'{"input": 1200, "output": 350}\' --explain',
    'llmobs estimate --model my-model --input-file request.json --output-file response.txt --models-file models.yaml --json',
    'llmobs estimate --batch generations.jsonl > estimates.jsonl',
  );
}
