// llmobs models push: make the project's own definitions match a file: create new ones, replace changed ones in place.
import { UsageError } from '../../errors.js';
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
    const [{ z }, { ModelSyncOptions, nameOf, plan, printPlanTable, readModelFile, readServerModels, statusOf }, { sendWrites, settlePut }] = await Promise.all([import('zod'), import('./sync-shared.js'), import('./writes.js')]);
    const opts = parseOptions(ModelSyncOptions.extend({ prune: z.boolean().default(false), recreate: z.boolean().default(false), dryRun: z.boolean().default(false) }), given);
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
      else printPlanTable(ctx, writes, true);
      ctx.out.info(`Dry run: ${writes.length} to push, ${unchanged} unchanged; nothing was sent.`);
      return;
    }

    const put = await settlePut(client, writes, opts.recreate);
    const done = await sendWrites(ctx, client, writes, { put, recreate: opts.recreate, unchanged });
    if (ctx.globals.json) ctx.out.printJson({ dryRun: false, done, unchanged, failed: null, notDone: [] });
    else if (done.length > 0) ctx.out.table([{ header: 'DONE' }, { header: 'NAME' }, { header: 'ID' }], done.map((d) => [d.status, d.modelName, d.id]));
    ctx.out.success(writes.length === 0 ? `Nothing to push: ${unchanged} definition${unchanged === 1 ? '' : 's'} unchanged.` : `Pushed ${done.length} change${done.length === 1 ? '' : 's'}; ${unchanged} unchanged.`);
  },
});
