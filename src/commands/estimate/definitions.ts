// Which model definitions an offline estimate sees: the built-in catalogue plus custom ones from
// --models-file (they take precedence, as a project's own definitions do on the server), or with
// --remote the profile's definitions exactly as the server has them (cached for a while).
import type { Context } from '../../context.js';
import type { ModelDefinition } from '../../core/index.js';
import { UsageError } from '../../errors.js';
import { loadModelsFile, loadRemoteDefinitions, offlineDefinitions, REMOTE_CACHE_TTL_MS } from '../../model-definitions.js';

export interface DefinitionOptions {
  modelsFile?: string | undefined;
  remote?: boolean | undefined;
}

export async function loadDefinitions(ctx: Context, options: DefinitionOptions): Promise<{ definitions: ModelDefinition[] }> {
  const fromFile = options.modelsFile === undefined ? [] : await loadModelsFile(ctx, options.modelsFile);
  if (!options.remote) return { definitions: offlineDefinitions(fromFile).definitions };
  if (fromFile.some((definition) => definition.isLangfuseManaged)) {
    throw new UsageError('with --remote the server provides the built-in definitions; --models-file may only add custom ones');
  }
  const remote = await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS });
  if (remote.fromCache) ctx.out.hint(`Using the definitions of ${remote.baseUrl} fetched at ${remote.fetchedAt} (cached; they refresh after 10 minutes).`);
  return { definitions: [...fromFile, ...remote.definitions] };
}
