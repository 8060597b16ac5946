// llmobs models push: make the project's own definitions match a file: create new ones, replace changed ones in place.
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import type { ModelAction } from '../../core/models/sync-plan.js';
import { ApiNotFoundError, CliError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'push',
  summary: 'make the project\'s own definitions match a file: create new ones, replace changed ones in place (Langfuse 4.35+), leave equal ones alone',
  flags: [
    { flags: '--file <file>', help: 'definitions file', default: 'models.yaml' },
    { flags: '--prune', help: 'also delete the project\'s definitions the file does not have' },
    { flags: '--recreate', help: 'on servers without PUT (before Langfuse 4.35): replace by delete + create, which is not atomic and gives new ids' },
    { flags: '--dry-run', help: 'print the plan and send nothing' },
  ],
  notes: `
  A definition matches the server's by id when the file gives one, else by
  modelName. Every definition is checked as models create checks one before
  anything is sent (exit 2 on errors).`,
  examples: [
    'llmobs models push --dry-run',
    'llmobs models push --file models.yaml --prune',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { supportsModelPut }, { createModel, deleteModel, replaceModel, serverVersion }, { forgetRemoteDefinitions }, { ModelSyncOptions, nameOf, plan, readModelFile, readServerModels, statusOf }] = await Promise.all([import('zod'), import('../../api/langfuse-version.js'), import('../../api/models.js'), import('../../model-definitions/remote.js'), import('./sync-shared.js')]);
    const Options = ModelSyncOptions.extend({
      prune: z.boolean().default(false),
      recreate: z.boolean().default(false),
      dryRun: z.boolean().default(false),
    });

    interface Done {
      status: string;
      modelName: string;
      id: string;
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

    const opts = parseOptions(Options, given);
    const file = await readModelFile(ctx, opts.file);
    const client = await ctx.api();
    const { models } = await readServerModels(client);
    const { actions, notPruned } = plan(file, models, opts.prune);
    const deletes = actions.filter((a) => a.kind === 'delete').length;
    if (opts.prune && file.length === 0 && deletes > 0) {
      // An empty file is far more often a mistake (a wrong path, a failed step that wrote []) than a wish.
      throw new UsageError(`${opts.file} has no definitions: --prune would delete all ${deletes} of the project's own definitions; nothing was sent`, {
        hint: 'Check --file. To delete definitions, use llmobs models delete <name> --yes.',
      });
    }
    for (const model of notPruned) ctx.out.warn(`"${model.modelName}" (${model.id}) is not pruned: llmobs cannot write its pricing to a file, so the file cannot list it`);
    const writes = actions.filter((a) => a.kind !== 'unchanged');
    const unchanged = actions.length - writes.length;

    if (opts.dryRun) {
      if (ctx.globals.json) ctx.out.printJson({ dryRun: true, definitions: writes.map((a) => ({ status: statusOf(a, true), modelName: nameOf(a), id: 'id' in a ? (a.id ?? null) : null })) });
      else ctx.out.table([{ header: 'STATUS' }, { header: 'NAME' }, { header: 'ID' }], writes.map((a) => [statusOf(a, true), nameOf(a), 'id' in a ? (a.id ?? '') : '']));
      ctx.out.info(`Dry run: ${writes.length} to push, ${unchanged} unchanged; nothing was sent.`);
      return;
    }

    // Whether the server replaces in place (PUT, Langfuse 4.35+) is settled before the first write.
    let put: boolean | undefined = true;
    if (writes.some((a) => a.kind === 'replace' || (a.kind === 'create' && a.id !== undefined))) {
      const version = await serverVersion(client);
      put = supportsModelPut(version);
      if (put === false && writes.some((a) => a.kind === 'replace') && !opts.recreate) throw noPut(version);
    }

    const done: Done[] = [];
    client.onRetryWait = (wait) => ctx.out.info(`${wait.reason}: waiting ${Math.max(1, Math.round(wait.delayMs / 1000))} s (${done.length}/${writes.length} done)`);
    try {
      for (const write of writes) {
        try {
          const result = await execute(ctx, client, write, { put, recreate: opts.recreate });
          put = result.put;
          done.push(result.done);
          ctx.out.info(`[${done.length}/${writes.length}] ${result.done.modelName}: ${result.done.status} (${result.done.id})`);
        } catch (error) {
          const rest = writes.slice(done.length + 1).map(nameOf);
          if (ctx.globals.json) {
            const reason = error instanceof Error ? error.message : String(error);
            ctx.out.printJson({ dryRun: false, done, unchanged, failed: { status: statusOf(write, true), modelName: nameOf(write), error: reason }, notDone: rest });
          }
          ctx.out.warn(`push stopped at "${nameOf(write)}" (${statusOf(write, true)}). Done ${done.length} of ${writes.length}${done.length ? `: ${done.map((d) => d.modelName).join(', ')}` : ''}.${rest.length ? ` Not done: ${rest.join(', ')}.` : ''}`);
          if (error instanceof CliError) error.hint = [error.hint, 'Run the same push again to send the rest: what is done now matches the file and is not sent again.'].filter(Boolean).join('\n');
          throw error;
        }
      }
    } finally {
      if (done.length > 0) await forgetRemoteDefinitions(ctx, client);
    }
    if (ctx.globals.json) ctx.out.printJson({ dryRun: false, done, unchanged, failed: null, notDone: [] });
    else if (done.length > 0) ctx.out.table([{ header: 'DONE' }, { header: 'NAME' }, { header: 'ID' }], done.map((d) => [d.status, d.modelName, d.id]));
    ctx.out.success(writes.length === 0 ? `Nothing to push: ${unchanged} definition${unchanged === 1 ? '' : 's'} unchanged.` : `Pushed ${done.length} change${done.length === 1 ? '' : 's'}; ${unchanged} unchanged.`);
  },
});
