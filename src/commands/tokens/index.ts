import { type Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { lazy } from '../action.js';
import { examples } from '../examples.js';

export const ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2', 'claude'] as const;

export function registerTokens(program: Command, ctx: Context): void {
  const tokens = program.command('tokens').description('count tokens offline with the tokenizers the server uses');
  examples(tokens, "llmobs tokens count 'Hello, world'", 'llmobs tokens count --file prompt.txt --model gpt-4o');
  const count = tokens
    .command('count')
    .description('count the tokens of a text (special tokens such as <|endoftext|> count as one, as on the server)')
    .argument('[text]', 'the text; or use --file, or pipe it on stdin')
    .option('--file <file>', 'read the text from a file (- for stdin); large files are streamed')
    .option('--model <name>', 'use the tokenizer of the model definition this name matches (the project\'s definitions when a profile or keys are configured, else the built-in catalogue)')
    .addOption(new Option('--encoding <encoding>', 'tokenizer encoding (default: o200k_base)').choices(ENCODINGS))
    .option('--offline', 'with --model: use the built-in catalogue, never the network')
    .option('--remote', 'with --model: use the project\'s definitions from the configured server (cached 10 minutes)')
    .option('--models-file <file>', 'with --model: custom model definitions (JSON or YAML) added on top, taking precedence')
    .action(lazy(ctx, () => import('./count.js')));
  examples(
    count,
    "llmobs tokens count 'Hello, world'",
    'llmobs tokens count --file prompt.txt --model claude-sonnet-4-5',
    'cat transcript.txt | llmobs tokens count --encoding cl100k_base --json',
  );
}
