// llmobs models delete: delete a custom definition.
import { ApiNotFoundError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export default defineCommand({
  name: 'delete',
  aliases: ['rm'],
  summary: 'delete a custom definition (built-in ones cannot be deleted: override them instead)',
  args: [
    { name: '<id-or-name>', help: 'definition id, or model name' },
  ],
  flags: [
    { flags: '-y, --yes', help: 'do not ask for confirmation (required without a terminal)' },
  ],
  examples: [
    'llmobs models delete my-model',
    'llmobs models rm old-model --yes',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { deleteModel }, { forgetRemoteDefinitions }, { resolveModel }] = await Promise.all([import('zod'), import('../../api/models.js'), import('../../model-definitions/remote.js'), import('./resolve.js')]);
    const opts = parseOptions(z.object({ yes: z.boolean().default(false) }), given);
    const client = await ctx.api();
    const { model } = await resolveModel(client, String(args[0]), { customOnly: true });
    if (model.isLangfuseManaged) {
      throw new UsageError(`"${model.modelName}" (${model.id}) is a built-in definition and cannot be deleted`, { hint: overrideHint(model.modelName, model.matchPattern) });
    }
    if (!opts.yes) {
      if (!ctx.interactive) {
        throw new UsageError(`refusing to delete model definition "${model.modelName}" without confirmation`, { hint: 'Pass --yes when not on a terminal.' });
      }
      const sure = await (await ctx.prompter()).confirm({
        message: `Delete model definition "${model.modelName}" (${model.id})? Generations ingested afterwards no longer match it.`,
        default: false,
      });
      if (!sure) {
        ctx.out.info('Nothing deleted.');
        return;
      }
    }
    try {
      await deleteModel(client, model.id);
    } catch (error) {
      if (error instanceof ApiNotFoundError && /built-in/i.test(error.serverMessage ?? '')) {
        error.hint = `It is gone already, or it is a built-in definition. ${overrideHint(model.modelName, model.matchPattern)}`;
      }
      throw error;
    }
    await forgetRemoteDefinitions(ctx, client);
    if (ctx.globals.json) ctx.out.printJson({ deleted: model });
    ctx.out.success(`Deleted model definition "${model.modelName}" (${model.id})`);
  },
});

function overrideHint(name: string, pattern: string): string {
  return `Override it instead, with a custom definition of the same name: llmobs models create --name '${name}' --match-pattern '${pattern}' --price ...`;
}
