// The read routes a server answers, learned from its answers and kept per server and key: the
// default first, the other once when a route is not there, a cached choice corrected in the same
// run, and the v4 messages that tell the write mode (createAuthedProjectAPIRoute.ts for
// events_only, v2/observations/index.ts for legacy).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../../src/api/client.js';
import { ROUTE_CHOICE_TTL_MS, viaRoute } from '../../../src/api/read-routes.js';
import { EVENTS_ONLY_REMOVED_MESSAGE, V4_ONLY_MESSAGES } from '../../../src/api/write-mode.js';
import { Context, defaultDeps } from '../../../src/context.js';
import { ApiError, ApiNotFoundError } from '../../../src/errors.js';
import { isolatedEnv, tempDir } from '../../helpers/cli.js';

const gone = (path: string, message: string) => new ApiNotFoundError(`404 from GET ${path}: ${message}`, { status: 404, method: 'GET', path, serverMessage: message });

function setup(publicKey = 'pk-lf-1') {
  const cache = tempDir();
  let now = new Date('2026-11-20T10:00:00.000Z');
  const lines: string[] = [];
  const ctx = new Context({ ...defaultDeps(), env: isolatedEnv({ LLMOBS_CACHE_DIR: cache }), now: () => now });
  ctx.trace = (line: string) => void lines.push(line);
  // A new client object per run, as each run of the CLI has: choices come from the file.
  const client = (key = publicKey) => ({ baseUrl: 'https://cloud.langfuse.test', config: { auth: { type: 'basic', publicKey: key, secretKey: 'sk-lf-secret' } } }) as unknown as ApiClient;
  return { ctx, client, cache, lines, later: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

describe('viaRoute', () => {
  it('asks the default, writing nothing while it answers', async () => {
    const { ctx, client, cache } = setup();
    const asked: string[] = [];
    const routed = await viaRoute(ctx, client(), 'observations', { v2: async () => (asked.push('v2'), 'page'), v1: async () => (asked.push('v1'), 'old') });
    expect(routed).toEqual({ value: 'page', route: 'v2' });
    expect(asked).toEqual(['v2']);
    expect(readdirSync(cache)).toEqual([]);
  });

  it('asks the other once when a route is not there, and the next run asks that one first', async () => {
    const { ctx, client, cache, lines } = setup();
    const asked: string[] = [];
    const ask = { v3: async () => (asked.push('v3'), Promise.reject(gone('/api/public/traces', EVENTS_ONLY_REMOVED_MESSAGE))), v4: async () => (asked.push('v4'), 'roots') };
    expect(await viaRoute(ctx, client(), 'traces', ask)).toEqual({ value: 'roots', route: 'v4' });
    expect(await viaRoute(ctx, client(), 'traces', ask)).toEqual({ value: 'roots', route: 'v4' });
    expect(asked).toEqual(['v3', 'v4', 'v4']);
    expect(lines.some((l) => l.includes('read route for traces: the v3 trace routes (GET /api/public/traces) answered 404') && l.endsWith('asking the v2 observations API instead'))).toBe(true);
    expect(lines.at(-1)).toMatch(/^read route for traces: the v2 observations API \(GET \/api\/public\/v2\/observations\) \(cached 2026-11-20T10:00:00\.000Z: the v3 trace routes .* answered 404 "This endpoint is not available/);
    // One file per server and key, without the key.
    const files = readdirSync(cache);
    expect(files).toEqual([expect.stringMatching(/^routes-[0-9a-f]{16}\.json$/)]);
    const text = readFileSync(join(cache, files[0]!), 'utf8');
    expect(text).not.toContain('pk-lf-1');
    expect(text).not.toContain('sk-lf-secret');
    // events_only removed every v3 read: observations and metrics are known to be v2 without asking v1.
    expect(JSON.parse(text).routes).toMatchObject({ traces: { route: 'v4' }, observations: { route: 'v2' }, metrics: { route: 'v2' } });
    // Another key (another project) has learned nothing.
    asked.length = 0;
    await viaRoute(ctx, client('pk-lf-2'), 'traces', ask);
    expect(asked).toEqual(['v3', 'v4']);
  });

  it('corrects a cached choice that turned out wrong in the same run, and keeps the new one', async () => {
    const { ctx, client, cache } = setup();
    const asked: string[] = [];
    let legacy = true;
    const ask = {
      v2: async () => (asked.push('v2'), legacy ? Promise.reject(gone('/api/public/v2/observations', V4_ONLY_MESSAGES.observations)) : 'v2 page'),
      v1: async () => (asked.push('v1'), legacy ? 'v1 page' : Promise.reject(gone('/api/public/observations', EVENTS_ONLY_REMOVED_MESSAGE))),
    };
    expect((await viaRoute(ctx, client(), 'observations', ask)).route).toBe('v1');
    const file = JSON.parse(readFileSync(join(cache, readdirSync(cache)[0]!), 'utf8'));
    // The legacy message of v2 observations says the v3 trace routes are there.
    expect(file.routes).toMatchObject({ observations: { route: 'v1' }, traces: { route: 'v3' } });
    expect(file.routes.metrics).toBeUndefined();
    // The server is upgraded to events_only: the cached v1 fails once, v2 answers, and is kept.
    legacy = false;
    expect(await viaRoute(ctx, client(), 'observations', ask)).toEqual({ value: 'v2 page', route: 'v2' });
    expect(await viaRoute(ctx, client(), 'observations', ask)).toEqual({ value: 'v2 page', route: 'v2' });
    expect(asked).toEqual(['v2', 'v1', 'v1', 'v2', 'v2']);
  });

  it('asks the default again once a choice is a week old', async () => {
    const { ctx, client, later } = setup();
    const asked: string[] = [];
    const ask = { v2: async () => (asked.push('v2'), Promise.reject(gone('/api/public/v2/metrics', V4_ONLY_MESSAGES.metrics))), v1: async () => (asked.push('v1'), [] as unknown[]) };
    await viaRoute(ctx, client(), 'metrics', ask);
    later(ROUTE_CHOICE_TTL_MS - 1000);
    await viaRoute(ctx, client(), 'metrics', ask);
    later(2000);
    await viaRoute(ctx, client(), 'metrics', ask);
    expect(asked).toEqual(['v2', 'v1', 'v1', 'v2', 'v1']);
  });

  it('throws the default route\'s answer when neither is there, and never retries an error that is not a missing route', async () => {
    const { ctx, client } = setup();
    const v3 = gone('/api/public/traces/t1', EVENTS_ONLY_REMOVED_MESSAGE);
    const v4 = gone('/api/public/v2/observations', 'Route not found');
    await expect(viaRoute(ctx, client(), 'traces', { v3: () => Promise.reject(v3), v4: () => Promise.reject(v4) })).rejects.toBe(v3);
    const neither = new Error('both');
    await expect(viaRoute(ctx, client(), 'traces', { v3: () => Promise.reject(v3), v4: () => Promise.reject(v4) }, { neither: () => neither })).rejects.toBe(neither);

    const asked: string[] = [];
    const failing = new ApiError('500 from GET /api/public/v2/observations', { status: 500, method: 'GET', path: '/api/public/v2/observations' });
    await expect(viaRoute(ctx, client(), 'observations', { v2: () => (asked.push('v2'), Promise.reject(failing)), v1: async () => (asked.push('v1'), 'x') })).rejects.toBe(failing);
    expect(asked).toEqual(['v2']);
  });
});
