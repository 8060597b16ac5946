// Routes of the local server. Handler modules (src/server/handlers, src/server/ingest) export
// their routes; src/server/index.ts collects them. A handler is synchronous and runs inside the
// request's one store transaction (a read transaction for GET, a write transaction otherwise):
// it returns the answer or throws an HttpError, and anything it throws rolls its writes back.
// A read whose answer is too large to build at once leaves parts of it to be read after the
// transaction, in slices (json-stream.ts); one that waits for the read thread answers a
// DeferredReply, which the pipeline awaits.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { WriteMode } from '../../api/write-mode.js';
import type { ApiKeyRecord } from '../records.js';
import type { Store, Tx } from '../store/index.js';
import type { AccessLevel } from './auth.js';
import type { BodyBudget } from './body.js';

export interface ServerRequest {
  method: string;
  /** Path as sent (still URL-encoded). */
  path: string;
  /** Captured path segments, URL-decoded. */
  params: string[];
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /**
   * The body as the real routes' body parser gives it: parsed JSON for `application/json`
   * (`{}` when empty), an object of strings for form encoding, else the text. `undefined` for
   * routes that take the raw body.
   */
  body: unknown;
  /** The body's bytes as received. */
  rawBody: Buffer;
  /** The key that authenticated the request (routes with auth). */
  key: ApiKeyRecord | undefined;
  /** What the key grants: "scores" for `Bearer <public key>` on routes that allow it. */
  accessLevel: AccessLevel | undefined;
}

export interface ServerReply {
  status: number;
  /** Sent as JSON; none for 204 or when undefined. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface HandlerContext {
  store: Store;
  now: () => Date;
  /** The Langfuse version the server behaves as (health reports it). */
  apiVersion: string;
  /** Most spans one OTLP export may carry (default OTLP_MAX_SPANS). */
  maxSpansPerExport?: number | undefined;
  /** Events whose records one transaction of a large ingestion request writes (default INGEST_PART_EVENTS). */
  ingestPartEvents?: number | undefined;
  /** The Langfuse v4 write mode the server runs (src/api/write-mode.ts). */
  writeMode: WriteMode;
  /**
   * Set for calls from the same process (the web UI): answers are built whole, inside the
   * caller's transaction, never sliced or left to the read thread.
   */
  inProcess?: boolean;
  /** A new one-time link to the web UI, when the server runs one. */
  uiLink?: (() => string) | undefined;
}

/**
 * An answer that must wait (for the read thread) after the handler's transaction. What it throws
 * is answered as what a handler throws.
 */
export class DeferredReply {
  constructor(readonly settle: () => Promise<ServerReply>) {}
}

export type Handler = (request: ServerRequest, tx: Tx, context: HandlerContext) => ServerReply | DeferredReply;

/**
 * How a route answers auth failures (they differ between the service's routes):
 * - "project": `createAuthedProjectAPIRoute`, `{message}` with 401 or 403;
 * - "prompts": the prompt routes' own check, `{message, error}` (UnauthorizedError, ForbiddenError);
 * - "projects": `{message}` with 401; the handler answers the 403s itself.
 * - "organization": the organization routes (blob-storage integrations): the organization's key
 *   only, `{message, error}` (UnauthorizedError 401, ForbiddenError 403).
 */
export type AuthFlavor = 'project' | 'prompts' | 'projects' | 'organization';

export interface Route {
  /** Matched against the raw path; capture groups become `params` (decoded). */
  pattern: RegExp;
  auth: AuthFlavor | 'none';
  /** Accept `Bearer <public key>` ("scores" access), as the score routes do. */
  allowScoresKey?: boolean;
  methods: Partial<Record<string, Handler>>;
  /** Whether this route's 405 body carries `error: "MethodNotAllowedError"`. */
  methodNotAllowedClass?: boolean;
  /** The real route's body size limit, in its body parser's notation ("1mb" when not set). */
  bodyLimit?: string;
  /** "raw": the body is not parsed (the route's body parser is off on the real server). */
  bodyParser?: 'raw';
  /**
   * Methods the service answers with a 404 before authentication in events_only mode: the route
   * reads or writes v3 tables that mode no longer fills (`rejectInEventsOnlyMode`).
   */
  removedInEventsOnly?: readonly string[];
  /**
   * Work on the request that may wait, after authentication and before the transaction (inflating
   * a compressed body, decoding it a part at a time): a reply answers instead of the handler;
   * undefined goes on to it.
   */
  prepare?: (request: ServerRequest, budget: BodyBudget | undefined, context: HandlerContext) => Promise<ServerReply | undefined>;
  /** The write modes this route exists in (all when not set). */
  writeModes?: readonly WriteMode[];
  /**
   * The handler's writes may share a commit with other requests' (Store.writeGrouped): the
   * ingestion routes, whose requests often arrive together. Answered after that commit.
   */
  groupCommit?: boolean;
}

export interface RouteMatch {
  route: Route;
  handler: Handler | undefined;
  params: string[];
}

export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
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

/** Writes a reply as JSON with a content length (none for a 204 or a reply without a body), with `headers`. */
export function writeJsonReply(res: ServerResponse, reply: ServerReply, headers: Record<string, string>): void {
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  // Encoded once: its length is the bytes written, not a second pass over the text.
  const bytes = Buffer.from(JSON.stringify(reply.body));
  res.writeHead(reply.status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
  res.end(bytes);
}
