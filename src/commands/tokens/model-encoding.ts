// Which tokenizer `tokens count --model` uses: the one of the definition the model name matches,
// in the definitions every command that matches names uses (see src/model-definitions/).
import type { Context } from '../../context.js';
import { didYouMean } from '../../core/did-you-mean.js';
import { findModel } from '../../core/models/match.js';
import { preparePatterns } from '../../core/models/engine.js';
import { assertUsable, definitionsMode, type DefinitionsOrigin, describeOrigin, loadDefinitions, REMOTE_CACHE_TTL_MS, suggestModelNames } from '../../model-definitions/index.js';
import { resolveTokenizer } from '../../tokenizer/count-rules.js';
import type { EncodingName } from '../../tokenizer/encodings.js';
import { UsageError } from '../../errors.js';

/** The tokenizer a count uses, and for a model name the definition it came from. */
export interface TokenizerChoice {
  encoding: EncodingName;
  tokenizer: 'openai' | 'claude';
  model?: string;
  definition?: string;
  definitions?: DefinitionsOrigin;
}

export async function encodingForModel(ctx: Context, model: string, opts: Record<string, unknown>): Promise<TokenizerChoice> {
  const loaded = await loadDefinitions(ctx, { mode: definitionsMode(opts), modelsFile: opts.modelsFile as string | undefined, maxAgeMs: REMOTE_CACHE_TTL_MS, model });
  await preparePatterns(loaded.definitions, model);
  const winner = findModel(model, loaded.definitions).winner;
  if (!winner) {
    const hint = didYouMean(suggestModelNames(loaded, model));
    throw new UsageError(`no model definition matches "${model}"${hint ? `; ${hint}` : ''}`, { hint: `Pass --encoding, or add a definition with --models-file. See: llmobs models match ${model}` });
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

/** Which tokenizer counted, and from which definitions, for the hint under the count. */
export function choiceNote(choice: TokenizerChoice): string {
  return `${choice.encoding}, the tokenizer of "${choice.definition}"${choice.definitions ? ` in ${describeOrigin(choice.definitions)}` : ''}`;
}
