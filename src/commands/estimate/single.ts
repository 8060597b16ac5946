// `llmobs estimate` of one generation: read from the flags and the files they name, then priced
// with the definitions in use. What the input gets wrong is a usage error.
import type { Context } from '../../context.js';
import { estimate, type EstimateInput, type EstimateResult } from '../../core/estimate.js';
import { JsonTooDeepError } from '../../core/json-depth.js';
import { compiledPatternCount } from '../../core/models/engine.js';
import { withDecimal } from '../../core/precision.js';
import { ObservationRejectedError } from '../../core/usage.js';
import { UsageError } from '../../errors.js';
import { parseJson, parseJsonOrYaml, readTextInput, tooDeep } from '../../io/files.js';
import { type LoadedDefinitions, suggestModelNames } from '../../model-definitions/index.js';
import { engineCounter } from '../../tokenizer/index.js';
import { flagName as flag } from '../options.js';

/** The generation the flags describe; `opts.model` is checked to be a string before. */
export async function readGeneration(ctx: Context, opts: Record<string, unknown>): Promise<EstimateInput> {
  const text = async (inline: string, file: string) =>
    opts[inline] !== undefined ? (opts[inline] as string) : opts[file] !== undefined ? await readTextInput(ctx, opts[file] as string) : undefined;
  const json = (key: string) => (opts[key] === undefined ? undefined : parseJson(opts[key] as string, flag(key)));
  const input: EstimateInput = { model: opts.model as string };
  input.input = await text('input', 'inputFile');
  input.output = await text('output', 'outputFile');
  input.usageDetails = opts.usageFile !== undefined ? await parseJsonOrYaml(await readTextInput(ctx, opts.usageFile as string), opts.usageFile as string) : json('usage');
  input.costDetails = json('cost');
  input.modelParameters = json('modelParameters');
  input.metadata = json('metadata');
  if (opts.level !== undefined) input.level = opts.level as EstimateInput['level'];
  return input;
}

/** The estimate; a generation the server would reject, or JSON nested too deep, is a usage error. */
export async function estimateGeneration(ctx: Context, input: EstimateInput, loaded: LoadedDefinitions): Promise<EstimateResult> {
  try {
    // decimal.js loads only when the exact fast paths of core/precision.ts do not apply.
    const suggest = (model: string) => suggestModelNames(loaded, model);
    const result = await withDecimal(() => estimate(input, { definitions: loaded.definitions, count: engineCounter, suggest }));
    ctx.trace(`models: ${compiledPatternCount()} match patterns compiled for ${loaded.origin.total} definitions (a pattern whose literals are not in the name is not compiled)`);
    return result;
  } catch (error) {
    if (error instanceof ObservationRejectedError) throw new UsageError(error.message);
    if (error instanceof JsonTooDeepError) throw tooDeep(error.what);
    throw error;
  }
}
