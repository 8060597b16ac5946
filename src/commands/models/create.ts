import { createModel, MODELS_PATH } from '../../api/models.js';
import type { Context } from '../../context.js';
import type { DefinitionIssue } from '../../core/models/issues.js';
import { ApiError, UsageError } from '../../errors.js';
import { forgetRemoteDefinitions } from '../../model-definitions/remote.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { applyFlags, checkForSending, DefinitionFlags, emptyInput, exactPattern, hasDefinitionChanges, overlay, readDefinitionFile } from './draft-input.js';
import { printChanged } from './render.js';

export default async function action(ctx: Context, { opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(DefinitionFlags, opts));
}

export async function run(ctx: Context, flags: DefinitionFlags): Promise<void> {
  if (!hasDefinitionChanges(flags)) {
    throw new UsageError('nothing to create: give the definition with flags or --file', {
      hint: 'For example: llmobs models create --name my-model --price input=2.5/1M --price output=10/1M',
    });
  }
  let input = emptyInput();
  let earlier: DefinitionIssue[] = [];
  if (flags.file !== undefined) {
    const file = await readDefinitionFile(ctx, flags.file);
    input = overlay(input, file.input);
    earlier = file.issues;
  }
  const notes: string[] = [];
  input = applyFlags(input, flags, notes);
  if (input.matchPattern === undefined && typeof input.modelName === 'string' && input.modelName !== '') {
    input = { ...input, matchPattern: exactPattern(input.modelName) };
    notes.push(`no match pattern given: using ${input.matchPattern as string} (this name exactly, in any case)`);
  }
  for (const note of notes) ctx.out.info(note);
  const { body } = checkForSending(ctx, input, { strict: flags.strict, fromFile: flags.file !== undefined, earlier });

  if (flags.dryRun) {
    ctx.out.printJson(body);
    ctx.out.info(`Dry run: POST ${MODELS_PATH} was not sent.`);
    return;
  }
  const client = await ctx.api();
  let model;
  try {
    model = await createModel(client, body);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400 && /already exists/i.test(error.serverMessage ?? '')) {
      error.hint = `Change the existing one with: llmobs models update '${body.modelName}' ..., or pick another --name.`;
    }
    throw error;
  }
  await forgetRemoteDefinitions(ctx, client);
  printChanged(ctx, model, `Created model definition "${model.modelName}" (${model.id})`);
  const { builtInDefinitions } = await import('../../data/catalogue.js');
  if (builtInDefinitions().some((d) => d.modelName === model.modelName)) {
    ctx.out.hint(`It overrides the built-in "${model.modelName}" for every model name its pattern matches.`);
  }
  ctx.out.hint(`See what a model name matches with: llmobs models match <model-name>`);
}
