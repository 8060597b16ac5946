// Where model definitions come from: the one place every command that matches model names,
// counts tokens for a model or prices a generation asks (`estimate`, `tokens count --model`,
// `models match`; `models lint` reads files and the profile's definitions here too).
//
// The rule, the same for every command:
// - `--offline`: the built-in catalogue bundled with llmobs. Never the network.
// - `--remote`: the project's definitions on the configured server (its own and the
//   Langfuse-managed ones, every page), exactly what the server matches against.
// - neither: the project's definitions when a server with credentials is configured (a profile,
//   or a key pair in the environment), else the built-in catalogue. So `npx llmobs estimate` works
//   with no account, and an operator with a profile gets the prices the server will charge.
// `--models-file` adds custom definitions on top of either, as if they had been created in the
// project; a file that holds Langfuse-managed definitions (a saved `models list --all --json`)
// replaces the catalogue (offline only). Every output says which definitions it used.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { listAllModels } from './api/models.js';
import { type ApiModel, ModelSchema } from './api/schemas/models.js';
import type { ApiClient } from './api/client.js';
import type { ResolvedConfig } from './config/resolve.js';
import type { Context } from './context.js';
import { checkDefinitionInput } from './core/models/checks.js';
import { draftToDefinition, normalizeDraftInput } from './core/models/draft.js';
import type { DefinitionIssue } from './core/models/issues.js';
import { validatePattern } from './core/models/pattern.js';
import { type ModelDefinition, modelDefinitionSchema } from './core/models/types.js';
import { builtInDefinitions, catalogueInfo } from './data/catalogue.js';
import { CliError, UsageError } from './errors.js';
import { parseJsonOrYaml, readTextInput } from './io/files.js';

// ---- models files ----------------------------------------------------------------------------

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

function invalidLabel(path: string, item: InvalidDefinition): string {
  return `definition ${item.position}${item.modelName !== null ? ` ("${item.modelName}")` : ''} of ${path}`;
}

/**
 * The definitions an offline command sees: the file's, plus the built-in catalogue. A file that
 * holds Langfuse-managed definitions (a saved `models list --all --json`) brings its own
 * built-in set, which then replaces the bundled catalogue.
 */
export function offlineDefinitions(fromFile: readonly ModelDefinition[] = []): { definitions: ModelDefinition[]; builtIn: 'catalogue' | 'file' } {
  if (fromFile.some((d) => d.isLangfuseManaged)) return { definitions: [...fromFile], builtIn: 'file' };
  return { definitions: [...fromFile, ...builtInDefinitions()], builtIn: 'catalogue' };
}

// ---- the rule --------------------------------------------------------------------------------

export type DefinitionsMode = 'auto' | 'offline' | 'remote';

/** --offline and --remote pick the source of definitions; neither lets the configuration decide. */
export function definitionsMode(opts: { offline?: unknown; remote?: unknown }): DefinitionsMode {
  if (opts.offline === true && opts.remote === true) throw new UsageError('use --offline or --remote, not both');
  return opts.offline === true ? 'offline' : opts.remote === true ? 'remote' : 'auto';
}

/** Which definitions a command used, for its output (`definitions` in --json). */
export interface DefinitionsOrigin {
  /** `project`: the configured server's; `catalogue`: the built-in catalogue; `file`: the models file's own built-in set. */
  source: 'project' | 'catalogue' | 'file';
  /** Why this source: the flag, or what is (not) configured. */
  why: string;
  baseUrl: string | null;
  credentialsFrom: string | null;
  /** When the project's definitions were read from the server. */
  fetchedAt: string | null;
  cached: boolean;
  /** The catalogue's generation date, when it was used. */
  catalogue: { generatedAt: string; count: number } | null;
  modelsFile: string | null;
  total: number;
  custom: number;
  builtIn: number;
  /** Definitions of the models file that have errors and were set aside. */
  invalid: Array<{ position: number; modelName: string | null; errors: string[] }>;
}

export interface LoadedDefinitions {
  definitions: ModelDefinition[];
  origin: DefinitionsOrigin;
  /** Why a definition must not be used, by id (the stand-ins of invalid file definitions). */
  unusable: ReadonlyMap<string, string>;
}

export interface LoadOptions {
  mode: DefinitionsMode;
  modelsFile?: string | undefined;
  /** Accept a cached copy of the project's definitions at most this old (0: always ask the server). */
  maxAgeMs: number;
}

/** How long cached project definitions are used by commands that accept a slightly old copy. */
export const REMOTE_CACHE_TTL_MS = 10 * 60_000;

const OFFLINE_HINT = 'To use the built-in catalogue instead, pass --offline.';
const NOTHING_CONFIGURED = 'no profile or keys are configured';

