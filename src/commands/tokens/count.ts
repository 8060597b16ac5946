// Counts tokens offline. Kept light on purpose (no zod, no HTTP stack): it is often run in loops.
import type { Context } from '../../context.js';
import type { Encoding } from '../../core/tokenizer-models.js';
import { UsageError } from '../../errors.js';
import { cannotRead, openInputStream } from '../../io/files.js';
// Static: every run needs it, and as a static import it is read alongside this module instead of
// after it (the rank table itself is read only when a tokenizer is asked for).
import { loadTokenizer } from '../../tokenizer/load.js';
import type { ActionInput } from '../action.js';
import { ENCODINGS } from './index.js';

interface Choice {
  encoding: Encoding;
  tokenizer: 'openai' | 'claude';
  model?: string;
  definition?: string;
}

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  const text = args[0] as string | undefined;
  const file = opts.file as string | undefined;
  const model = opts.model as string | undefined;
  if (text !== undefined && file !== undefined) throw new UsageError('give the text as an argument or with --file, not both');
  if (model !== undefined && opts.encoding !== undefined) throw new UsageError('use --model or --encoding, not both');
  if (opts.modelsFile !== undefined && model === undefined) throw new UsageError('--models-file is only used with --model');
  if (text === undefined && file === undefined && ctx.io.stdin.isTTY) {
    throw new UsageError('no text to count', { hint: 'Pass it as an argument, with --file FILE, or on stdin: llmobs tokens count < notes.txt' });
  }

  const choice = model !== undefined ? await encodingForModel(ctx, model, opts.modelsFile as string | undefined) : encodingFor(opts.encoding as Encoding | undefined);
  const tokenizer = loadTokenizer(choice.encoding);
  const tokens = text !== undefined ? tokenizer.count(text) : await countStream(ctx, file ?? '-', tokenizer.counter());

  if (ctx.globals.json) {
    ctx.out.printJson({ tokens, tokenizer: choice.tokenizer, encoding: choice.encoding, ...(choice.model !== undefined ? { model: choice.model, definition: choice.definition } : {}) });
  } else {
    ctx.out.line(String(tokens));
  }
}

function encodingFor(encoding: Encoding | undefined): Choice {
  const chosen = encoding ?? 'o200k_base';
  if (!(ENCODINGS as readonly string[]).includes(chosen)) throw new UsageError(`unknown encoding "${chosen}"`);
  return { encoding: chosen, tokenizer: chosen === 'claude' ? 'claude' : 'openai' };
}

async function encodingForModel(ctx: Context, model: string, modelsFile: string | undefined): Promise<Choice> {
  const { loadDefinitions } = await import('../estimate/definitions.js');
  const [{ findModel }, { resolveTokenizer }] = await Promise.all([import('../../core/models/match.js'), import('../../core/tokenize.js')]);
  const { definitions } = await loadDefinitions(ctx, { modelsFile });
  const winner = findModel(model, definitions).winner;
  if (!winner) {
    throw new UsageError(`no model definition matches "${model}"`, { hint: 'Pass --encoding, or add a definition with --models-file. See: llmobs models match ' + model + ' --offline' });
  }
  const resolution = resolveTokenizer(winner.definition);
  if (!resolution.ok) {
    throw new UsageError(`"${model}" matches "${winner.definition.modelName}", which has no usable tokenizer: ${resolution.message}`, {
      hint: 'The server does not count tokens for it; pass --encoding to count anyway.',
    });
  }
  return { encoding: resolution.tokenizer.encoding, tokenizer: resolution.tokenizer.id, model, definition: winner.definition.modelName };
}

/** Streams a file or stdin through the counter: memory stays flat whatever the size. */
async function countStream(ctx: Context, file: string, counter: { write(chunk: string): void; end(): number }): Promise<number> {
  const { stream } = await openInputStream(ctx, file, 1 << 20);
  // A streaming decoder keeps multi-byte characters split across chunks intact, and the BOM.
  stream.setEncoding('utf8');
  try {
    for await (const chunk of stream) counter.write(chunk as string);
  } catch (error) {
    throw cannotRead(file, error);
  }
  return counter.end();
}
