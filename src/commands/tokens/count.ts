import type { Context } from '../../context.js';
import type { DefinitionsOrigin } from '../../model-definitions/index.js';
import type { EncodingName as Encoding } from '../../tokenizer/index.js';
import { FileError, UsageError } from '../../errors.js';
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
    { flags: '--encoding <encoding>', help: 'tokenizer encoding (default: o200k_base)', choices: ['o200k_base', 'cl100k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2', 'claude'] },
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
    const { ENCODING_NAMES: ENCODINGS } = await import('../../tokenizer/encodings.js');
    interface Choice {
      encoding: Encoding;
      tokenizer: 'openai' | 'claude';
      model?: string;
      definition?: string;
      definitions?: DefinitionsOrigin;
    }

    function encodingFor(encoding: Encoding | undefined): Choice {
      const chosen = encoding ?? 'o200k_base';
      if (!(ENCODINGS as readonly string[]).includes(chosen)) throw new UsageError(`unknown encoding "${chosen}"`);
      return { encoding: chosen, tokenizer: chosen === 'claude' ? 'claude' : 'openai' };
    }

    async function encodingForModel(ctx: Context, model: string, opts: Record<string, unknown>): Promise<Choice> {
      const { assertUsable, definitionsMode, loadDefinitions, REMOTE_CACHE_TTL_MS } = await import('../../model-definitions/index.js');
      const [{ findModel }, { preparePatterns }, { resolveTokenizer }] = await Promise.all([import('../../core/models/match.js'), import('../../core/models/engine.js'), import('../../tokenizer/count-rules.js')]);
      const loaded = await loadDefinitions(ctx, { mode: definitionsMode(opts), modelsFile: opts.modelsFile as string | undefined, maxAgeMs: REMOTE_CACHE_TTL_MS, model });
      await preparePatterns(loaded.definitions, model);
      const winner = findModel(model, loaded.definitions).winner;
      if (!winner) {
        throw new UsageError(`no model definition matches "${model}"`, { hint: `Pass --encoding, or add a definition with --models-file. See: llmobs models match ${model}` });
      }
      assertUsable(loaded, winner.definition, model);
      const resolution = resolveTokenizer(winner.definition);
      if (!resolution.ok) {
        throw new UsageError(`"${model}" matches "${winner.definition.modelName}", which has no usable tokenizer: ${resolution.message}`, {
          hint: 'The server does not count tokens for it; pass --encoding to count anyway.',
        });
      }
      return { encoding: resolution.tokenizer.encoding, tokenizer: resolution.tokenizer.id, model, definition: winner.definition.modelName, definitions: loaded.origin };
    }

    /**
     * Text with no place to cut it (no word boundary: /dev/zero, a run of one symbol) is held until
     * one comes, and counted as one piece; past this many characters it is refused. Counting 8 M such
     * characters took some 600 MB and 15 s, and /dev/zero never ended.
     */
    const MAX_UNCUT_CHARS = 4 * 1024 * 1024;

    /** Streams a file or stdin through the counter: memory stays flat whatever the size. */
    async function countStream(ctx: Context, file: string, counter: { write(chunk: string): void; end(): number; readonly pending: number }): Promise<number> {
      // Loaded here: a count of a text given as an argument reads no file.
      const { cannotRead, openInputStream } = await import('../../io/files.js');
      const { stream } = await openInputStream(ctx, file, 1 << 20);
      // A streaming decoder keeps multi-byte characters split across chunks intact, and the BOM.
      stream.setEncoding('utf8');
      try {
        for await (const chunk of stream) {
          counter.write(chunk as string);
          if (counter.pending > MAX_UNCUT_CHARS) {
            (stream as { destroy?: () => void }).destroy?.();
            throw new FileError(`it has more than ${MAX_UNCUT_CHARS / 1024 / 1024} M characters without a word boundary, the most llmobs counts as one piece`, {
              hint: 'Check that it is text (not a binary file or a device such as /dev/zero).',
            });
          }
        }
      } catch (error) {
        throw cannotRead(file, error);
      }
      return counter.end();
    }

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

    const choice = model !== undefined ? await encodingForModel(ctx, model, opts) : encodingFor(opts.encoding as Encoding | undefined);
    const { loadTokenizer } = await import('../../tokenizer/load.js');
    const tokenizer = loadTokenizer(choice.encoding);
    const tokens = text !== undefined ? tokenizer.count(text) : await countStream(ctx, file ?? '-', tokenizer.counter());

    if (ctx.globals.json) {
      ctx.out.printJson({
        tokens,
        tokenizer: choice.tokenizer,
        encoding: choice.encoding,
        ...(choice.model !== undefined ? { model: choice.model, definition: choice.definition, definitions: choice.definitions } : {}),
      });
    } else {
      ctx.out.line(String(tokens));
      if (choice.definitions) {
        const { describeOrigin } = await import('../../model-definitions/index.js');
        ctx.out.hint(`${choice.encoding}, the tokenizer of "${choice.definition}" in ${describeOrigin(choice.definitions)}`);
      }
    }
  },
});
