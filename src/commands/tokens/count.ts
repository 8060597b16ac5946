// llmobs tokens count: count the tokens of a text with an encoding, or with the tokenizer of the
// definition a model name matches.
import type { TokenizerChoice } from './model-encoding.js';
import { UsageError } from '../../errors.js';
import { ENCODING_NAMES, type EncodingName } from '../../tokenizer/encodings.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'count',
  summary: 'count the tokens of a text (special tokens such as <|endoftext|> count as one, as on the server)',
  args: [
    { name: '[text]', help: 'the text; or use --file, or pipe it on stdin' },
  ],
  flags: [
    { flags: '--file <file>', help: 'read the text from a file (- for stdin); large files are streamed' },
    { flags: '--model <name>', help: 'use the tokenizer of the model definition this name matches (the project\'s definitions when a profile or keys are configured, else the built-in catalogue)' },
    { flags: '--encoding <encoding>', help: 'tokenizer encoding (default: o200k_base)', choices: ENCODING_NAMES },
    { flags: '--offline', help: 'with --model: use the built-in catalogue, never the network' },
    { flags: '--remote', help: 'with --model: use the project\'s definitions from the configured server (cached 10 minutes)' },
    { flags: '--models-file <file>', help: 'with --model: custom model definitions (JSON or YAML) added on top, taking precedence' },
  ],
  examples: [
    'llmobs tokens count \'Hello, world\'',
    'llmobs tokens count --file prompt.txt --model claude-sonnet-4-5',
    'cat transcript.txt | llmobs tokens count --encoding cl100k_base --json',
  ],
  async run(ctx, { args, opts }) {
    const text = args[0] as string | undefined;
    const file = opts.file as string | undefined;
    const model = opts.model as string | undefined;
    if (text !== undefined && file !== undefined) throw new UsageError('give the text as an argument or with --file, not both');
    if (model !== undefined && opts.encoding !== undefined) throw new UsageError('use --model or --encoding, not both');
    for (const flag of ['modelsFile', 'offline', 'remote'] as const) {
      if (opts[flag] !== undefined && model === undefined) throw new UsageError(`--${flag === 'modelsFile' ? 'models-file' : flag} is only used with --model`);
    }
    if (text === undefined && file === undefined && ctx.io.stdin.isTTY) {
      throw new UsageError('no text to count', { hint: 'Pass it as an argument, with --file FILE, or on stdin: llmobs tokens count < notes.txt' });
    }

    // The definitions load only for --model, the file reading only for a text not given inline.
    const [{ loadTokenizer }, byModel, streaming] = await Promise.all([
      import('../../tokenizer/load.js'),
      model !== undefined ? import('./model-encoding.js') : undefined,
      text === undefined ? import('./stream.js') : undefined,
    ]);
    const choice = model !== undefined && byModel ? await byModel.encodingForModel(ctx, model, opts) : encodingFor(opts.encoding as EncodingName | undefined);
    const tokenizer = loadTokenizer(choice.encoding);
    const tokens = text !== undefined ? tokenizer.count(text) : await streaming!.countStream(ctx, file ?? '-', tokenizer.counter());

    if (ctx.globals.json) {
      ctx.out.printJson({
        tokens,
        tokenizer: choice.tokenizer,
        encoding: choice.encoding,
        ...(choice.model !== undefined ? { model: choice.model, definition: choice.definition, definitions: choice.definitions } : {}),
      });
    } else {
      ctx.out.line(String(tokens));
      if (byModel) ctx.out.hint(byModel.choiceNote(choice));
    }
  },
});

function encodingFor(encoding: EncodingName | undefined): TokenizerChoice {
  const chosen = encoding ?? 'o200k_base';
  if (!ENCODING_NAMES.includes(chosen)) throw new UsageError(`unknown encoding "${chosen}"`);
  return { encoding: chosen, tokenizer: chosen === 'claude' ? 'claude' : 'openai' };
}
