// The project's definitions and their cache.
import { existsSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Context, defaultDeps } from '../../../src/context.js';
import { specToDefinition } from '../../../src/core/models/draft.js';
import { modelDefinitionSchema } from '../../../src/core/models/schemas.js';
import { type ModelDefinition, UnknownCondition } from '../../../src/core/models/types.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { REMOTE_CACHE_TTL_MS } from '../../../src/model-definitions/index.js';
import { forgetRemoteDefinitions, loadRemoteDefinitions, remoteCachePath } from '../../../src/model-definitions/remote.js';
import { nameHash } from '../../../src/core/hashes.js';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';
import { fakeModelsApi } from '../../helpers/fake-models-api.js';

async function contextIn(cwd: string, extra: Partial<ConstructorParameters<typeof Context>[0]> = {}) {
  const ctx = new Context({ ...defaultDeps(), env: isolatedEnv(), cwd, ...extra });
  await ctx.prepare();
  return ctx;
}

describe('loadRemoteDefinitions', () => {
  it('reads every page, caches them per server and key without secrets, and honours the age limit', async () => {
    const custom = specToDefinition({ name: 'c', match_pattern: 'c', pricing: { input: 1e-6 }, unit: 'TOKENS' }, { id: 'c-1', createdAt: '2025-01-01T00:00:00.000Z' });
    const api = fakeModelsApi({ definitions: [custom, ...builtInDefinitions()] });
    const cacheDir = join(tempDir(), 'cache');
    let now = new Date('2026-05-01T10:00:00.000Z');
    const ctx = await contextIn(process.cwd(), { env: { ...api.env, XDG_CACHE_HOME: cacheDir }, dispatcher: api.agent, now: () => now });

    const first = await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS });
    expect(first.fromCache).toBe(false);
    expect(first.definitions).toHaveLength(1 + builtInDefinitions().length);
    expect(api.requests.map((r) => r.path)).toEqual(['/api/public/models?page=1&limit=100', '/api/public/models?page=2&limit=100']);
    const files = readdirSync(join(cacheDir, 'llmobs'));
    expect(files).toEqual([expect.stringMatching(/^models-[0-9a-f]{16}\.json$/)]);
    const text = readFileSync(join(cacheDir, 'llmobs', files[0]!), 'utf8');
    expect(text).not.toContain('sk-lf-test-0001');
    expect(text).not.toContain('pk-lf-test-0001');

    now = new Date(now.getTime() + REMOTE_CACHE_TTL_MS - 1000);
    const cached = await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS });
    expect(cached).toMatchObject({ fromCache: true, fetchedAt: first.fetchedAt });
    expect(cached.definitions).toEqual(first.definitions);
    expect(api.requests).toHaveLength(2);

    // Without an age limit, or once the copy is too old, the server is asked again.
    await loadRemoteDefinitions(ctx);
    expect(api.requests).toHaveLength(4);
    now = new Date(now.getTime() + REMOTE_CACHE_TTL_MS + 1);
    expect((await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS })).fromCache).toBe(false);

    await forgetRemoteDefinitions(ctx, await ctx.api());
    expect(existsSync(join(cacheDir, 'llmobs', files[0]!))).toBe(false);
    await ctx.dispose();
  });

  /** The cache file of a context's server and key (there is one). */
  function cacheFile(cacheDir: string): string {
    const files = readdirSync(join(cacheDir, 'llmobs')).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(1);
    return join(cacheDir, 'llmobs', files[0]!);
  }

  async function cachedSetUp(definitions: ModelDefinition[]) {
    const api = fakeModelsApi({ definitions });
    const cacheDir = join(tempDir(), 'cache');
    const ctx = await contextIn(process.cwd(), { env: { ...api.env, XDG_CACHE_HOME: cacheDir }, dispatcher: api.agent });
    const fetched = await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS });
    return { api, ctx, fetched, file: cacheFile(cacheDir) };
  }

  it('reads a cached copy back exactly as the schema reads the server\'s answer, without the schema when nothing needs it', async () => {
    const custom = specToDefinition({ name: 'c', match_pattern: '(?i)^c$', pricing: { input: 1e-6, output: 3e-6 }, unit: 'TOKENS' }, { id: 'c-1', createdAt: '2025-01-01T00:00:00.000Z' });
    const { api, ctx, fetched, file } = await cachedSetUp([custom, ...builtInDefinitions()]);
    const [header, body] = readFileSync(file, 'utf8').split('\n');
    expect(JSON.parse(header!)).toMatchObject({ version: 4, build: 'sources', count: fetched.definitions.length, length: body!.length, plain: true });
    const cached = await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS });
    expect(cached.fromCache).toBe(true);
    expect(api.requests.filter((r) => r.path.startsWith('/api/public/models'))).toHaveLength(2);
    // Strictly: the same keys, no undefined ones, the same classes, as the schema gives.
    expect(cached.definitions).toStrictEqual(fetched.definitions);
    expect(cached.definitions).toStrictEqual(JSON.parse(body!).map((d: unknown) => modelDefinitionSchema.loose().parse(d)));
    await ctx.dispose();
  });

  it('keeps conditions of an unknown kind through the cache (read with the schema)', async () => {
    const night = modelDefinitionSchema.parse({
      ...specToDefinition({ name: 'night', match_pattern: '(?i)^night$', pricing: { input: 2e-6 }, unit: 'TOKENS' }, { id: 'n-1', createdAt: '2025-01-01T00:00:00.000Z' }),
      pricingTiers: [
        { id: 'n-1_default', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 2e-6 } },
        { id: 'n-1_night', name: 'Night', isDefault: false, priority: 1, conditions: [{ source: 'clock', after: '22:00' }], prices: { input: 1e-6 } },
      ],
    });
    const { ctx, fetched, file } = await cachedSetUp([night]);
    expect(fetched.definitions[0]!.pricingTiers[1]!.conditions[0]).toBeInstanceOf(UnknownCondition);
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ plain: false });
    const cached = await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS });
    expect(cached.fromCache).toBe(true);
    expect(cached.definitions[0]!.pricingTiers[1]!.conditions[0]).toBeInstanceOf(UnknownCondition);
    expect(cached.definitions).toStrictEqual(fetched.definitions);
    await ctx.dispose();
  });

  it('removes copies not written for a week when it writes one, and leaves other files', async () => {
    const { api, ctx, file } = await cachedSetUp(builtInDefinitions().slice(0, 2));
    const dir = join(file, '..');
    const week = 7 * 24 * 3600;
    const make = (name: string, secondsOld: number) => {
      writeFileSync(join(dir, name), 'x');
      const at = Date.now() / 1000 - secondsOld;
      utimesSync(join(dir, name), at, at);
    };
    make('models-0123456789abcdef0123456789abcdef.json', week + 3600); // an earlier format's name, unused
    make('models-0123456789abcdef.json', week - 3600);
    make('metrics-0123456789abcdef0123456789abcdef.json', week + 3600);
    make('models-0123456789abcdef.json.123.tmp', week + 3600); // a write cut short
    make('models-custom.json', week + 3600); // not named as a copy: a file of the user's
    make('notes.txt', week + 3600);
    await loadRemoteDefinitions(ctx); // asks the server, and writes
    expect(api.requests.length).toBeGreaterThan(1);
    expect(readdirSync(dir).sort()).toEqual(['metrics-0123456789abcdef0123456789abcdef.json', 'models-0123456789abcdef.json', 'models-custom.json', basename(file), 'notes.txt'].sort());
    await ctx.dispose();
  });

  it('asks the server again when the cached copy was changed, is damaged, was written by another build, or has an older format', async () => {
    const { api, ctx, file } = await cachedSetUp(builtInDefinitions().slice(0, 3));
    const asked = () => api.requests.filter((r) => r.path.startsWith('/api/public/models')).length;
    const original = readFileSync(file, 'utf8');
    const [header, body] = original.split('\n') as [string, string];
    const variants = [
      `${header}\n${body.replace('"inputPrice":', '"inputPrice":1e9,"x":')}`, // an edit of the body
      `${header}\n${body.slice(0, -10)}`, // cut short
      header, // no body
      `${header.replace('"count":3', '"count":2')}\n${body}`, // a header that does not fit
      `${header}\n${'{}'.padEnd(body.length)}`, // as long, but not a list
      `${header.replace('"build":"sources"', '"build":"0123456789abcdef"')}\n${body}`, // another build's copy
      `${header.replace(/"identity":"[0-9a-f]+"/, '"identity":"0000000000000000"')}\n${body}`, // another key's copy
      JSON.stringify({ version: 1, baseUrl: JSON.parse(header).baseUrl, fetchedAt: JSON.parse(header).fetchedAt, definitions: JSON.parse(body) }), // the earlier format
      '',
    ];
    for (const [i, text] of variants.entries()) {
      writeFileSync(file, text);
      const before = asked();
      const result = await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS });
      expect(result.fromCache, `variant ${i}`).toBe(false);
      expect(asked(), `variant ${i}`).toBe(before + 1);
      expect(result.definitions).toHaveLength(3);
      // Rewritten whole: the next read uses it.
      expect((await loadRemoteDefinitions(ctx, { maxAgeMs: REMOTE_CACHE_TTL_MS })).fromCache).toBe(true);
    }
    await ctx.dispose();
  });
});

