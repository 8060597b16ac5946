// Sending changed definitions: `models update` in place or by delete-and-create, and `models push`'s
// writes one at a time. A server before Langfuse 4.35 has no PUT: a definition then changes only
// by deleting and creating it again (--recreate), which is not atomic and gives it a new id.
import type { ApiClient } from '../../api/client.js';
import { supportsModelPut } from '../../api/langfuse-version.js';
import { createModel, deleteModel, listAllModels, replaceModel, serverVersion } from '../../api/models.js';
import type { ApiModel } from '../../api/schemas/models.js';
import type { Context } from '../../context.js';
import type { CreateModelBody } from '../../core/models/request.js';
import type { ModelAction } from '../../core/models/sync-plan.js';
import { ApiNotFoundError, CliError, UsageError } from '../../errors.js';
import { forgetRemoteDefinitions } from '../../model-definitions/remote.js';
import { printChanged } from './render.js';
import { nameOf, statusOf } from './sync-shared.js';

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

/** One write of a push, done. */
export interface Done {
  status: string;
  modelName: string;
  id: string;
}

/**
 * Whether the server replaces in place (PUT, Langfuse 4.35+), settled before the first write of a
 * push: true, false, or undefined when unknown (the first PUT then tells).
 */
export async function settlePut(client: ApiClient, writes: readonly ModelAction[], recreate: boolean): Promise<boolean | undefined> {
  if (!writes.some((a) => a.kind === 'replace' || (a.kind === 'create' && a.id !== undefined))) return true;
  const version = await serverVersion(client);
  const put = supportsModelPut(version);
  if (put === false && writes.some((a) => a.kind === 'replace') && !recreate) throw noPut(version);
  return put;
}

/**
 * The writes of a push, in order. The first that fails stops the push: what was done and what
 * was not is said (with --json, as the result object) before the error is thrown.
 */
export async function sendWrites(ctx: Context, client: ApiClient, writes: readonly ModelAction[], options: { put: boolean | undefined; recreate: boolean; unchanged: number }): Promise<Done[]> {
  let put = options.put;
  const done: Done[] = [];
  client.onRetryWait = (wait) => ctx.out.info(`${wait.reason}: waiting ${Math.max(1, Math.round(wait.delayMs / 1000))} s (${done.length}/${writes.length} done)`);
  try {
    for (const write of writes) {
      try {
        const result = await execute(ctx, client, write, { put, recreate: options.recreate });
        put = result.put;
        done.push(result.done);
        ctx.out.info(`[${done.length}/${writes.length}] ${result.done.modelName}: ${result.done.status} (${result.done.id})`);
      } catch (error) {
        const rest = writes.slice(done.length + 1).map(nameOf);
        if (ctx.globals.json) {
          const reason = error instanceof Error ? error.message : String(error);
          ctx.out.printJson({ dryRun: false, done, unchanged: options.unchanged, failed: { status: statusOf(write, true), modelName: nameOf(write), error: reason }, notDone: rest });
        }
        ctx.out.warn(`push stopped at "${nameOf(write)}" (${statusOf(write, true)}). Done ${done.length} of ${writes.length}${done.length ? `: ${done.map((d) => d.modelName).join(', ')}` : ''}.${rest.length ? ` Not done: ${rest.join(', ')}.` : ''}`);
        if (error instanceof CliError) error.hint = [error.hint, 'Run the same push again to send the rest: what is done now matches the file and is not sent again.'].filter(Boolean).join('\n');
        throw error;
      }
    }
  } finally {
    if (done.length > 0) await forgetRemoteDefinitions(ctx, client);
  }
  return done;
}

async function execute(ctx: Context, client: ApiClient, write: ModelAction, mode: { put: boolean | undefined; recreate: boolean }): Promise<{ done: Done; put: boolean | undefined }> {
  let put = mode.put;
  switch (write.kind) {
    case 'create': {
      if (write.id !== undefined && put !== false) {
        // PUT with the file's id creates the definition under that id.
        const outcome = await replaceModel(client, write.id, write.body);
        if (outcome.supported) return { done: { status: 'created', modelName: outcome.model.modelName, id: outcome.model.id }, put: true };
        put = false;
      }
      const created = await createModel(client, write.body);
      if (write.id !== undefined) ctx.out.warn(`"${created.modelName}" was created with the new id ${created.id}: this server cannot create a definition under a given id (${write.id}); update the file's id`);
      return { done: { status: 'created', modelName: created.modelName, id: created.id }, put };
    }
    case 'replace': {
      if (put !== false) {
        const outcome = await replaceModel(client, write.id, write.body);
        if (outcome.supported) return { done: { status: 'replaced', modelName: outcome.model.modelName, id: outcome.model.id }, put: true };
        put = false;
        if (!mode.recreate) throw noPut(undefined, outcome.status);
      }
      // Not atomic: between the delete and the create, generations match other definitions.
      ctx.out.warn(`"${write.body.modelName}" (${write.id}): deleting and creating it again (--recreate; not atomic, and it gets a new id)`);
      try {
        await deleteModel(client, write.id);
      } catch (error) {
        if (!(error instanceof ApiNotFoundError)) throw error;
      }
      const created = await createModel(client, write.body);
      return { done: { status: 'recreated', modelName: created.modelName, id: created.id }, put };
    }
    case 'delete':
      await deleteModel(client, write.id);
      return { done: { status: 'deleted', modelName: write.modelName, id: write.id }, put };
    case 'unchanged':
      throw new Error('an unchanged definition is not written');
  }
}

function noPut(version: string | undefined, status?: number): UsageError {
  const server = version ? `Langfuse ${version}` : status ? `This server (PUT answered ${status})` : 'This server';
  return new UsageError(`${server} cannot replace a model definition in place (PUT /api/public/models/{id} came with Langfuse 4.35)${status ? '' : '; nothing was sent'}`, {
    hint: 'Run again with --recreate to delete each changed definition and create it again. That is not atomic: each gets a new id, and generations ingested in between match other definitions.',
  });
}
