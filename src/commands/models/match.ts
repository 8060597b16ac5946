// llmobs models match: which definition a generation's model name matches, why, which others lose, and the tokenizer and prices that apply.
import type { MatchResult } from '../../core/models/match.js';
import { PreconditionError, UsageError } from '../../errors.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'match',
  summary: 'which definition a generation\'s model name matches, why, which others lose, and the tokenizer and prices that apply',
  args: [
    { name: '<model-name>', help: 'the model name exactly as generations send it' },
  ],
  flags: [
    { flags: '--offline', help: 'use the built-in catalogue, never the network (default: the project\'s definitions when a profile or keys are configured, else the catalogue)' },
    { flags: '--remote', help: 'use the project\'s definitions from the configured server; fail if none is configured' },
    { flags: '--models-file <file>', help: 'custom definitions from a JSON or YAML file (one, an array, or a saved list) added on top, as if created in the project' },
    { flags: '--expect <id-or-name>', help: 'exit 9 unless this definition (id or model name) wins' },
  ],
  examples: [
    'llmobs models match gpt-4o-2024-08-06',
    '# In CI: fail unless the name is priced by your own definition',
    'llmobs models match ft:gpt-4o:acme:run-7 --expect ft:gpt-4o:acme',
    'llmobs models match claude-sonnet-4-5 --offline --models-file models.yaml --json',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ findModel }, { compiledPatternCount, preparePatterns }, { matchView }, { assertUsable, definitionsMode, loadDefinitions, suggestModelNames }, { printMatch, printMatchNotes }] = await Promise.all([import('../../core/models/match.js'), import('../../core/models/engine.js'), import('../../core/models/match-view.js'), import('../../model-definitions/index.js'), import('./render.js')]);
    const model = String(args[0]);
    const opts = parseMatchOptions(given);
    // Always the server's current definitions (no cache): this is the command to check a change.
    const loaded = await loadDefinitions(ctx, { mode: definitionsMode(opts), modelsFile: opts.modelsFile, maxAgeMs: 0, model });
    const { definitions } = loaded;
    await preparePatterns(definitions, model);
    // The server does no lookup for an empty model name.
    const result: MatchResult = model === '' ? { model, winner: null, tiedWith: [], losers: [], unevaluated: [] } : findModel(model, definitions);
    ctx.trace(`models: ${compiledPatternCount()} match patterns compiled for ${loaded.origin.total} definitions (a pattern whose literals are not in the name is not compiled)`);
    assertUsable(loaded, result.winner?.definition, model);
    const suggestions = result.winner === null && model !== '' ? suggestModelNames(loaded, model) : [];
    const view = matchView(result, loaded.origin, suggestions);

    if (ctx.globals.json) ctx.out.printJson(view);
    else printMatch(ctx, result, view.why, suggestions);
    printMatchNotes(ctx, result, loaded.origin, suggestions);

    if (opts.expect !== undefined) {
      const winner = result.winner?.definition;
      if (!winner || (winner.id !== opts.expect && winner.modelName !== opts.expect)) {
        throw new PreconditionError(`"${model}" matches ${winner ? `"${winner.modelName}" (${winner.id})` : 'no definition'}, not "${opts.expect}"`);
      }
    }
  },
});

interface MatchOptions {
  offline: boolean;
  remote: boolean;
  modelsFile?: string | undefined;
  expect?: string | undefined;
}

// Checked by hand, not with a zod schema: commander has typed the flags already, and zod would
// be the largest module this command loads.
function parseMatchOptions(opts: Record<string, unknown>): MatchOptions {
  if (opts.expect === '') throw new UsageError('--expect: give the id or model name of the definition that must win');
  return {
    offline: opts.offline === true,
    remote: opts.remote === true,
    modelsFile: opts.modelsFile as string | undefined,
    expect: opts.expect as string | undefined,
  };
}
