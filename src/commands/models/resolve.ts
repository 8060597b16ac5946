// `<id|name>` arguments: an exact id wins; otherwise the name is looked up in the full list. A name
// several definitions share (an override and the built-in it overrides) is ambiguous, except for
// commands that only make sense for the project's own definitions.
import type { ApiClient } from '../../api/client.js';
import { getModel, listAllModels } from '../../api/models.js';
import type { ApiModel } from '../../api/schemas/models.js';
import { ApiNotFoundError, NotFoundError, UsageError } from '../../errors.js';

export interface Resolved {
  model: ApiModel;
  /** The full list, when it had to be read. */
  all: ApiModel[] | undefined;
}

export async function resolveModel(client: ApiClient, ref: string, options: { customOnly?: boolean } = {}): Promise<Resolved> {
  if (ref.trim() === '') throw new UsageError('the model id or name is empty');
  try {
    return { model: await getModel(client, ref), all: undefined };
  } catch (error) {
    if (!(error instanceof ApiNotFoundError)) throw error;
  }
  const all = await listAllModels(client);
  const named = all.filter((m) => m.modelName === ref);
  if (named.length === 1) return { model: named[0]!, all };
  if (named.length === 0) {
    const lower = ref.toLowerCase();
    const near = all.filter((m) => m.modelName.toLowerCase() === lower || m.modelName.toLowerCase().includes(lower)).slice(0, 5);
    throw new NotFoundError(`no model definition has the id or name "${ref}"`, {
      hint: near.length
        ? `Names are matched exactly. Similar: ${near.map((m) => `"${m.modelName}"`).join(', ')}`
        : 'See them with: llmobs models list --all (or find what a model name matches with: llmobs models match <model-name>)',
    });
  }
  if (options.customOnly) {
    const custom = named.filter((m) => !m.isLangfuseManaged);
    if (custom.length === 1) return { model: custom[0]!, all };
  }
  const lines = named.map((m) => `  ${m.id}  ${m.isLangfuseManaged ? 'built-in' : 'custom  '}  ${m.matchPattern}${m.startDate ? `  from ${m.startDate}` : ''}`);
  throw new UsageError(`"${ref}" is the name of ${named.length} model definitions:\n${lines.join('\n')}`, {
    hint: 'Pass the id of the one you mean.',
    details: named.map((m) => ({ id: m.id, modelName: m.modelName, matchPattern: m.matchPattern, isLangfuseManaged: m.isLangfuseManaged, startDate: m.startDate })),
  });
}