/** Whether the rule picks the project's definitions, and why. Throws when the settings are unusable. */
async function chooseProject(ctx: Context, mode: DefinitionsMode): Promise<{ project: boolean; why: string }> {
  if (mode === 'offline') return { project: false, why: '--offline' };
  if (mode === 'remote') return { project: true, why: '--remote' };
  // Nothing that could select a server: no flag, no variable, no profile file. Decided without
  // loading the profile store, so a first `npx llmobs estimate` stays quick.
  const { ENVIRONMENT_VARIABLES } = await import('./config/resolve.js');
  const { profileFilePath } = await import('./config/paths.js');
  const { existsSync } = await import('node:fs');
  if (!ctx.globals.profile && !ctx.globals.baseUrl && !ENVIRONMENT_VARIABLES.some((name) => ctx.env[name]) && !existsSync(profileFilePath(ctx.env))) {
    return { project: false, why: NOTHING_CONFIGURED };
  }
  const { describeConfig } = await import('./config/resolve.js');
  const view = describeConfig({ globals: ctx.globals, env: ctx.env, store: await ctx.profiles() });
  if (view.problem) throw withHint(view.problem, OFFLINE_HINT);
  if (view.credentialsFrom) return { project: true, why: view.profile ? `${view.credentialsFrom} is in use` : `${view.credentialsFrom} are set` };
  if (ctx.globals.profile || ctx.globals.baseUrl) return { project: true, why: ctx.globals.profile ? '--profile' : '--base-url' };
  return { project: false, why: NOTHING_CONFIGURED };
}

function withHint(error: CliError, extra: string): CliError {
  error.hint = error.hint ? `${error.hint}\n${extra}` : extra;
  return error;
}

/** The definitions a command matches and prices with, by the rule above. */
export async function loadDefinitions(ctx: Context, options: LoadOptions): Promise<LoadedDefinitions> {
  const file = options.modelsFile === undefined ? undefined : await loadModelsFile(ctx, options.modelsFile);
  const fromFile = file?.definitions ?? [];
  const { project, why } = await chooseProject(ctx, options.mode);

  let definitions: ModelDefinition[];
  let origin: Omit<DefinitionsOrigin, 'total' | 'custom' | 'builtIn' | 'invalid' | 'modelsFile'>;
  if (project) {
    if (fromFile.some((definition) => definition.isLangfuseManaged)) {
      throw new UsageError(`${file!.path} holds Langfuse-managed definitions, but the server provides those; with the project's definitions a models file may only add custom ones`, {
        hint: 'Use it offline (--offline), where its built-in definitions replace the catalogue.',
      });
    }
    let remote: RemoteDefinitions;
    try {
      remote = await loadRemoteDefinitions(ctx, { maxAgeMs: options.maxAgeMs });
    } catch (error) {
      if (options.mode === 'auto' && error instanceof CliError) throw withHint(error, OFFLINE_HINT);
      throw error;
    }
    definitions = [...fromFile, ...remote.definitions];
    origin = { source: 'project', why, baseUrl: remote.baseUrl, credentialsFrom: remote.credentialsFrom, fetchedAt: remote.fetchedAt, cached: remote.fromCache, catalogue: null };
  } else {
    const offline = offlineDefinitions(fromFile);
    definitions = offline.definitions;
    const info = offline.builtIn === 'catalogue' ? catalogueInfo() : undefined;
    origin = {
      source: offline.builtIn,
      why,
      baseUrl: null,
      credentialsFrom: null,
      fetchedAt: null,
      cached: false,
      catalogue: info ? { generatedAt: info.generatedAt, count: info.count } : null,
    };
  }

  // Invalid definitions of the file stand in for themselves in matching, last among the custom ones.
  const unusable = new Map<string, string>();
  for (const item of file?.invalid ?? []) {
    const label = invalidLabel(file!.path, item);
    ctx.out.warn(`${label} set aside: ${item.errors.join('; ')}${item.standIn ? '' : ' (its pattern cannot be read, so no name can match it)'}`);
    if (item.standIn) {
      definitions.push(item.standIn);
      unusable.set(item.standIn.id, `${label} has errors: ${item.errors.join('; ')}`);
    }
  }
  const usable = definitions.filter((d) => !unusable.has(d.id));
  const custom = usable.filter((d) => !d.isLangfuseManaged).length;
  const full: DefinitionsOrigin = {
    ...origin,
    modelsFile: file?.path ?? null,
    total: usable.length,
    custom,
    builtIn: usable.length - custom,
    invalid: (file?.invalid ?? []).map(({ position, modelName, errors }) => ({ position, modelName, errors })),
  };
  ctx.trace(`models: ${describeOrigin(full)}`);
  return { definitions, origin: full, unusable };
}

/** Refuses a match on a definition that must not be used (a models file's invalid one). */
export function assertUsable(loaded: Pick<LoadedDefinitions, 'unusable'>, definition: Pick<ModelDefinition, 'id'> | null | undefined, model: string): void {
  const reason = definition ? loaded.unusable.get(definition.id) : undefined;
  if (reason !== undefined) {
    throw new UsageError(`"${model}" matches ${reason}`, { hint: 'Fix the definition (see: llmobs models lint --offline --models-file <file>); names it does not match are unaffected.' });
  }
}

