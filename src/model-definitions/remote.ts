// The project's definitions, read from its server (every page) and kept for a while in a cache
// under $XDG_CACHE_HOME/llmobs, one file per server and key, named by a hash, holding no secret.
// A cached copy is read without node:crypto and node:fs/promises: loading them (and the streams
// and readline modules they bring) was 4 ms of every `estimate` with a profile.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
 *   {"version":3,"baseUrl":...,"fetchedAt":...,"count":167,"length":185012,"plain":true}
 *   [{...definition...}, ...]
 *
 * The definitions were checked against the API's schema when they were fetched, and the file is
 * written whole under a temporary name, then renamed, in a folder of this user's: a copy whose
 * second line has the length written, parses, and holds the number of definitions written is
 * used without loading zod to check it again (some 25 ms of an `estimate` with a profile). A cut
 * or a longer line, JSON that does not parse and another count are not used: the server is asked
 * again and the file rewritten, as for an older format. (Version 2 kept a SHA-256 digest of the
 * line instead of its length: node:crypto, which computes it, takes 3 ms to load.) `plain` says
 * that the definitions read back from JSON exactly as the schema would read them; it is false
 * when a pricing tier has a condition of a kind llmobs does not know (kept as an object of its
 * own), and such a copy is read through the schema.
 */
const CACHE_VERSION = 3;

interface CacheHeader {
  version: typeof CACHE_VERSION;
  baseUrl: string;
  fetchedAt: string;
  count: number;
  length: number;
  plain: boolean;
}

/** SHA-256 in hexadecimal, with node:crypto loaded only when it is needed (see the file's head). */
const sha256 = (text: string): string => process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');

/**
 * A 64-bit hash of a short text, in hexadecimal (two 32-bit FNV-1a lanes, each finished with
 * murmur3's mix): names a cache file by its server and public key. Not for secrets.
 */
export function nameHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193) ^ (b >>> 13);
  }
  const mix = (h: number) => {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return (h ^ (h >>> 16)) >>> 0;
  };
  return mix(a).toString(16).padStart(8, '0') + mix(b ^ a).toString(16).padStart(8, '0');
}

export function cacheDirectory(env: Record<string, string | undefined>): string {
  if (env.LLMOBS_CACHE_DIR) return env.LLMOBS_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.cache'), 'llmobs');
}

/**
 * One cache file per server and key; the name is a hash, and the file never holds a secret. A
 * public key is hashed with the server by nameHash; an API key (a secret) goes through SHA-256
 * first, and the name is SHA-256's (node:crypto loads for that case only).
 */
export function remoteCachePath(env: Record<string, string | undefined>, config: Pick<ResolvedConfig, 'baseUrl' | 'auth'>): string | undefined {
  let name: string;
  if (config.auth.type === 'basic') name = `models-${nameHash(`${config.baseUrl}\nbasic:${config.auth.publicKey}`)}.json`;
  else if (config.auth.type === 'bearer') name = `models-${sha256(`${config.baseUrl}\nbearer:${sha256(config.auth.apiKey)}`).slice(0, 32)}.json`;
  else return undefined;
  return join(cacheDirectory(env), name);
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
    Number.isSafeInteger(h.length) &&
    typeof h.plain === 'boolean'
  );
}

async function readCache(ctx: Context, path: string, baseUrl: string, maxAgeMs: number): Promise<Omit<RemoteDefinitions, 'credentialsFrom'> | undefined> {
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
    if (!isHeader(header) || header.baseUrl !== baseUrl) return undefined;
    const age = ctx.now().getTime() - Date.parse(header.fetchedAt);
    if (!(age >= 0 && age <= maxAgeMs)) return undefined;
    const body = text.slice(newline + 1);
    if (body.length !== header.length) {
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
      length: body.length,
      plain: readsBackPlain(value.definitions),
    };
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(temp, `${JSON.stringify(header)}\n${body}`, { mode: 0o600 });
    renameSync(temp, path);
    removeStaleCopies(dir, ctx.now().getTime());
  } catch (error) {
    // A cache that cannot be written only costs a later request.
    ctx.trace(`models: cache not written (${(error as Error).message})`);
    try {
      rmSync(temp, { force: true });
    } catch {
      // Nothing more to do.
    }
  }
}

/**
 * Removes copies not written for a week (of servers or keys no longer used, or in an earlier
 * format under another name): a copy is used for minutes only.
 */
function removeStaleCopies(dir: string, now: number): void {
  const WEEK_MS = 7 * 24 * 3_600_000;
  for (const name of readdirSync(dir)) {
    if (!name.startsWith('models-') || !name.endsWith('.json')) continue;
    const file = join(dir, name);
    const info = statSync(file, { throwIfNoEntry: false });
    if (info?.isFile() && now - info.mtimeMs > WEEK_MS) rmSync(file, { force: true });
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
  if (path) {
    try {
      rmSync(path, { force: true });
    } catch {
      // A copy that cannot be removed is found stale later, or replaced by the next answer.
    }
  }
}
