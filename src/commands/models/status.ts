// llmobs models status: compare a definitions file with the project's own definitions: unchanged, changed.
import { ExitCode } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'status',
  summary: 'compare a definitions file with the project\'s own definitions: unchanged, changed (with a diff), new, only on the server',
  flags: [
    { flags: '--file <file>', help: 'definitions file', default: 'models.yaml' },
    { flags: '--prune', help: 'count definitions only on the server as changes (what push --prune deletes)' },
    { flags: '--exit-code', help: 'exit 9 when something would be pushed (0 when in sync), for CI checks' },
  ],
  examples: [
    'llmobs models status',
    '# In CI: fail when the project differs from the file',
    'llmobs models status --file models.yaml --exit-code',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { colourDiff }, { actionDiff, actionJson, ModelSyncOptions, plan, printPlanTable, readModelFile, readServerModels }] = await Promise.all([import('zod'), import('../../output/diff.js'), import('./sync-shared.js')]);
    const opts = parseOptions(ModelSyncOptions.extend({ exitCode: z.boolean().default(false), prune: z.boolean().default(false) }), given);
    const file = await readModelFile(ctx, opts.file);
    const client = await ctx.api();
    const { models } = await readServerModels(client);
    // Always planned with prune, so definitions only on the server are shown; they are deleted only by push --prune.
    const result = plan(file, models, true);
    for (const model of result.notPruned) ctx.out.warn(`"${model.modelName}" (${model.id}) uses pricing llmobs cannot write to a file; it is not compared`);
    const changes = result.actions.filter((a) => a.kind !== 'unchanged' && (a.kind !== 'delete' || opts.prune));
    if (ctx.globals.json) {
      ctx.out.printJson({ inSync: changes.length === 0, definitions: result.actions.map((a) => actionJson(a, opts.prune)) });
    } else {
      printPlanTable(ctx, result.actions, opts.prune);
      for (const a of result.actions) if (a.kind === 'replace') ctx.out.write(colourDiff(ctx.out, actionDiff(a)));
      const only = result.actions.filter((a) => a.kind === 'delete').length;
      ctx.out.info(changes.length === 0 ? `In sync with ${opts.file}${only ? ` (${only} only on the server; push --prune would delete ${only === 1 ? 'it' : 'them'})` : ''}.` : `Not in sync: ${changes.length} to push. Push with: llmobs models push --file ${opts.file}${opts.prune ? ' --prune' : ''}`);
    }
    if (opts.exitCode && changes.length > 0) ctx.exitCode = ExitCode.precondition;
  },
});
