// Models files: one definition, an array, or a saved list page, in JSON or YAML, API or spec
// shape. Each definition is checked; one with errors is set aside with a stand-in that still
// matches the names it would match, so only those names are refused.
import type { Context } from '../context.js';
import type { DefinitionIssue } from '../core/models/issues.js';
import type { ModelDefinition } from '../core/models/types.js';
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

// The checks (and zod) load when a file is read, not with this module: `estimate` and
// `models match` without --models-file start without them.
let lib: {
  checkDefinitionInput: typeof import('../core/models/checks.js').checkDefinitionInput;
  draftToDefinition: typeof import('../core/models/draft.js').draftToDefinition;
  normalizeDraftInput: typeof import('../core/models/draft.js').normalizeDraftInput;
  validatePattern: typeof import('../core/models/pattern.js').validatePattern;
  modelDefinitionSchema: typeof import('../core/models/schemas.js').modelDefinitionSchema;
};
async function loadLib(): Promise<typeof lib> {
  if (!lib) {
    const [checks, draft, pattern, schemas] = await Promise.all([
      import('../core/models/checks.js'),
      import('../core/models/draft.js'),
      import('../core/models/pattern.js'),
      import('../core/models/schemas.js'),
    ]);
    lib = { ...checks, ...draft, ...pattern, ...schemas };
  }
  return lib;
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
  await loadLib();
  const ids = new Set<string>();
  return entries.map((raw, index): FileDefinition => {
    const { issues, draft } = lib.checkDefinitionInput(raw);
    // A definition saved from the API keeps its id and whether it is Langfuse-managed.
    const stored = isRecord(raw) && typeof raw['id'] === 'string' ? lib.modelDefinitionSchema.safeParse(raw) : undefined;
    let definition: ModelDefinition | undefined;
    if (stored?.success) definition = stored.data;
    else if (draft) {
      let id = isRecord(raw) && typeof raw['id'] === 'string' ? raw['id'] : `local:${draft.modelName}`;
      for (let n = 2; ids.has(id); n++) id = `local:${draft.modelName}#${n}`;
      definition = lib.draftToDefinition(draft, { id, isLangfuseManaged: isRecord(raw) && raw['isLangfuseManaged'] === true });
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
  const { input } = lib.normalizeDraftInput(entry.raw);
  const { modelName, matchPattern, startDate } = input;
  if (typeof modelName !== 'string' || typeof matchPattern !== 'string' || lib.validatePattern(matchPattern).valid === false) return undefined;
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
