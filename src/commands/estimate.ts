// llmobs estimate: the usage and cost of a generation, with the rules the server applies at
// ingestion, computed locally.
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
    const [{ preparePatterns }, { assertUsable, definitionsMode, loadDefinitions, REMOTE_CACHE_TTL_MS }, { estimateGeneration, readGeneration }, { printEstimate, reportNoMatch, resultJson }] = await Promise.all([import('../core/models/engine.js'), import('../model-definitions/index.js'), import('./estimate/single.js'), import('./estimate/render.js')]);
    const mode = definitionsMode(opts);
    const modelsFile = opts.modelsFile as string | undefined;
    if (opts.batch !== undefined) {
      const single = SINGLE_GENERATION_FLAGS.filter((key) => opts[key] !== undefined);
      if (single.length) throw new UsageError(`--batch reads everything from the file; drop ${single.map(flag).join(', ')}`);
      const { runBatch } = await import('./estimate/batch.js');
      await runBatch(ctx, { file: opts.batch as string, modelsFile, mode });
      return;
    }
    if (typeof opts.model !== 'string') throw new UsageError('--model is required (or --batch FILE)');
    exclusive(opts, 'input', 'inputFile');
    exclusive(opts, 'output', 'outputFile');
    exclusive(opts, 'usage', 'usageFile');

    const input = await readGeneration(ctx, opts);
    const loaded = await loadDefinitions(ctx, { mode, modelsFile, maxAgeMs: REMOTE_CACHE_TTL_MS, model: input.model });
    await preparePatterns(loaded.definitions, input.model);
    const result = await estimateGeneration(ctx, input, loaded);
    assertUsable(loaded, result.matchedModel, input.model);
    if (ctx.globals.json) ctx.out.printJson({ ...resultJson(result, opts.explain === true), definitions: loaded.origin });
    else printEstimate(ctx, result, opts.explain === true, loaded.origin);
    reportNoMatch(ctx, result, loaded.origin);
  },
});

/** The flags of one generation, which --batch reads from its file instead. */
const SINGLE_GENERATION_FLAGS = ['model', 'input', 'inputFile', 'output', 'outputFile', 'usage', 'usageFile', 'cost', 'modelParameters', 'metadata', 'level', 'explain'];

function exclusive(opts: Record<string, unknown>, a: string, b: string): void {
  if (opts[a] !== undefined && opts[b] !== undefined) throw new UsageError(`use ${flag(a)} or ${flag(b)}, not both`);
}
