// Sending changed definitions: `models update` in place or by delete-and-create. A server before
// Langfuse 4.35 has no PUT: a definition then changes only by deleting and creating it again
// (--recreate), which is not atomic and gives it a new id.
import type { ApiClient } from '../../api/client.js';
import { supportsModelPut } from '../../api/langfuse-version.js';
import { createModel, deleteModel, listAllModels, replaceModel, serverVersion } from '../../api/models.js';
import type { ApiModel } from '../../api/schemas/models.js';
import type { Context } from '../../context.js';
import type { CreateModelBody } from '../../core/models/request.js';
import { ApiNotFoundError, CliError, UsageError } from '../../errors.js';
import { forgetRemoteDefinitions } from '../../model-definitions/remote.js';
import { printChanged } from './render.js';

/** `models update`: PUT where the server has it; else, with `recreate`, delete and create. */
export async function updateDefinition(ctx: Context, client: ApiClient, current: ApiModel, body: CreateModelBody, options: { all: ApiModel[] | undefined; recreate: boolean }): Promise<void> {
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
  if (!options.recreate) {
    throw new UsageError(`${server} cannot update a model definition in place (Langfuse 4.35 and later can); nothing was changed`, {
      hint: `Run again with --recreate to delete "${current.modelName}" and create it again. It then gets a new id, and generations ingested in the moment between match other definitions.`,
    });
  }
  await recreate(ctx, client, current, body, options.all, server);
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
