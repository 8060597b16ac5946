// llmobs models create: create a model definition from flags or a file.
import { ApiError, UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';
import { definitionFlags } from './definition-flags.js';

export default defineCommand({
  name: 'create',
  summary: 'create a model definition from flags or a file; checked before sending (exit 2 and nothing sent when the server would reject or misread it)',
  flags: [
    ...definitionFlags('create'),
  ],
  examples: [
    'llmobs models create --name my-model --price input=2.5/1M --price output=10/1M --tokenizer openai --tokenizer-model gpt-4o --tokens-per-message 3 --tokens-per-name 1',
    'llmobs models create --name ft:gpt-4o:acme --match-pattern \'(?i)^ft:gpt-4o:acme(:.+)?$\' --price input=3.75/1M --price output=15/1M',
    'llmobs models create --file model.yaml --dry-run',
  ],
  async run(ctx, { opts: given }) {
    const [{ createModel, MODELS_PATH }, { forgetRemoteDefinitions }, { DefinitionFlags, emptyInput, hasDefinitionChanges, layeredDefinition, readDefinitionFile }, { printChanged }, { builtInDefinitions }] = await Promise.all([import('../../api/models.js'), import('../../model-definitions/remote.js'), import('./draft-input.js'), import('./render.js'), import('../../data/catalogue.js')]);
    const flags = parseOptions(DefinitionFlags, given);
    if (!hasDefinitionChanges(flags)) {
      throw new UsageError('nothing to create: give the definition with flags or --file', {
        hint: 'For example: llmobs models create --name my-model --price input=2.5/1M --price output=10/1M',
      });
    }
    const file = flags.file !== undefined ? await readDefinitionFile(ctx, flags.file) : undefined;
    const { body } = layeredDefinition(ctx, emptyInput(), file, flags, { exactPatternByDefault: true });
    if (flags.dryRun) {
      ctx.out.printJson(body);
      ctx.out.info(`Dry run: POST ${MODELS_PATH} was not sent.`);
      return;
    }

    const client = await ctx.api();
    const model = await createModel(client, body).catch((error: unknown) => {
      if (error instanceof ApiError && error.status === 400 && /already exists/i.test(error.serverMessage ?? '')) {
        error.hint = `Change the existing one with: llmobs models update '${body.modelName}' ..., or pick another --name.`;
      }
      throw error;
    });
    await forgetRemoteDefinitions(ctx, client);
    printChanged(ctx, model, `Created model definition "${model.modelName}" (${model.id})`);
    if (builtInDefinitions().some((d) => d.modelName === model.modelName)) {
      ctx.out.hint(`It overrides the built-in "${model.modelName}" for every model name its pattern matches.`);
    }
    ctx.out.hint(`See what a model name matches with: llmobs models match <model-name>`);
  },
});
