// llmobs models match: which definition a generation's model name matches, why, which others lose, and the tokenizer and prices that apply.
import type { Context } from '../../context.js';
import type { DefinitionsOrigin } from '../../model-definitions/index.js';
import type { LosingMatch, MatchResult, RankedDefinition } from '../../core/models/match.js';
import type { ModelDefinition } from '../../core/models/types.js';
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
  async run(ctx, { args, opts }) {
    const [{ findModel }, { compiledPatternCount, preparePatterns }, { resolveTokenizer }, { assertUsable, definitionsMode, describeOrigin, loadDefinitions }, { defaultPrices, printTiers, tokenizerDescription }] = await Promise.all([import('../../core/models/match.js'), import('../../core/models/engine.js'), import('../../tokenizer/count-rules.js'), import('../../model-definitions/index.js'), import('./render.js')]);
    interface Options {
      offline: boolean;
      remote: boolean;
      modelsFile?: string | undefined;
      expect?: string | undefined;
    }

    // Checked by hand, not with a zod schema: commander has typed the flags already, and zod would
    // be the largest module this command loads.
    function parseMatchOptions(opts: Record<string, unknown>): Options {
      if (opts.expect === '') throw new UsageError('--expect: give the id or model name of the definition that must win');
      return {
        offline: opts.offline === true,
        remote: opts.remote === true,
        modelsFile: opts.modelsFile as string | undefined,
        expect: opts.expect as string | undefined,
      };
    }

    async function run(ctx: Context, model: string, opts: Options): Promise<void> {
      // Always the server's current definitions (no cache): this is the command to check a change.
      const loaded = await loadDefinitions(ctx, { mode: definitionsMode(opts), modelsFile: opts.modelsFile, maxAgeMs: 0, model });
      const { definitions } = loaded;
      await preparePatterns(definitions, model);
      // The server does no lookup for an empty model name.
      const result: MatchResult = model === '' ? { model, winner: null, tiedWith: [], losers: [], unevaluated: [] } : findModel(model, definitions);
      ctx.trace(`models: ${compiledPatternCount()} match patterns compiled for ${loaded.origin.total} definitions (a pattern whose literals are not in the name is not compiled)`);
      assertUsable(loaded, result.winner?.definition, model);
      const view = matchView(result, loaded.origin);

      if (ctx.globals.json) ctx.out.printJson(view);
      else printMatch(ctx, result, view.why);
      ctx.out.info(`Matched against ${describeOrigin(loaded.origin)}.`);
      if (model !== model.trim()) ctx.out.warn('the name has leading or trailing spaces; the server matches the name exactly as sent, spaces included');
      for (const skipped of result.unevaluated.filter((u) => u.affectsResult)) {
        ctx.out.warn(`the pattern of "${skipped.definition.modelName}" (${skipped.definition.id}) ${skipped.reason}; it could change the result`);
      }
      if (result.tiedWith.length > 0) {
        ctx.out.warn(`the server's choice is undefined: ${result.tiedWith.length + 1} definitions tie (same kind, same start date). Give one a later start date to decide.`);
      }

      if (opts.expect !== undefined) {
        const winner = result.winner?.definition;
        if (!winner || (winner.id !== opts.expect && winner.modelName !== opts.expect)) {
          throw new PreconditionError(`"${model}" matches ${winner ? `"${winner.modelName}" (${winner.id})` : 'no definition'}, not "${opts.expect}"`);
        }
      }
    }

    function summary(r: RankedDefinition) {
      const d = r.definition;
      return { id: d.id, modelName: d.modelName, matchPattern: d.matchPattern, source: r.source, startDate: d.startDate };
    }

    function lossText(loser: LosingMatch, winner: ModelDefinition): string {
      switch (loser.reason) {
        case 'custom-definition-first':
          return 'built-in: a custom definition matches too, and custom ones come first';
        case 'older-start-date':
          return `older start date than the winner's (${winner.startDate})`;
        case 'no-start-date':
          return 'no start date: definitions with one come first';
        case 'tie':
          return 'tie: same kind and start date as the winner; the server may pick this one instead';
      }
    }

    function whyText(result: MatchResult): string | null {
      const winner = result.winner;
      if (!winner) return null;
      if (result.losers.length === 0) return `the only definition whose pattern matches "${result.model}"`;
      const parts: string[] = [];
      if (result.losers.some((l) => l.reason === 'custom-definition-first')) parts.push('custom definitions come before built-in ones');
      if (result.losers.some((l) => l.reason === 'older-start-date' || l.reason === 'no-start-date')) {
        parts.push(`it has the latest start date (${winner.definition.startDate}) of the matching ${winner.source} definitions`);
      }
      if (result.tiedWith.length > 0) {
        parts.push(`it ties with ${result.tiedWith.length} other${result.tiedWith.length > 1 ? 's' : ''} and comes first by id here; the server may pick another`);
      }
      return parts.join('; ');
    }

    /** The tokenizer the server would use; null without one; the problem when it would not work. */
    function tokenizerView(definition: ModelDefinition) {
      const r = resolveTokenizer(definition);
      if (r.ok) {
        return { id: r.tokenizer.id, encoding: r.tokenizer.encoding, tokenizerModel: r.tokenizer.tokenizerModel ?? null, chat: r.chat, chatConfigMissing: r.chatConfigMissing };
      }
      return r.reason === 'no-tokenizer' ? null : { id: definition.tokenizerId, problem: r.reason, message: r.message };
    }

    function matchView(result: MatchResult, definitions: DefinitionsOrigin) {
      const winner = result.winner?.definition ?? null;
      return {
        model: result.model,
        definitions,
        matched: winner !== null,
        winner: result.winner ? summary(result.winner) : null,
        why: whyText(result),
        definition: winner,
        tokenizer: winner ? tokenizerView(winner) : null,
        unit: winner?.unit ?? null,
        prices: winner ? defaultPrices(winner) : null,
        pricingTiers: winner?.pricingTiers ?? null,
        ties: result.tiedWith.map(summary),
        losers: winner ? result.losers.map((l) => ({ ...summary(l), reason: l.reason, explanation: lossText(l, winner) })) : [],
        notEvaluated: result.unevaluated.map((u) => ({ ...summary(u), reason: u.reason, couldChangeResult: u.affectsResult })),
      };
    }

    function printMatch(ctx: Context, result: MatchResult, why: string | null): void {
      const winner = result.winner?.definition;
      if (!winner) {
        ctx.out.keyValues([
          ['Model name', result.model],
          ['Matches', result.model === '' ? 'nothing: the server does no lookup for an empty model name' : 'no definition'],
        ]);
        ctx.out.line();
        ctx.out.line('The server would compute no cost and count no tokens for such generations; usage sent with them is still stored.');
        ctx.out.line('Add a definition with: llmobs models create --name <name> --match-pattern <regex> --price input=...');
        return;
      }
      const tokenizer = tokenizerDescription(winner);
      ctx.out.keyValues([
        ['Model name', result.model],
        ['Matches', `${ctx.out.c.bold(winner.modelName)} (${result.winner!.source}, id ${winner.id})`],
        ['Why', why],
        ['Match pattern', winner.matchPattern],
        ['Start date', winner.startDate ?? 'none'],
        ['Tokenizer', tokenizer.problem ? ctx.out.c.yellow(tokenizer.text) : tokenizer.text],
      ]);
      ctx.out.line();
      printTiers(ctx, winner);
      if (result.losers.length > 0) {
        ctx.out.line();
        ctx.out.heading(`Also matching, not chosen (${result.losers.length})`);
        ctx.out.table(
          [{ header: 'NAME' }, { header: 'SOURCE' }, { header: 'START DATE' }, { header: 'WHY NOT' }, { header: 'ID', style: (t, c) => c.dim(t) }],
          result.losers.map((l) => [l.definition.modelName, l.source, l.definition.startDate ?? '', lossText(l, winner), l.definition.id]),
        );
      }
    }

    await run(ctx, String(args[0]), parseMatchOptions(opts));
  },
});
