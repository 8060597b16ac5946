// Which read routes a server answers, learned from its answers and kept per server and key (so
// per project) in the cache directory. Langfuse v4 removed the v3 read routes (GET /traces,
// /traces/{id}, /observations, /metrics) where it writes events only, as Langfuse Cloud does
// since 2026-11-16, and a deployment in the legacy write mode has no v4 reads (v2 observations,
// v2 metrics). A command asks the route the cache names, or the group's default; when that route
// is gone it asks the other once and remembers which answered, so the next run makes no failed
// request. A choice is kept for a week, then the default is asked again, so an upgraded server
// is noticed; nothing is written while the default answers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context.js';
import { nameHash, sha256Hex } from '../core/hashes.js';
import { ApiError, ApiNotFoundError } from '../errors.js';
import { cacheDirectory, removeOldCacheFiles, writeCacheFile } from '../io/cache-files.js';
import type { ApiClient } from './client.js';
import { EVENTS_ONLY_REMOVED_MESSAGE, V4_ONLY_MESSAGES } from './write-mode.js';

/** Each group's routes, the first its default, with what they are for --verbose. */
export const ROUTE_GROUPS = {
  // The v3 trace routes answer a trace, or a page of traces, with totals in one request.
  traces: { v3: ['the v3 trace routes', 'GET /api/public/traces'], v4: ['the v2 observations API', 'GET /api/public/v2/observations'] },
  observations: { v2: ['the v2 observations API', 'GET /api/public/v2/observations'], v1: ['the v1 observations API', 'GET /api/public/observations'] },
  metrics: { v2: ['the v2 metrics API', 'GET /api/public/v2/metrics'], v1: ['the v1 metrics API', 'GET /api/public/metrics'] },
} as const;

export type RouteGroup = keyof typeof ROUTE_GROUPS;
export type RouteOf<G extends RouteGroup> = keyof (typeof ROUTE_GROUPS)[G] & string;

/** How long a learned choice is used before the default is asked again. */
export const ROUTE_CHOICE_TTL_MS = 7 * 24 * 3_600_000;
const PREFIX = 'routes-';

interface Entry {
  route: string;
  why: string;
  at: string;
}

interface RouteFile {
  version: 1;
  baseUrl: string;
  identity: string;
  routes: Partial<Record<RouteGroup, Entry>>;
}

export interface Choice<G extends RouteGroup> {
  route: RouteOf<G>;
  /** From the cache (with why it was chosen), or the default. */
  why: string;
  cached: boolean;
}

function routesOf<G extends RouteGroup>(group: G): Array<RouteOf<G>> {
  return Object.keys(ROUTE_GROUPS[group]) as Array<RouteOf<G>>;
}

/** A route as --verbose names it: what it is, and the request. */
export function describeRoute<G extends RouteGroup>(group: G, route: RouteOf<G>, withPath = true): string {
  const [name, path] = (ROUTE_GROUPS[group] as Record<string, readonly [string, string]>)[route]!;
  return withPath ? `${name} (${path})` : name;
}

/**
 * Who the choices are for, without a secret: the server and the public key (a key belongs to one
 * project); an API key (a secret) only as its SHA-256.
 */
function identityOf(client: ApiClient): string {
  const { auth } = client.config;
  const who = auth.type === 'basic' ? `basic:${auth.publicKey}` : auth.type === 'bearer' ? `bearer:${sha256Hex(auth.apiKey)}` : 'none';
  return nameHash(`${client.baseUrl}\n${who}`);
}

const known = new WeakMap<ApiClient, ReadRoutes>();

/** The read routes of one server and key, as far as its answers told. */
export class ReadRoutes {
  private constructor(
    private readonly ctx: Context,
    private readonly path: string,
    private readonly file: RouteFile,
  ) {}

  /** The choices kept for `client`'s server and key (read once per client). */
  static of(ctx: Context, client: ApiClient): ReadRoutes {
    const cached = known.get(client);
    if (cached) return cached;
    const identity = identityOf(client);
    const path = join(cacheDirectory(ctx.env), `${PREFIX}${identity}.json`);
    const routes = new ReadRoutes(ctx, path, readFile(path, client.baseUrl, identity) ?? { version: 1, baseUrl: client.baseUrl, identity, routes: {} });
    known.set(client, routes);
    return routes;
  }

  choose<G extends RouteGroup>(group: G): Choice<G> {
    const entry = this.file.routes[group];
    const routes = routesOf(group);
    const age = entry ? this.ctx.now().getTime() - Date.parse(entry.at) : Number.NaN;
    if (entry && routes.includes(entry.route as RouteOf<G>) && age >= 0 && age <= ROUTE_CHOICE_TTL_MS) {
      return { route: entry.route as RouteOf<G>, why: `cached ${entry.at}: ${entry.why}`, cached: true };
    }
    return { route: routes[0]!, why: entry ? 'the default (the cached choice is over a week old)' : 'the default (this server was not asked before)', cached: false };
  }

