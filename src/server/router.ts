// Routes of the local server. Handler modules export their routes; index.ts collects them.
import type { IncomingHttpHeaders } from 'node:http';
import type { AuthFlavor } from './auth.js';
import type { ApiKeyRecord } from './state.js';
import type { DataStore } from './store.js';

export interface ServerRequest {
  method: string;
  /** Path as sent (still URL-encoded). */
  path: string;
  /** Captured path segments, URL-decoded. */
  params: string[];
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body; undefined when there was none. */
  body: unknown;
  /** The key that authenticated the request (routes with auth). */
  key: ApiKeyRecord | undefined;
}

export interface ServerReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HandlerContext {
  store: DataStore;
  now: () => Date;
  /** The Langfuse version the server behaves as (health reports it). */
  apiVersion: string;
}

export type Handler = (request: ServerRequest, context: HandlerContext) => ServerReply | Promise<ServerReply>;

export interface Route {
  /** Matched against the raw path; capture groups become `params` (decoded). */
  pattern: RegExp;
  auth: AuthFlavor | 'none';
  methods: Partial<Record<string, Handler>>;
  /** Whether this route's 405 body carries `error: "MethodNotAllowedError"`. */
  methodNotAllowedClass?: boolean;
}

export interface RouteMatch {
  route: Route;
  handler: Handler | undefined;
  params: string[];
}

export function matchRoute(routes: Route[], method: string, path: string): RouteMatch | undefined {
  for (const route of routes) {
    const match = route.pattern.exec(path);
    if (!match) continue;
    const params = match.slice(1).map((segment) => decodeSegment(segment ?? ''));
    return { route, handler: route.methods[method], params };
  }
  return undefined;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
