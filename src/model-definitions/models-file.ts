// Models files: one definition, an array, or a saved list page, in JSON or YAML, API or spec
// shape. Each definition is checked; one with errors is set aside with a stand-in that still
// matches the names it would match, so only those names are refused.
import type { Context } from '../context.js';
import { checkDefinitionInput } from '../core/models/checks.js';
import { draftToDefinition, normalizeDraftInput } from '../core/models/draft.js';
import type { DefinitionIssue } from '../core/models/issues.js';
import { validatePattern } from '../core/models/pattern.js';
import { type ModelDefinition, modelDefinitionSchema } from '../core/models/types.js';
import { UsageError } from '../errors.js';
import { parseJsonOrYaml, readTextInput } from '../io/files.js';

/** One definition read from a models file, with what the checks found in it. */
export interface FileDefinition {
  /** 0-based position in the file. */
  index: number;
  raw: unknown;
  /** Absent when the entry has errors. */
  definition: ModelDefinition | undefined;
  issues: DefinitionIssue[];
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The entries of a models file: one definition, an array, or a saved list page (`{data: [...]}`). */
function entriesOf(document: unknown, source: string): unknown[] {
  if (Array.isArray(document)) return document;
  if (isRecord(document) && Array.isArray(document['data'])) return document['data'];
  if (isRecord(document)) return [document];
  throw new UsageError(`${source} must hold a model definition, an array of them, or a saved list ({"data": [...]})`);
}

/** Reads and checks every definition in a file (JSON or YAML, API or spec shape; `-` is stdin). */
export async function readModelsFile(ctx: Context, path: string): Promise<FileDefinition[]> {
  const source = path === '-' ? 'stdin' : path;
  const entries = entriesOf(await parseJsonOrYaml(await readTextInput(ctx, path), source), source);
  const ids = new Set<string>();
  return entries.map((raw, index): FileDefinition => {
    const { issues, draft } = checkDefinitionInput(raw);
    // A definition saved from the API keeps its id and whether it is Langfuse-managed.
    const stored = isRecord(raw) && typeof raw['id'] === 'string' ? modelDefinitionSchema.safeParse(raw) : undefined;
    let definition: ModelDefinition | undefined;
    if (stored?.success) definition = stored.data;
    else if (draft) {
      let id = isRecord(raw) && typeof raw['id'] === 'string' ? raw['id'] : `local:${draft.modelName}`;
      for (let n = 2; ids.has(id); n++) id = `local:${draft.modelName}#${n}`;
      definition = draftToDefinition(draft, { id, isLangfuseManaged: isRecord(raw) && raw['isLangfuseManaged'] === true });
    }
    if (definition) ids.add(definition.id);
    // Fields a newer server added are not the file author's mistake.
    return { index, raw, definition, issues: stored?.success ? issues.filter((i) => i.code !== 'unknown-field') : issues };
  });
}

/** A definition of a models file that has errors: reported, and refused only where it would be used. */
export interface InvalidDefinition {
  /** 1-based position in the file. */
  position: number;
  modelName: string | null;
  errors: string[];
  /**
   * Stands in for it in matching when its pattern can be read: a name it would win for is
   * refused (rather than silently priced with another definition); other names are unaffected.
   */
  standIn: ModelDefinition | undefined;
}

export interface ModelsFile {
  path: string;
  definitions: ModelDefinition[];
  invalid: InvalidDefinition[];
}

function standInFor(entry: FileDefinition): ModelDefinition | undefined {
  const { input } = normalizeDraftInput(entry.raw);
  const { modelName, matchPattern, startDate } = input;
  if (typeof modelName !== 'string' || typeof matchPattern !== 'string' || validatePattern(matchPattern).valid === false) return undefined;
  const start = typeof startDate === 'string' && !Number.isNaN(Date.parse(startDate)) ? startDate : null;
  return {
    id: `invalid:${entry.index + 1}`,
    modelName,
    matchPattern,
    startDate: start,
    unit: null,
    inputPrice: null,
    outputPrice: null,
    totalPrice: null,
    tokenizerId: null,
    tokenizerConfig: null,
    isLangfuseManaged: false,
    createdAt: null,
    prices: {},
    pricingTiers: [],
  };
}

/** The definitions of a models file; definitions with errors are set aside, not fatal. */
export async function loadModelsFile(ctx: Context, path: string): Promise<ModelsFile> {
  const entries = await readModelsFile(ctx, path);
  const definitions: ModelDefinition[] = [];
  const invalid: InvalidDefinition[] = [];
  for (const entry of entries) {
    if (entry.definition) {
      definitions.push(entry.definition);
      continue;
    }
    const name = isRecord(entry.raw) ? (entry.raw['modelName'] ?? entry.raw['name'] ?? entry.raw['model_name']) : undefined;
    invalid.push({
      position: entry.index + 1,
      modelName: typeof name === 'string' ? name : null,
      errors: entry.issues.filter((i) => i.severity === 'error').map((i) => `${i.path ? `${i.path}: ` : ''}${i.message}`),
      standIn: standInFor(entry),
    });
  }
  return { path: path === '-' ? 'stdin' : path, definitions, invalid };
}

export function invalidLabel(path: string, item: InvalidDefinition): string {
  return `definition ${item.position}${item.modelName !== null ? ` ("${item.modelName}")` : ''} of ${path}`;
}
