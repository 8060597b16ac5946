// llmobs models pull: write the project's own definitions.
import { ExitCode } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'pull',
  summary: 'write the project\'s own definitions (all pages) to a file, JSON or YAML by its extension',
  flags: [
    { flags: '--file <file>', help: 'definitions file', default: 'models.yaml' },
    { flags: '--force', help: 'overwrite a file that differs from the server' },
  ],
  examples: [
    'llmobs models pull',
    'llmobs models pull --file models.json --force',
  ],
  async run(ctx, { opts: given }) {
    const [{ z }, { fileEntry, ModelSyncOptions, modelsFileText, pullAction, readServerModels, writeModelsFile }] = await Promise.all([import('zod'), import('./sync-shared.js')]);
    const opts = parseOptions(ModelSyncOptions.extend({ force: z.boolean().default(false) }), given);
    const client = await ctx.api();
    const { models } = await readServerModels(client);
    const own = models.filter((model) => !model.isLangfuseManaged);
    for (const model of own.filter((m) => !m.body)) ctx.out.warn(`"${model.modelName}" (${model.id}) uses pricing that llmobs cannot write back; it is left out of the file`);
    const entries = own.filter((model) => model.body).map((model) => fileEntry(model.id, model.body!));
    const text = modelsFileText(opts.file, entries);

    const action = await pullAction(ctx, opts.file, text, models, opts.force);
    if (action === 'equivalent') {
      ctx.out.info(`${opts.file} already matches the server's ${own.length} definition${own.length === 1 ? '' : 's'}; left as it is.`);
      return;
    }
    if (action === 'differs') {
      ctx.out.warn(`${opts.file} differs from the server and was not overwritten. See the differences with: llmobs models status --file ${opts.file}; overwrite with --force.`);
      ctx.exitCode = ExitCode.precondition;
      return;
    }
    await writeModelsFile(ctx, opts.file, text);
    if (ctx.globals.json) ctx.out.printJson({ file: opts.file, definitions: entries.length });
    ctx.out.success(`Wrote ${entries.length} custom definition${entries.length === 1 ? '' : 's'} to ${opts.file}${action === 'unchanged' ? ' (unchanged)' : ''}.`);
  },
});