describe('remoteCachePath', () => {
  it('differs per server and per key, and is absent without credentials', () => {
    const env = { HOME: '/home/u' };
    const a = remoteCachePath(env, { baseUrl: 'https://cloud.langfuse.com', auth: { type: 'basic', publicKey: 'pk-1', secretKey: 's' } });
    const b = remoteCachePath(env, { baseUrl: 'https://cloud.langfuse.com', auth: { type: 'basic', publicKey: 'pk-2', secretKey: 's' } });
    const c = remoteCachePath(env, { baseUrl: 'https://us.cloud.langfuse.com', auth: { type: 'basic', publicKey: 'pk-1', secretKey: 's' } });
    expect(new Set([a, b, c]).size).toBe(3);
    expect(a).toMatch(/^\/home\/u\/\.cache\/llmobs\/models-[0-9a-f]{16}\.json$/);
    // An API key is a secret: the name is a digest of a digest of it.
    const bearer = remoteCachePath(env, { baseUrl: 'https://cloud.langfuse.com', auth: { type: 'bearer', apiKey: 'secret-api-key' } });
    expect(bearer).toMatch(/^\/home\/u\/\.cache\/llmobs\/models-[0-9a-f]{32}\.json$/);
    expect(bearer).not.toContain('secret');
    expect(remoteCachePath({ ...env, XDG_CACHE_HOME: '/c' }, { baseUrl: 'x', auth: { type: 'basic', publicKey: 'p', secretKey: 's' } })).toMatch(/^\/c\/llmobs\//);
    expect(remoteCachePath(env, { baseUrl: 'x', auth: { type: 'none' } })).toBeUndefined();
  });

  it('names files by a hash that tells apart every server and key of a set of 100,000', () => {
    const names = new Set<string>();
    for (let i = 0; i < 100_000; i++) names.add(nameHash(`https://host-${i % 317}.example\nbasic:pk-lf-${i}`));
    expect(names.size).toBe(100_000);
    expect(nameHash('same text')).toBe(nameHash('same text'));
    expect(nameHash('same text')).toMatch(/^[0-9a-f]{16}$/);
    // A one-character change changes both halves.
    const [x, y] = [nameHash('https://a\nbasic:pk-1'), nameHash('https://a\nbasic:pk-2')];
    expect(x.slice(0, 8)).not.toBe(y.slice(0, 8));
    expect(x.slice(8)).not.toBe(y.slice(8));
  });
});
