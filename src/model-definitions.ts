// Where model definitions come from, for every command that matches model names or prices
// generations: a local file (--models-file), the built-in catalogue, or the profile's server (all
// pages, optionally from a cache under $XDG_CACHE_HOME/llmobs keyed by server and public key).
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import type { ApiModel } from './api/schemas/models.js';
import type { ApiClient } from './api/client.js';
import type { ResolvedConfig } from './config/resolve.js';
import type { Context } from './context.js';
import type { DefinitionIssue } from './core/models/issues.js';
import type { ModelDefinition } from './core/models/types.js';
import { builtInDefinitions } from './data/catalogue.js';
import { UsageError } from './errors.js';
import { parseJsonOrYaml, readTextInput } from './io/files.js';

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
  // Loaded here, not at the top: the offline commands that read no file (estimate, models match)
  // then start without zod and the definition checks.
  const [{ checkDefinitionInput }, { draftToDefinition }, { modelDefinitionSchema }] = await Promise.all([
    import('./core/models/checks.js'),
    import('./core/models/draft.js'),
    import('./core/models/schemas.js'),
  ]);
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

function entryLabel(entry: FileDefinition): string {
  const name = isRecord(entry.raw) ? (entry.raw['modelName'] ?? entry.raw['name']) : undefined;
  return `definition ${entry.index + 1}${typeof name === 'string' ? ` ("${name}")` : ''}`;
}

/** The definitions of a models file; any definition with errors makes it a usage error. */
export async function loadModelsFile(ctx: Context, path: string): Promise<ModelDefinition[]> {
  const entries = await readModelsFile(ctx, path);
  const broken = entries.filter((entry) => !entry.definition);
  if (broken.length > 0) {
    const lines = broken.flatMap((entry) =>
      entry.issues.filter((i) => i.severity === 'error').map((i) => `  - ${entryLabel(entry)}${i.path ? `, ${i.path}` : ''}: ${i.message}`),
    );
    throw new UsageError(`${path === '-' ? 'stdin' : path} has ${broken.length === 1 ? 'a definition' : `${broken.length} definitions`} the server would reject:\n${lines.join('\n')}`, {
      hint: 'Check a definition with: llmobs models lint --offline --models-file <file>',
      details: broken.map((entry) => ({ index: entry.index, issues: entry.issues })),
    });
  }
  return entries.map((entry) => entry.definition!);
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

// ---- the profile's definitions ---------------------------------------------------------------

/** How long cached remote definitions are used by commands that accept a slightly old copy. */
export const REMOTE_CACHE_TTL_MS = 10 * 60_000;

export interface RemoteDefinitions {
  definitions: ApiModel[];
  baseUrl: string;
  fetchedAt: string;
  fromCache: boolean;
}

let cacheSchemaInstance: z.ZodType<{ version: 1; baseUrl: string; fetchedAt: string; definitions: ApiModel[] }> | undefined;

/** The cache file's schema, built on first use (zod loads only for commands that use the cache). */
async function cacheSchema(): Promise<NonNullable<typeof cacheSchemaInstance>> {
  if (!cacheSchemaInstance) {
    const [{ z }, { ModelSchema }] = await Promise.all([import('zod'), import('./api/schemas/models.js')]);
    cacheSchemaInstance = z.object({
      version: z.literal(1),
      baseUrl: z.string(),
      fetchedAt: z.string(),
      definitions: z.array(ModelSchema),
    });
  }
  return cacheSchemaInstance;
}

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

async function readCache(ctx: Context, path: string, baseUrl: string, maxAgeMs: number): Promise<RemoteDefinitions | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = (await cacheSchema()).safeParse(JSON.parse(text));
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
  const path = remoteCachePath(ctx.env, client.config);
  if (path && options.maxAgeMs && options.maxAgeMs > 0) {
    const cached = await readCache(ctx, path, client.baseUrl, options.maxAgeMs);
    if (cached) return cached;
  }
  const { listAllModels } = await import('./api/models.js');
  const definitions = await listAllModels(client);
  const fresh: RemoteDefinitions = { definitions, baseUrl: client.baseUrl, fetchedAt: ctx.now().toISOString(), fromCache: false };
  if (path) await writeCache(ctx, path, fresh);
  return fresh;
}

/** Drops the cached copy after a change, so no command prices with a definition that is gone. */
export async function forgetRemoteDefinitions(ctx: Context, client: ApiClient): Promise<void> {
  const path = remoteCachePath(ctx.env, client.config);
  if (path) await rm(path, { force: true }).catch(() => {});
}
