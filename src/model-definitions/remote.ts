// The project's definitions, read from its server (every page) and kept for a while in a cache
// under $XDG_CACHE_HOME/llmobs, one file per server and key, named by a hash, holding no secret.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { z } from 'zod';
import type { ApiModel } from '../api/schemas/models.js';
import type { ApiClient } from '../api/client.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { Context } from '../context.js';
import { UnknownCondition } from '../core/models/types.js';

export interface RemoteDefinitions {
  definitions: ApiModel[];
  baseUrl: string;
  credentialsFrom: string | null;
  fetchedAt: string;
  fromCache: boolean;
}

let cacheSchemaInstance: z.ZodType<ApiModel[]> | undefined;

/** The definitions' schema, built on first use: zod and the API schemas load only when needed. */
async function definitionsSchema(): Promise<NonNullable<typeof cacheSchemaInstance>> {
  if (!cacheSchemaInstance) {
    const [{ z }, { ModelSchema }] = await Promise.all([import('zod'), import('../api/schemas/models.js')]);
    cacheSchemaInstance = z.array(ModelSchema);
  }
  return cacheSchemaInstance;
}

/**
 * The cache file: a header line, then the definitions as JSON.
 *
 *   {"version":2,"baseUrl":...,"fetchedAt":...,"count":167,"sha256":"<hex of the second line>","plain":true}
 *   [{...definition...}, ...]
 *
 * The definitions were checked against the API's schema when they were fetched. The digest proves
 * that the line read is the line written, so a fresh copy is used without loading zod to check it
 * again (some 25 ms of an `estimate` with a profile). `plain` says that the definitions read back
 * from JSON exactly as the schema would read them; it is false when a pricing tier has a condition
 * of a kind llmobs does not know (kept as an object of its own), and such a copy is read through
 * the schema. Any other file (an older format, a damaged or edited one) is not used: the server is
 * asked again and the file rewritten.
 */
const CACHE_VERSION = 2;

interface CacheHeader {
  version: typeof CACHE_VERSION;
  baseUrl: string;
  fetchedAt: string;
  count: number;
  sha256: string;
  plain: boolean;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

export function cacheDirectory(env: Record<string, string | undefined>): string {
  if (env.LLMOBS_CACHE_DIR) return env.LLMOBS_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.cache'), 'llmobs');
}

/** One cache file per server and key; the name is a hash, and the file never holds a secret. */
export function remoteCachePath(env: Record<string, string | undefined>, config: Pick<ResolvedConfig, 'baseUrl' | 'auth'>): string | undefined {
  let identity: string;
  if (config.auth.type === 'basic') identity = `basic:${config.auth.publicKey}`;
  else if (config.auth.type === 'bearer') identity = `bearer:${sha256(config.auth.apiKey)}`;
  else return undefined;
  return join(cacheDirectory(env), `models-${sha256(`${config.baseUrl}\n${identity}`).slice(0, 32)}.json`);
}

/** Whether JSON.parse of the definitions' JSON gives them back exactly (see the file format). */
function readsBackPlain(definitions: readonly ApiModel[]): boolean {
  return definitions.every((d) => (d.pricingTiers ?? []).every((tier) => tier.conditions.every((c) => !(c instanceof UnknownCondition))));
}

function isHeader(value: unknown): value is CacheHeader {
  const h = value as CacheHeader | null;
  return (
    typeof h === 'object' &&
    h !== null &&
    h.version === CACHE_VERSION &&
    typeof h.baseUrl === 'string' &&
    typeof h.fetchedAt === 'string' &&
    Number.isSafeInteger(h.count) &&
    typeof h.sha256 === 'string' &&
    typeof h.plain === 'boolean'
  );
}

async function readCache(ctx: Context, path: string, baseUrl: string, maxAgeMs: number): Promise<Omit<RemoteDefinitions, 'credentialsFrom'> | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const newline = text.indexOf('\n');
    if (newline === -1) return undefined;
    const header: unknown = JSON.parse(text.slice(0, newline));
    if (!isHeader(header) || header.baseUrl !== baseUrl) return undefined;
    const age = ctx.now().getTime() - Date.parse(header.fetchedAt);
    if (!(age >= 0 && age <= maxAgeMs)) return undefined;
    const body = text.slice(newline + 1);
    if (sha256(body) !== header.sha256) {
      ctx.trace(`models: the cache ${path} does not read as it was written; asking the server`);
      return undefined;
    }
    const raw: unknown = JSON.parse(body);
    let definitions: ApiModel[];
    if (header.plain && Array.isArray(raw)) {
      definitions = raw as ApiModel[];
    } else {
      const parsed = (await definitionsSchema()).safeParse(raw);
      if (!parsed.success) return undefined;
      definitions = parsed.data;
    }
    if (definitions.length !== header.count) return undefined;
    ctx.trace(`models: ${definitions.length} definitions from the cache ${path} (${Math.round(age / 1000)} s old)`);
    return { definitions, baseUrl, fetchedAt: header.fetchedAt, fromCache: true };
  } catch {
    return undefined;
  }
}

async function writeCache(ctx: Context, path: string, value: RemoteDefinitions): Promise<void> {
  const dir = cacheDirectory(ctx.env);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    const body = JSON.stringify(value.definitions);
    const header: CacheHeader = {
      version: CACHE_VERSION,
      baseUrl: value.baseUrl,
      fetchedAt: value.fetchedAt,
      count: value.definitions.length,
      sha256: sha256(body),
      plain: readsBackPlain(value.definitions),
    };
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temp, `${JSON.stringify(header)}\n${body}`, { mode: 0o600 });
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
