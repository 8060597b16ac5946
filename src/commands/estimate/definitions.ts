// Which model definitions an offline estimate sees: the built-in catalogue, plus custom ones from a
// file (JSON or YAML, one definition or a list, in the API shape or the spec's shape), which take
// precedence exactly as a project's own definitions do on the server.
import type { Context } from '../../context.js';
import { checkDefinitionInput, draftToDefinition, modelDefinitionSchema, type ModelDefinition } from '../../core/index.js';
import { builtInDefinitions } from '../../data/catalogue.js';
import { UsageError } from '../../errors.js';
import { parseJsonOrYaml, readTextInput } from '../../io/files.js';

export interface DefinitionSet {
  definitions: ModelDefinition[];
  custom: number;
  builtIn: number;
}

export async function loadDefinitions(ctx: Context, options: { modelsFile?: string | undefined }): Promise<DefinitionSet> {
  const custom = options.modelsFile === undefined ? [] : await loadModelsFile(ctx, options.modelsFile);
  const builtIn = builtInDefinitions();
  return { definitions: [...custom, ...builtIn], custom: custom.length, builtIn: builtIn.length };
}

export async function loadModelsFile(ctx: Context, file: string): Promise<ModelDefinition[]> {
  const source = file === '-' ? 'stdin' : file;
  const raw = await parseJsonOrYaml(await readTextInput(ctx, file), source);
  const entries = Array.isArray(raw) ? raw : [raw];
  const problems: string[] = [];
  const definitions = entries.flatMap((entry, index): ModelDefinition[] => {
    const where = Array.isArray(raw) ? `${source}[${index}]` : source;
    // Objects exported from the API (e.g. `llmobs models list --json`) are used as they are.
    const asApiObject = modelDefinitionSchema.safeParse(entry);
    if (asApiObject.success && typeof (entry as { id?: unknown }).id === 'string') return [asApiObject.data as ModelDefinition];
    const checked = checkDefinitionInput(entry);
    for (const issue of checked.issues) {
      const text = `${where}${issue.path ? ` ${issue.path}` : ''}: ${issue.message}`;
      if (issue.severity === 'error') problems.push(text);
      else ctx.out.warn(text);
    }
    return checked.draft ? [draftToDefinition(checked.draft, { id: `${source}#${index}` })] : [];
  });
  if (problems.length) throw new UsageError(`${source} has invalid model definitions:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  return definitions;
}
