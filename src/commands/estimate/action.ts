import type { Context } from '../../context.js';
// Straight from the modules, not the core/index.js barrel, which would bring zod schemas along.
import { estimate, type EstimateInput } from '../../core/estimate.js';
import { JsonTooDeepError } from '../../core/json-depth.js';
import { compiledPatternCount, preparePatterns } from '../../core/models/engine.js';
import { withDecimal } from '../../core/precision.js';
import { ObservationRejectedError } from '../../core/usage.js';
import { UsageError } from '../../errors.js';
import { parseJson, parseJsonOrYaml, readTextInput, tooDeep } from '../../io/files.js';
import { engineCounter } from '../../tokenizer/index.js';
import type { ActionInput } from '../action.js';
import { flagName as flag } from '../options.js';
import { assertUsable, definitionsMode, loadDefinitions, REMOTE_CACHE_TTL_MS } from '../../model-definitions/index.js';
import { printEstimate, resultJson } from './render.js';

export default async function action(ctx: Context, { opts }: ActionInput): Promise<void> {
  const mode = definitionsMode(opts);
  if (opts.batch !== undefined) {
    const single = ['model', 'input', 'inputFile', 'output', 'outputFile', 'usage', 'usageFile', 'cost', 'modelParameters', 'metadata', 'level', 'explain'].filter((key) => opts[key] !== undefined);
    if (single.length) throw new UsageError(`--batch reads everything from the file; drop ${single.map(flag).join(', ')}`);
    const { runBatch } = await import('./batch.js');
    await runBatch(ctx, { file: opts.batch as string, modelsFile: opts.modelsFile as string | undefined, mode });
    return;
  }
  if (typeof opts.model !== 'string') throw new UsageError('--model is required (or --batch FILE)');
  exclusive(opts, 'input', 'inputFile');
  exclusive(opts, 'output', 'outputFile');
  exclusive(opts, 'usage', 'usageFile');

  const input: EstimateInput = { model: opts.model };
  const text = async (inline: string, file: string) =>
    opts[inline] !== undefined ? (opts[inline] as string) : opts[file] !== undefined ? await readTextInput(ctx, opts[file] as string) : undefined;
  const json = (key: string) => (opts[key] === undefined ? undefined : parseJson(opts[key] as string, flag(key)));
  input.input = await text('input', 'inputFile');
  input.output = await text('output', 'outputFile');
  input.usageDetails = opts.usageFile !== undefined ? await parseJsonOrYaml(await readTextInput(ctx, opts.usageFile as string), opts.usageFile as string) : json('usage');
  input.costDetails = json('cost');
  input.modelParameters = json('modelParameters');
  input.metadata = json('metadata');
  if (opts.level !== undefined) input.level = opts.level as EstimateInput['level'];

  const loaded = await loadDefinitions(ctx, { mode, modelsFile: opts.modelsFile as string | undefined, maxAgeMs: REMOTE_CACHE_TTL_MS, model: input.model });
  await preparePatterns(loaded.definitions, input.model);
  let result;
  try {
    // decimal.js loads only when the exact fast paths of core/precision.ts do not apply.
    result = await withDecimal(() => estimate(input, { definitions: loaded.definitions, count: engineCounter }));
    ctx.trace(`models: ${compiledPatternCount()} match patterns compiled for ${loaded.origin.total} definitions (a pattern whose literals are not in the name is not compiled)`);
  } catch (error) {
    if (error instanceof ObservationRejectedError) throw new UsageError(error.message);
    if (error instanceof JsonTooDeepError) throw tooDeep(error.what);
    throw error;
  }
  assertUsable(loaded, result.matchedModel, input.model);
  if (ctx.globals.json) {
    ctx.out.printJson({ ...resultJson(result, opts.explain === true), definitions: loaded.origin });
    return;
  }
  printEstimate(ctx, result, opts.explain === true, loaded.origin);
}


function exclusive(opts: Record<string, unknown>, a: string, b: string): void {
  if (opts[a] !== undefined && opts[b] !== undefined) throw new UsageError(`use ${flag(a)} or ${flag(b)}, not both`);
}

