// The project's definitions, read from its server (every page) and kept for a while in a cache
// under $XDG_CACHE_HOME/llmobs, one file per server and key, named by a hash, holding no secret.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import type { ApiModel } from '../api/schemas/models.js';
import type { ApiClient } from '../api/client.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { Context } from '../context.js';

export interface RemoteDefinitions {
  definitions: ApiModel[];
  baseUrl: string;
  credentialsFrom: string | null;
  fetchedAt: string;
  fromCache: boolean;
}

let cacheSchemaInstance: z.ZodType<{ version: 1; baseUrl: string; fetchedAt: string; definitions: ApiModel[] }> | undefined;

/** The cache file's schema, built on first use: zod and the API schemas load only with the cache. */
async function cacheSchema(): Promise<NonNullable<typeof cacheSchemaInstance>> {
  if (!cacheSchemaInstance) {
    const [{ z }, { ModelSchema }] = await Promise.all([import('zod'), import('../api/schemas/models.js')]);
    cacheSchemaInstance = z.object({ version: z.literal(1), baseUrl: z.string(), fetchedAt: z.string(), definitions: z.array(ModelSchema) });
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

async function readCache(ctx: Context, path: string, baseUrl: string, maxAgeMs: number): Promise<Omit<RemoteDefinitions, 'credentialsFrom'> | undefined> {
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
  // The client (and the HTTP stack with it) only when the server is asked: a fresh cached copy
  // needs the settings alone.
  const config = options.client?.config ?? (await ctx.resolveConfig({ auth: true }));
  const credentialsFrom = config.credentialsFrom ?? null;
  const path = remoteCachePath(ctx.env, config);
  if (path && options.maxAgeMs && options.maxAgeMs > 0) {
    const cached = await readCache(ctx, path, config.baseUrl, options.maxAgeMs);
    if (cached) return { ...cached, credentialsFrom };
  }
  const client = options.client ?? (await ctx.apiFor(config));
  const { listAllModels } = await import('../api/models.js');
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
