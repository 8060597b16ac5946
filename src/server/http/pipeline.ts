// One request, in the order the real routes take it: route, body (bounded, before anything else),
// CORS and preflight, method, authentication, then the handler inside one store transaction.
// A route that reads its body itself (OTLP) authenticates first, as the real one does: a client
// without a key cannot make the server hold its 32 MB. Bodies being received share one budget of
// memory; past it a request is answered 503 (clients retry) rather than the server running out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { VERSION } from '../../version.js';
import { type AuthOptions, verifyAuthHeader } from './auth.js';
import { BodyBudget, drainBody, formatSize, parseSize, readBody } from './body.js';
import { corsHeaders, preflightHeaders } from './cors.js';
import { baseError, HttpError, methodNotAllowed, removedInEventsOnly } from './errors.js';
import { isSliced, writeSliced } from './json-stream.js';
import type { Tx } from '../store/index.js';
import { DeferredReply, type Handler, type HandlerContext, matchRoute, type Route, type RouteMatch, type ServerReply, type ServerRequest, writeJsonReply } from './router.js';

export interface PipelineOptions extends AuthOptions {
  /** Caps every route's body limit (tests use a small one). */
  bodyLimitBytes?: number | undefined;
  /** Bytes of request bodies held at once, all requests together (default 256 MB). */
  bodyBudget?: BodyBudget | undefined;
  log?: ((line: string) => void) | undefined;
}

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function handleRequest(req: IncomingMessage, res: ServerResponse, routes: readonly Route[], context: HandlerContext, options: PipelineOptions): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://local');
  const match = matchRoute(routes, method, url.pathname);
  if (!match) {
    req.resume();
    sendJson(res, { status: 404, body: { message: `Route not found: ${method} ${url.pathname}`, error: 'LangfuseNotFoundError' } });
    return;
  }
  const { route, handler, params } = match;
  let extra: Record<string, string> = {};
  const raw = route.bodyParser === 'raw';
  try {
    const routeLimit = parseSize(route.bodyLimit ?? '1mb');
    const limit = options.bodyLimitBytes !== undefined ? Math.min(routeLimit, options.bodyLimitBytes) : routeLimit;
    const label = limit === routeLimit ? (route.bodyLimit ?? '1mb') : formatSize(limit);
    const request: ServerRequest = { method, path: url.pathname, params, query: url.searchParams, headers: req.headers, body: undefined, rawBody: Buffer.alloc(0), key: undefined, accessLevel: undefined };
    const read = async () => {
      const body = await readBody(req, limit, label, raw, options.bodyBudget);
      request.body = body.parsed;
      request.rawBody = body.raw;
    };
    if (!raw) await read();

    extra = corsHeaders(req.headers);
    if (method === 'OPTIONS') {
      req.resume();
      res.writeHead(204, { 'x-llmobs-server': VERSION, ...preflightHeaders(req.headers) });
      res.end();
      return;
    }
    // After CORS and the method check of the service's route (which has these methods), before auth.
    if (context.writeMode === 'events_only' && route.removedInEventsOnly?.includes(method)) throw removedInEventsOnly();
    if (!handler) throw methodNotAllowed(route.methodNotAllowedClass ?? true);

    if (route.auth !== 'none') authenticate(request, route, context, options);
    if (raw) await read();
    const early = route.prepare ? await route.prepare(request, options.bodyBudget, context) : undefined;
    if (early) {
      sendJson(res, early, { 'x-llmobs-server': VERSION, ...extra });
      return;
    }
    await dispatch(res, { route, handler, params }, request, context, { 'x-llmobs-server': VERSION, ...extra });
  } catch (error) {
    if (error instanceof HttpError) {
      // The rest of a body refused before or while reading it flows past unkept, so the client
      // still gets this answer. Before a 413, which closes the connection, it is read to its end
      // (within bounds), or a client still sending would see the connection fail instead.
      if (error.status === 413) await drainBody(req);
      else if (!req.complete) req.resume();
      if (error.text !== undefined) sendText(res, error.status, error.text, error.status === 413);
      else sendJson(res, { status: error.status, body: error.body, headers: error.headers }, extra);
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    options.log?.(`internal error: ${error instanceof Error ? (error.stack ?? message) : message}`);
    // A StoreWriteError says the write was rolled back: the client may retry safely.
    sendJson(res, { status: 500, body: { message: 'Internal Server Error', error: message } }, extra);
  }
}

/**
 * Runs a matched route's handler in its transaction and sends the answer: whole, or in slices
 * (json-stream.ts), after the read thread when it waits for it. What the handler throws (an
 * HttpError) is the caller's to answer. The web UI's reads come this way too.
 */
export async function dispatch(res: ServerResponse, match: RouteMatch & { handler: Handler }, request: ServerRequest, context: HandlerContext, headers: Record<string, string>): Promise<void> {
  const { route, handler } = match;
  const run = (tx: Tx) => handler(request, tx, context);
  const answer = READ_METHODS.has(request.method) ? context.store.read(run) : route.groupCommit ? await context.store.writeGrouped(run) : context.store.write(run);
  const reply = answer instanceof DeferredReply ? await answer.settle() : answer;
  if (isSliced(reply.body)) await writeSliced(res, reply.status, { ...headers, ...reply.headers }, reply.body, context.store);
  else if (!res.headersSent) writeJsonReply(res, reply, { ...headers, ...reply.headers });
}

function authenticate(request: ServerRequest, route: Route, context: HandlerContext, options: PipelineOptions): void {
  const check = verifyAuthHeader(request.headers.authorization, context.store.apiKeys, options, context.store.organizationKeys);
  if (route.auth === 'organization') {
    if (!check.ok) throw baseError(401, 'UnauthorizedError', check.error);
    if (check.accessLevel !== 'organization') throw baseError(403, 'ForbiddenError', 'Organization-scoped API key required for this operation.');
    request.key = check.key;
    request.accessLevel = check.accessLevel;
    return;
  }
  const prompts = route.auth === 'prompts';
  if (!check.ok) throw new HttpError(401, prompts ? { message: check.error, error: 'UnauthorizedError' } : { message: check.error });
  // The projects route answers an organization key itself, as Langfuse's does.
  if ((check.accessLevel === 'scores' && !route.allowScoresKey) || (check.accessLevel === 'organization' && route.auth !== 'projects')) {
    throw new HttpError(
      403,
      prompts
        ? { message: `Access denied - need to use basic auth with secret key to ${request.method} prompts`, error: 'ForbiddenError' }
        : { message: 'Access denied - insufficient permissions for this endpoint' },
    );
  }
  request.key = check.key;
  request.accessLevel = check.accessLevel;
}

function sendJson(res: ServerResponse, reply: ServerReply, extra: Record<string, string> = {}): void {
  if (res.headersSent) return;
  writeJsonReply(res, reply, { 'x-llmobs-server': VERSION, ...extra, ...reply.headers });
}

/** The framework's own error: reason phrase and body are the message. */
function sendText(res: ServerResponse, status: number, message: string, closeConnection: boolean): void {
  if (res.headersSent) return;
  res.statusMessage = message;
  res.writeHead(status, { 'x-llmobs-server': VERSION, 'content-length': String(Buffer.byteLength(message)), ...(closeConnection ? { connection: 'close' } : {}) });
  res.end(message);
}
