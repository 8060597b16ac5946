import { z } from 'zod';
import type { ApiClient } from '../../api/client.js';
import { supportsModelPut } from '../../api/langfuse-version.js';
import { createModel, deleteModel, listAllModels, modelPath, replaceModel, serverVersion } from '../../api/models.js';
import type { ApiModel } from '../../api/schemas/models.js';
import type { Context } from '../../context.js';
import { checkModelDraft } from '../../core/models/checks.js';
import { buildCreateModelBody, type CreateModelBody } from '../../core/models/request.js';
import { ApiNotFoundError, CliError, UsageError } from '../../errors.js';
import { forgetRemoteDefinitions } from '../../model-definitions/remote.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { applyFlags, checkForSending, DefinitionFlags, hasDefinitionChanges, overlay, readDefinitionFile, sameBody, storedInput } from './draft-input.js';
import { printChanged } from './render.js';
import { resolveModel } from './resolve.js';

const Options = DefinitionFlags.extend({ recreate: z.boolean().default(false) });
type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, String(args[0]), parseOptions(Options, opts));
}

export async function run(ctx: Context, ref: string, flags: Options): Promise<void> {
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
