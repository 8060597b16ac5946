// llmobs estimate: the usage and cost of a generation, with the rules the server applies at
// ingestion, computed locally.
import type { Context } from '../context.js';
import type { EstimateInput } from '../core/estimate.js';
import { UsageError } from '../errors.js';
import { flagName as flag } from './options.js';
import { defineCommand } from './define.js';

export default defineCommand({
  name: 'estimate',
  summary: 'estimate usage and cost of a generation with the rules the server applies at ingestion, locally (no request unless the project\'s definitions are used)',
  flags: [
    { flags: '--model <name>', help: 'the model name the generation carries (matched against the definitions)' },
    { flags: '--input <text>', help: 'the generation input: plain text, or JSON such as a chat message array' },
    { flags: '--input-file <file>', help: 'read the input from a file' },
    { flags: '--output <text>', help: 'the generation output: plain text or JSON' },
    { flags: '--output-file <file>', help: 'read the output from a file' },
    { flags: '--usage <json>', help: 'usage as the client would send it (usageDetails: a map, or OpenAI usage); it wins over tokenizing' },
    { flags: '--usage-file <file>', help: 'read the usage from a JSON or YAML file' },
    { flags: '--cost <json>', help: 'costs as the client would send them (costDetails); they win over prices' },
    { flags: '--model-parameters <json>', help: 'model parameters (pricing tiers can depend on them, e.g. service_tier)' },
    { flags: '--metadata <json>', help: 'metadata (pricing tiers can depend on it)' },
    { flags: '--level <level>', help: 'observation level; the server does not tokenize ERROR generations', choices: ['DEBUG', 'DEFAULT', 'WARNING', 'ERROR'] },
    { flags: '--explain', help: 'say which definition matched and why, which pricing tier, and price × units per usage type' },
    { flags: '--offline', help: 'use the built-in catalogue, never the network (default: the project\'s definitions when a profile or keys are configured, else the catalogue)' },
    { flags: '--remote', help: 'use the project\'s definitions from the configured server (all pages, cached 10 minutes); fail if none is configured' },
    { flags: '--models-file <file>', help: 'custom model definitions (JSON or YAML, API or spec shape) added on top, taking precedence as the project\'s own do' },
    { flags: '--batch <file>', help: 'estimate one generation per line of a JSONL file (- for stdin); one result line per input line' },
  ],
  examples: [
    'llmobs estimate --model gpt-4o --input \'What is the capital of France?\' --output \'Paris.\'',
    'llmobs estimate --model claude-sonnet-4-5 --usage \'{"input": 1200, "output": 350}\' --explain',
    'llmobs estimate --model my-model --input-file request.json --output-file response.txt --models-file models.yaml --json',
    'llmobs estimate --batch generations.jsonl > estimates.jsonl',
  ],
  async run(ctx, { opts }) {
    const [{ estimate }, { JsonTooDeepError }, { compiledPatternCount, preparePatterns }, { withDecimal }, { ObservationRejectedError }, { parseJson, parseJsonOrYaml, readTextInput, tooDeep }, { engineCounter }, { assertUsable, definitionsMode, loadDefinitions, REMOTE_CACHE_TTL_MS }, { printEstimate, resultJson }] = await Promise.all([import('../core/estimate.js'), import('../core/json-depth.js'), import('../core/models/engine.js'), import('../core/precision.js'), import('../core/usage.js'), import('../io/files.js'), import('../tokenizer/index.js'), import('../model-definitions/index.js'), import('./estimate/render.js')]);
    function exclusive(opts: Record<string, unknown>, a: string, b: string): void {
      if (opts[a] !== undefined && opts[b] !== undefined) throw new UsageError(`use ${flag(a)} or ${flag(b)}, not both`);
    }

    const mode = definitionsMode(opts);
    if (opts.batch !== undefined) {
      const single = ['model', 'input', 'inputFile', 'output', 'outputFile', 'usage', 'usageFile', 'cost', 'modelParameters', 'metadata', 'level', 'explain'].filter((key) => opts[key] !== undefined);
      if (single.length) throw new UsageError(`--batch reads everything from the file; drop ${single.map(flag).join(', ')}`);
      const { runBatch } = await import('./estimate/batch.js');
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
  },
});
