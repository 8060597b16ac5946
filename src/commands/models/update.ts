// llmobs models update: change a custom definition: in place where the server supports it.
import type { z } from 'zod';
import type { ApiClient } from '../../api/client.js';
import type { ApiModel } from '../../api/schemas/models.js';
import type { Context } from '../../context.js';
import type { CreateModelBody } from '../../core/models/request.js';
import { ApiNotFoundError, CliError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'update',
  summary: 'change a custom definition: in place where the server supports it (Langfuse 4.35+), else by deleting and re-creating it with --recreate',
  args: [
    { name: '<id-or-name>', help: 'definition id, or model name' },
  ],
  flags: [
    { flags: '--name <name>', help: 'new model name' },
    { flags: '--match-pattern <regex>', help: 'new match pattern (Postgres regex)' },
    { flags: '--tokenizer <tokenizer>', help: 'tokenizer for generations sent without usage (none: no tokenizer)', choices: ['openai', 'claude', 'none'] },
    { flags: '--tokenizer-model <model>', help: 'tiktoken model of the openai tokenizer, e.g. gpt-4o' },
    { flags: '--tokens-per-message <n>', help: 'tokens added per chat message (openai chat models, usually 3)' },
    { flags: '--tokens-per-name <n>', help: 'tokens added per message name (openai chat models, usually 1)' },
    { flags: '--tokenization-config <json>', help: 'the whole tokenizer config as JSON: tokenizerModel, tokensPerMessage, tokensPerName' },
    { flags: '--price <usage-type=usd>', help: 'price of a usage type in USD per unit, or per million with /1M: --price input=2.5/1M (repeatable; any usage type, e.g. input, output, input_cached_tokens)', repeatable: true },
    { flags: '--unit <unit>', help: 'new unit', choices: ['TOKENS', 'CHARACTERS', 'MILLISECONDS', 'SECONDS', 'REQUESTS', 'IMAGES'] },
    { flags: '--start-date <date>', help: 'new start date (ISO date or date-time; none removes it)' },
    { flags: '--file <file>', help: 'the new definition from a JSON or YAML file (- for stdin); fields it leaves out are kept, flags override it' },
    { flags: '--strict', help: 'refuse to send when the checks warn (not only when they find errors)' },
    { flags: '--dry-run', help: 'check and print the request body without sending it' },
    { flags: '--remove-price <usage-type>', help: 'stop pricing a usage type (repeatable)', repeatable: true },
    { flags: '--recreate', help: 'on servers without update (before Langfuse 4.35): delete the definition and create it again, which gives it a new id' },
  ],
  examples: [
    'llmobs models update my-model --price output=12/1M',
    'llmobs models update my-model --remove-price input_cached_tokens --dry-run',
    'llmobs models update my-model --file model.yaml --recreate',
  ],
  async run(ctx, { args, opts }) {
    const [{ z }, { supportsModelPut }, { createModel, deleteModel, listAllModels, modelPath, replaceModel, serverVersion }, { checkModelDraft }, { buildCreateModelBody }, { forgetRemoteDefinitions }, { applyFlags, checkForSending, DefinitionFlags, hasDefinitionChanges, overlay, readDefinitionFile, sameBody, storedInput }, { printChanged }, { resolveModel }] = await Promise.all([import('zod'), import('../../api/langfuse-version.js'), import('../../api/models.js'), import('../../core/models/checks.js'), import('../../core/models/request.js'), import('../../model-definitions/remote.js'), import('./draft-input.js'), import('./render.js'), import('./resolve.js')]);
    const Options = DefinitionFlags.extend({ recreate: z.boolean().default(false) });
    type Options = z.infer<typeof Options>;

    async function run(ctx: Context, ref: string, flags: Options): Promise<void> {
      if (!hasDefinitionChanges(flags)) {
        throw new UsageError('nothing to change: give the fields to change as flags, or --file', { hint: 'For example: llmobs models update my-model --price input=3/1M' });
      }
      // A broken file must not cost a request.
      const file = flags.file !== undefined ? await readDefinitionFile(ctx, flags.file) : undefined;
      const client = await ctx.api();
      const { model: current, all } = await resolveModel(client, ref, { customOnly: true });
      if (current.isLangfuseManaged) {
        throw new UsageError(`"${current.modelName}" (${current.id}) is a built-in definition; built-in definitions cannot be changed`, {
          hint: `Override it with a custom definition of the same name instead: llmobs models create --name '${current.modelName}' --match-pattern '${current.matchPattern}' --price ...`,
        });
      }

      const base = storedInput(current);
      const notes: string[] = [];
      const input = applyFlags(file ? overlay(base, file.input) : base, flags, notes);
      for (const note of notes) ctx.out.info(note);
      const { body } = checkForSending(ctx, input, { strict: flags.strict, fromFile: file !== undefined, earlier: file?.issues });
      const before = checkModelDraft(base, { unitDefault: 'TOKENS' }).draft;
      if (before && sameBody(buildCreateModelBody(before), body)) {
        if (ctx.globals.json) ctx.out.printJson(current);
        ctx.out.info(`Nothing to change: "${current.modelName}" (${current.id}) already is like that.`);
        return;
      }
      if (flags.dryRun) {
        ctx.out.printJson(body);
        ctx.out.info(`Dry run: PUT ${modelPath(current.id)} was not sent (servers before Langfuse 4.35 need --recreate: delete, then POST).`);
        return;
      }

      // The health endpoint says the version up front; without it, PUT itself tells (405 or 404).
      const version = await serverVersion(client);
      if (supportsModelPut(version) !== false) {
        const outcome = await replaceModel(client, current.id, body);
        if (outcome.supported) {
          await forgetRemoteDefinitions(ctx, client);
          printChanged(ctx, outcome.model, `Updated "${outcome.model.modelName}" in place (${outcome.model.id})`);
          return;
        }
        ctx.trace(`models: PUT answered ${outcome.status}, so this server cannot update in place`);
      }
      const server = version ? `Langfuse ${version}` : 'This server';
      if (!flags.recreate) {
        throw new UsageError(`${server} cannot update a model definition in place (Langfuse 4.35 and later can); nothing was changed`, {
          hint: `Run again with --recreate to delete "${current.modelName}" and create it again. It then gets a new id, and generations ingested in the moment between match other definitions.`,
        });
      }
      await recreate(ctx, client, current, body, all, server);
    }

    /** Delete, then create. Everything the server could refuse is checked before the delete. */
    async function recreate(ctx: Context, client: ApiClient, current: ApiModel, body: CreateModelBody, all: ApiModel[] | undefined, server: string): Promise<void> {
      if (body.modelName !== current.modelName) {
        const clash = (all ?? (await listAllModels(client))).find((m) => !m.isLangfuseManaged && m.modelName === body.modelName && m.id !== current.id);
        if (clash) throw new UsageError(`another custom definition is already named "${body.modelName}" (${clash.id}); nothing was changed`);
      }
      ctx.out.info(`${server} cannot update in place: deleting "${current.modelName}" (${current.id}) and creating it again.`);
      try {
        await deleteModel(client, current.id);
      } catch (error) {
        // The id was found a moment ago: a 404 now means it is gone, e.g. a retried DELETE whose
        // first attempt went through. Anything else leaves the definition in place.
        if (!(error instanceof ApiNotFoundError)) throw error;
        ctx.trace(`models: DELETE answered 404; ${current.id} is gone`);
      }
      await forgetRemoteDefinitions(ctx, client);
      let created: ApiModel;
      try {
        created = await createModel(client, body);
      } catch (error) {
        ctx.out.warn(`"${current.modelName}" was deleted, but creating it again failed. This was its definition:`);
        ctx.out.info(JSON.stringify(current, null, 2));
        const restore = 'To restore it, save the JSON above to a file and run: llmobs models create --file <file>';
        ctx.out.info(restore);
        if (error instanceof CliError) error.hint = [error.hint, restore].filter(Boolean).join('\n');
        throw error;
      }
      printChanged(ctx, created, `Re-created "${created.modelName}": new id ${created.id} (was ${current.id})`);
    }

    await run(ctx, String(args[0]), parseOptions(Options, opts));
  },
});
