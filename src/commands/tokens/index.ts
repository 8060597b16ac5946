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
    .option('--model <name>', 'use the tokenizer of the model definition this name matches (built-in catalogue, or --models-file)')
    .addOption(new Option('--encoding <encoding>', 'tokenizer encoding (default: o200k_base)').choices(ENCODINGS))
    .option('--models-file <file>', 'custom model definitions (JSON or YAML) that take precedence with --model')
    .action(lazy(ctx, () => import('./count.js')));
  examples(
    count,
    "llmobs tokens count 'Hello, world'",
    'llmobs tokens count --file prompt.txt --model claude-sonnet-4-5',
    'cat transcript.txt | llmobs tokens count --encoding cl100k_base --json',
  );
}
