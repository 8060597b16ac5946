// llmobs models update: change a custom definition: in place where the server supports it.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { definitionFlags } from './definition-flags.js';

export default defineCommand({
  name: 'update',
  summary: 'change a custom definition: in place where the server supports it (Langfuse 4.35+), else by deleting and re-creating it with --recreate',
  args: [
    { name: '<id-or-name>', help: 'definition id, or model name' },
  ],
  flags: [
    ...definitionFlags('update'),
    { flags: '--remove-price <usage-type>', help: 'stop pricing a usage type (repeatable)', repeatable: true },
    { flags: '--recreate', help: 'on servers without update (before Langfuse 4.35): delete the definition and create it again, which gives it a new id' },
  ],
  examples: [
    'llmobs models update my-model --price output=12/1M',
    'llmobs models update my-model --remove-price input_cached_tokens --dry-run',
    'llmobs models update my-model --file model.yaml --recreate',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { modelPath }, { DefinitionFlags, hasDefinitionChanges, layeredDefinition, readDefinitionFile, sameAsStored, storedInput }, { resolveModel }, { updateDefinition }] = await Promise.all([import('zod'), import('../../api/models.js'), import('./draft-input.js'), import('./resolve.js'), import('./writes.js')]);
    const flags = parseOptions(DefinitionFlags.extend({ recreate: z.boolean().default(false) }), given);
    if (!hasDefinitionChanges(flags)) {
      throw new UsageError('nothing to change: give the fields to change as flags, or --file', { hint: 'For example: llmobs models update my-model --price input=3/1M' });
    }
    // A broken file must not cost a request.
    const file = flags.file !== undefined ? await readDefinitionFile(ctx, flags.file) : undefined;
    const client = await ctx.api();
    const { model: current, all } = await resolveModel(client, String(args[0]), { customOnly: true });
    if (current.isLangfuseManaged) {
      throw new UsageError(`"${current.modelName}" (${current.id}) is a built-in definition; built-in definitions cannot be changed`, {
        hint: `Override it with a custom definition of the same name instead: llmobs models create --name '${current.modelName}' --match-pattern '${current.matchPattern}' --price ...`,
      });
    }

    const base = storedInput(current);
    const { body } = layeredDefinition(ctx, base, file, flags);
    if (sameAsStored(base, body)) {
      if (ctx.globals.json) ctx.out.printJson(current);
      ctx.out.info(`Nothing to change: "${current.modelName}" (${current.id}) already is like that.`);
      return;
    }
    if (flags.dryRun) {
      ctx.out.printJson(body);
      ctx.out.info(`Dry run: PUT ${modelPath(current.id)} was not sent (servers before Langfuse 4.35 need --recreate: delete, then POST).`);
      return;
    }
    await updateDefinition(ctx, client, current, body, { all, recreate: flags.recreate });
  },
});