/** One line for people: which definitions, from where, and why. */
export function describeOrigin(origin: DefinitionsOrigin): string {
  const counts = `${origin.total} definitions${origin.custom ? `, ${origin.custom} custom` : ''}`;
  let base: string;
  if (origin.source === 'project') {
    const when = origin.cached ? `a cached copy from ${origin.fetchedAt}` : 'fetched now';
    base = `the project's definitions at ${origin.baseUrl} (${origin.credentialsFrom ?? 'no credentials'}, ${when}; ${counts})`;
  } else if (origin.source === 'catalogue') {
    base = `the built-in catalogue (${counts}, generated ${origin.catalogue?.generatedAt.slice(0, 10) ?? 'at build time'})`;
  } else {
    base = `the built-in definitions in ${origin.modelsFile} (${counts})`;
  }
  const file = origin.modelsFile && origin.source !== 'file' ? ` with custom ones from ${origin.modelsFile}` : '';
  const why = origin.why.startsWith('--') ? `by ${origin.why}` : `because ${origin.why}`;
  return `${base}${file}, chosen ${why}`;
}

// ---- the project's definitions ---------------------------------------------------------------

export interface RemoteDefinitions {
  definitions: ApiModel[];
  baseUrl: string;
  credentialsFrom: string | null;
  fetchedAt: string;
  fromCache: boolean;
}

const cacheSchema = z.object({
  version: z.literal(1),
  baseUrl: z.string(),
  fetchedAt: z.string(),
  definitions: z.array(ModelSchema),
});

export function cacheDirectory(env: Record<string, string | undefined>): string {
  if (env.LLMOBS_CACHE_DIR) return env.LLMOBS_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache'), 'llmobs');
}

/** One cache file per server and key; the name is a hash, and the file never holds a secret. */
export function remoteCachePath(env: Record<string, string | undefined>, config: Pick<ResolvedConfig, 'baseUrl' | 'auth'>): string | undefined {
  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  let identity: string;
  if (config.auth.type === 'basic') identity = `basic:${config.auth.publicKey}`;
  else if (config.auth.type === 'bearer') identity = `bearer:${sha(config.auth.apiKey)}`;
  else return undefined;
  return join(cacheDirectory(env), `models-${sha(`${config.baseUrl}\n${identity}`).slice(0, 32)}.json`);
}

async function readCache(ctx: Context, path: string, baseUrl: string, maxAgeMs: number): Promise<Omit<RemoteDefinitions, 'credentialsFrom'> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = cacheSchema.safeParse(JSON.parse(text));
    if (!parsed.success || parsed.data.baseUrl !== baseUrl) return undefined;
    const age = ctx.now().getTime() - Date.parse(parsed.data.fetchedAt);
    if (!(age >= 0 && age <= maxAgeMs)) return undefined;
    ctx.trace(`models: ${parsed.data.definitions.length} definitions from the cache ${path} (${Math.round(age / 1000)} s old)`);
    return { definitions: parsed.data.definitions, baseUrl, fetchedAt: parsed.data.fetchedAt, fromCache: true };
  } catch {
    return undefined;
  }
}

async function writeCache(ctx: Context, path: string, value: RemoteDefinitions): Promise<void> {
  const dir = cacheDirectory(ctx.env);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temp, JSON.stringify({ version: 1, baseUrl: value.baseUrl, fetchedAt: value.fetchedAt, definitions: value.definitions }), { mode: 0o600 });
    await rename(temp, path);
  } catch (error) {
    // A cache that cannot be written only costs a later request.
    ctx.trace(`models: cache not written (${(error as Error).message})`);
    await rm(temp, { force: true }).catch(() => {});
  }
}

/**
 * Every definition the profile's project sees (its own and the managed ones, all pages). With
 * `maxAgeMs` a cached copy at most that old is used instead of asking the server; a fresh answer
 * always refreshes the cache.
 */
export async function loadRemoteDefinitions(ctx: Context, options: { maxAgeMs?: number; client?: ApiClient } = {}): Promise<RemoteDefinitions> {
  const client = options.client ?? (await ctx.api());
  const credentialsFrom = client.config.credentialsFrom ?? null;
  const path = remoteCachePath(ctx.env, client.config);
  if (path && options.maxAgeMs && options.maxAgeMs > 0) {
    const cached = await readCache(ctx, path, client.baseUrl, options.maxAgeMs);
    if (cached) return { ...cached, credentialsFrom };
  }
  const definitions = await listAllModels(client);
  const fresh: RemoteDefinitions = { definitions, baseUrl: client.baseUrl, credentialsFrom, fetchedAt: ctx.now().toISOString(), fromCache: false };
  if (path) await writeCache(ctx, path, fresh);
  return fresh;
}

/** Drops the cached copy after a change, so no command prices with a definition that is gone. */
export async function forgetRemoteDefinitions(ctx: Context, client: ApiClient): Promise<void> {
  const path = remoteCachePath(ctx.env, client.config);
  if (path) await rm(path, { force: true }).catch(() => {});
}