  /** Keeps `route` as the group's choice; what `gone` (the other route's error) says about the server's mode decides other groups too. */
  remember<G extends RouteGroup>(group: G, route: RouteOf<G>, why: string, gone?: unknown): void {
    const at = this.ctx.now().toISOString();
    const set = (g: RouteGroup, r: string, reason: string) => {
      this.file.routes[g] = { route: r, why: reason, at };
    };
    set(group, route, why);
    const message = gone instanceof ApiError ? gone.serverMessage : undefined;
    // An events_only deployment has removed every v3 read; one whose v2 observations need a v4
    // write mode (legacy) has the v3 trace routes.
    if (message === EVENTS_ONLY_REMOVED_MESSAGE) {
      const reason = `the v3 read routes answer that the server runs Langfuse v4 events_only mode`;
      if (group !== 'traces') set('traces', 'v4', reason);
      if (group !== 'observations') set('observations', 'v2', reason);
      if (group !== 'metrics') set('metrics', 'v2', reason);
    } else if (message === V4_ONLY_MESSAGES.observations) {
      const reason = 'GET /api/public/v2/observations answers that it needs a Langfuse v4 write mode (legacy)';
      if (group !== 'traces') set('traces', 'v3', reason);
      if (group !== 'observations') set('observations', 'v1', reason);
    }
    const dir = cacheDirectory(this.ctx.env);
    const trace = (line: string) => this.ctx.trace(`read routes: ${line}`);
    if (writeCacheFile(dir, this.path, JSON.stringify(this.file), trace)) removeOldCacheFiles(dir, /^routes-[0-9a-f]{16}\.json$/, 4 * ROUTE_CHOICE_TTL_MS, trace);
  }
}

function readFile(path: string, baseUrl: string, identity: string): RouteFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<RouteFile> | null;
    if (parsed?.version !== 1 || parsed.baseUrl !== baseUrl || parsed.identity !== identity || typeof parsed.routes !== 'object' || parsed.routes === null) return undefined;
    const routes: RouteFile['routes'] = {};
    for (const group of Object.keys(ROUTE_GROUPS) as RouteGroup[]) {
      const entry = (parsed.routes as Record<string, unknown>)[group] as Partial<Entry> | undefined;
      if (entry && typeof entry.route === 'string' && typeof entry.why === 'string' && typeof entry.at === 'string') routes[group] = { route: entry.route, why: entry.why, at: entry.at };
    }
    return { version: 1, baseUrl, identity, routes };
  } catch {
    return undefined;
  }
}

/** A 404 from a listing or a query route: the route itself is not there. */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiNotFoundError;
}

function answerOf(error: unknown): string {
  if (!(error instanceof ApiError)) return (error as Error).message;
  return `${error.status}${error.serverMessage ? ` ${JSON.stringify(error.serverMessage)}` : ''}`;
}

export interface Routed<G extends RouteGroup, T> {
  value: T;
  route: RouteOf<G>;
}

export interface RouteOptions<G extends RouteGroup> {
  /** Whether `error` says that `route` is not there (default: a 404). */
  gone?: (error: unknown, route: RouteOf<G>) => boolean;
  /** The error to throw when neither route is there (default: the default route's). */
  neither?: (errors: Record<RouteOf<G>, unknown>) => unknown;
}

/**
 * Runs `ask[route]` on the route chosen for `group`; when that route is not there, once on the
 * other, and remembers the one that answered. When neither is there, `neither` decides the error:
 * by default that of the group's default route (the v3 answer of a trace route, the v2 answer of
 * a listing); --verbose shows both.
 */
export async function viaRoute<G extends RouteGroup, T>(ctx: Context, client: ApiClient, group: G, ask: { [R in RouteOf<G>]: () => Promise<T> }, options: RouteOptions<G> = {}): Promise<Routed<G, T>> {
  const gone = options.gone ?? isNotFound;
  const routes = ReadRoutes.of(ctx, client);
  const choice = routes.choose(group);
  const other = routesOf(group).find((route) => route !== choice.route)!;
  ctx.trace(`read route for ${group}: ${describeRoute(group, choice.route)} (${choice.why})`);
  let first: unknown;
  try {
    // The default needs no note: a run without one asks it first anyway.
    return { value: await ask[choice.route](), route: choice.route };
  } catch (error) {
    if (!gone(error, choice.route)) throw error;
    first = error;
  }
  ctx.trace(`read route for ${group}: ${describeRoute(group, choice.route)} answered ${answerOf(first)}; asking ${describeRoute(group, other, false)} instead`);
  try {
    const value = await ask[other]();
    routes.remember(group, other, `${describeRoute(group, choice.route)} answered ${answerOf(first)}`, first);
    return { value, route: other };
  } catch (error) {
    if (!gone(error, other)) throw error;
    ctx.trace(`read route for ${group}: ${describeRoute(group, other)} answered ${answerOf(error)} too`);
    const errors = { [choice.route]: first, [other]: error } as Record<RouteOf<G>, unknown>;
    throw options.neither ? options.neither(errors) : errors[routesOf(group)[0]!];
  }
}
