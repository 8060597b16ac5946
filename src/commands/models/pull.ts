// llmobs models pull: write the project's own definitions.
import type { Context } from '../../context.js';
import { ExitCode } from '../../errors.js';
import { parseOptions } from '../options.js';
import { resolve } from 'node:path';
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
  async run(ctx, { opts }) {
    const [{ stringify }, { planModelSync }, { readFileBounded, writeFileWhole }, { InputTooLargeError }, { z }, { fileEntry, ModelSyncOptions, readModelFile, readServerModels }] = await Promise.all([import('../../io/yaml.js'), import('../../core/models/sync-plan.js'), import('../../io/files.js'), import('../../io/stdin.js'), import('zod'), import('./sync-shared.js')]);
    async function run(ctx: Context, opts: { file: string; force: boolean }): Promise<void> {
      const client = await ctx.api();
      const { models } = await readServerModels(client);
      const own = models.filter((model) => !model.isLangfuseManaged);
      const unwritable = own.filter((model) => !model.body);
      for (const model of unwritable) ctx.out.warn(`"${model.modelName}" (${model.id}) uses pricing that llmobs cannot write back; it is left out of the file`);
      const entries = own.filter((model) => model.body).map((model) => fileEntry(model.id, model.body!));
      const json = /\.json$/i.test(opts.file);
      const text = json ? `${JSON.stringify(entries, null, 2)}\n` : stringify(entries, { lineWidth: 0, version: '1.2' });

      const path = resolve(ctx.cwd, opts.file);
      // A file too large to read is not the server's definitions: left alone, as one that differs.
      const existing = await readFileBounded(path).catch((error: unknown) => (error instanceof InputTooLargeError ? error : undefined));
      if (existing !== undefined && existing !== text && !opts.force) {
        // A file that says the same as the server (other spelling, other order) is left as it is.
        const local = await readModelFile(ctx, opts.file).catch(() => undefined);
        const same = local !== undefined && planModelSync(local, models, { prune: true }).actions.every((a) => a.kind === 'unchanged');
        if (same) {
          ctx.out.info(`${opts.file} already matches the server's ${own.length} definition${own.length === 1 ? '' : 's'}; left as it is.`);
          return;
        }
        ctx.out.warn(`${opts.file} differs from the server and was not overwritten. See the differences with: llmobs models status --file ${opts.file}; overwrite with --force.`);
        ctx.exitCode = ExitCode.precondition;
        return;
      }
      await writeFileWhole(path, text, opts.file);
      if (ctx.globals.json) ctx.out.printJson({ file: opts.file, definitions: entries.length });
      ctx.out.success(`Wrote ${entries.length} custom definition${entries.length === 1 ? '' : 's'} to ${opts.file}${existing === text ? ' (unchanged)' : ''}.`);
    }

    await run(ctx, parseOptions(ModelSyncOptions.extend({ force: z.boolean().default(false) }), opts));
  },
});
