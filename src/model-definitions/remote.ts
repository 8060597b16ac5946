// The project's definitions, read from its server (every page) and kept for a while in a cache
// under $XDG_CACHE_HOME/llmobs, one file per server and key, named by a hash, holding no secret.
// A cached copy is read without node:crypto and node:fs/promises: an `estimate` with a profile
// would otherwise load them, and the stream and readline modules they bring, at every run.
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { ApiModel } from '../api/schemas/models.js';
import type { ApiClient } from '../api/client.js';
import type { ResolvedConfig } from '../config/resolve.js';
import type { Context } from '../context.js';
import { nameHash, sha256Hex } from '../core/hashes.js';
import { cacheDirectory, removeOldCacheFiles, writeCacheFile } from '../io/cache-files.js';
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
 *   {"version":4,"build":"<id>","baseUrl":...,"identity":"<hash>","fetchedAt":...,"count":167,"length":185012,"plain":true}
 *   [{...definition...}, ...]
 *
 * The definitions were checked against the API's schema when they were fetched, and the file is
 * written whole under a temporary name, then renamed, in a folder of this user's. A copy is used
 * as it reads, without checking it again (zod would load at every `estimate` with a profile), when
 * this build wrote it (`build`, a digest of the build's sources: another build may read the API
 * differently), of the same server and key (`identity`, a hash of the public key or of a digest
 * of an API key, apart from the one that names the file: two keys whose names collide are told
 * apart), and its second line has the length written, parses, and holds the number of
 * definitions written. Anything else is not used: the server is asked again and the file
 * rewritten. `plain` says that the definitions read back from JSON exactly as the schema would
 * read them; it is false when a pricing tier has a condition of a kind llmobs does not know (kept
 * as an object of its own), and such a copy is read through the schema.
 */
const CACHE_VERSION = 4;

// The build's name, written in by scripts/build.mjs; run from the sources, one for all of them.
declare const LLMOBS_BUILD_ID: string | undefined;
const BUILD = typeof LLMOBS_BUILD_ID === 'string' ? LLMOBS_BUILD_ID : 'sources';

interface CacheHeader {
  version: typeof CACHE_VERSION;
  build: string;
  baseUrl: string;
  identity: string;
  fetchedAt: string;
  count: number;
  length: number;
  plain: boolean;
}

/**
 * One cache file per server and key; the name is a hash, and the file never holds a secret. A
 * public key is hashed with the server by nameHash; an API key (a secret) goes through SHA-256
 * first, and the name is SHA-256's (node:crypto loads for that case only).
 */
export function remoteCachePath(env: Record<string, string | undefined>, config: Pick<ResolvedConfig, 'baseUrl' | 'auth'>): string | undefined {
  return cacheLocation(env, config)?.path;
}

/** The cache file of a server and key, and whose definitions it holds. */
function cacheLocation(env: Record<string, string | undefined>, config: Pick<ResolvedConfig, 'baseUrl' | 'auth'>): { path: string; identity: string } | undefined {
  const identity = cacheIdentity(config);
  if (identity === undefined) return undefined;
  const key = `${config.baseUrl}\n${identity}`;
  return { path: join(cacheDirectory(env), `models-${config.auth.type === 'basic' ? nameHash(key) : sha256Hex(key).slice(0, 32)}.json`), identity };
}

/** Whose definitions a copy holds: the public key, or a digest of an API key (never written as such). */
function cacheIdentity(config: Pick<ResolvedConfig, 'auth'>): string | undefined {
  if (config.auth.type === 'basic') return `basic:${config.auth.publicKey}`;
  if (config.auth.type === 'bearer') return `bearer:${sha256Hex(config.auth.apiKey)}`;
  return undefined;
}

/** What a copy's header holds of its identity. */
const identityCheck = (identity: string) => nameHash(`identity\n${identity}`);

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
    typeof h.build === 'string' &&
    typeof h.baseUrl === 'string' &&
    typeof h.identity === 'string' &&
    typeof h.fetchedAt === 'string' &&
    Number.isSafeInteger(h.count) &&
    Number.isSafeInteger(h.length) &&
    typeof h.plain === 'boolean'
  );
}

async function readCache(ctx: Context, path: string, baseUrl: string, identity: string, maxAgeMs: number): Promise<Omit<RemoteDefinitions, 'credentialsFrom'> | undefined> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const newline = text.indexOf('\n');
    if (newline === -1) return undefined;
    const header: unknown = JSON.parse(text.slice(0, newline));
    if (!isHeader(header) || header.build !== BUILD || header.baseUrl !== baseUrl || header.identity !== identityCheck(identity)) return undefined;
    const age = ctx.now().getTime() - Date.parse(header.fetchedAt);
    if (!(age >= 0 && age <= maxAgeMs)) return undefined;
    const body = text.slice(newline + 1);
    if (body.length !== header.length) {
      ctx.trace(`models: the cache ${path} does not read as it was written; asking the server`);
      return undefined;
    }
    const raw: unknown = JSON.parse(body);
    let definitions: ApiModel[];
    if (header.plain) {
      if (!Array.isArray(raw)) return undefined;
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

function writeCache(ctx: Context, path: string, identity: string, value: RemoteDefinitions): void {
  const body = JSON.stringify(value.definitions);
  const header: CacheHeader = {
    version: CACHE_VERSION,
    build: BUILD,
    baseUrl: value.baseUrl,
    identity: identityCheck(identity),
    fetchedAt: value.fetchedAt,
    count: value.definitions.length,
    length: body.length,
    plain: readsBackPlain(value.definitions),
  };
  const dir = cacheDirectory(ctx.env);
  const trace = (line: string) => ctx.trace(`models: ${line}`);
  // Copies not written for a week go (of servers or keys no longer used, or in the earlier
  // format's names): a copy is used for minutes only.
  if (writeCacheFile(dir, path, `${JSON.stringify(header)}\n${body}`, trace)) removeOldCacheFiles(dir, /^models-(?:[0-9a-f]{16}|[0-9a-f]{32})\.json$/, 7 * 24 * 3_600_000, trace);
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
  const location = cacheLocation(ctx.env, config);
  if (location && options.maxAgeMs && options.maxAgeMs > 0) {
    const cached = await readCache(ctx, location.path, config.baseUrl, location.identity, options.maxAgeMs);
    if (cached) return { ...cached, credentialsFrom };
  }
  const client = options.client ?? (await ctx.apiFor(config));
  const { listAllModels } = await import('../api/models.js');
  const definitions = await listAllModels(client);
  const fresh: RemoteDefinitions = { definitions, baseUrl: client.baseUrl, credentialsFrom, fetchedAt: ctx.now().toISOString(), fromCache: false };
  if (location) writeCache(ctx, location.path, location.identity, fresh);
  return fresh;
}

/** Drops the cached copy after a change, so no command prices with a definition that is gone. */
export async function forgetRemoteDefinitions(ctx: Context, client: ApiClient): Promise<void> {
  const path = remoteCachePath(ctx.env, client.config);
  if (path) {
    try {
      rmSync(path, { force: true });
    } catch {
      // A copy that cannot be removed is found stale later, or replaced by the next answer.
    }
  }
}
