// The UI reads and writes through the server's own route handlers with the project's key: the
// same answers a client of the public API gets, without a network hop. Every read route is open
// to it; writes only to model definitions and prompts, the two things the UI edits. The pages'
// own reads go through the API port's dispatch (sliced, or on the read thread); the UI's
// endpoints call handlers in-process for whole answers they work on, each small by its query.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { dispatch } from '../http/pipeline.js';
import { DeferredReply, type Handler, type HandlerContext, matchRoute, type Route, type RouteMatch, type ServerReply, type ServerRequest, writeJsonReply } from '../http/router.js';
import type { Tx } from '../store/index.js';

const WRITABLE = [/^\/api\/public\/models(\/[^/]+)?$/, /^\/api\/public\/v2\/prompts(\/.*)?$/];
const BODY_LIMIT = 1024 * 1024;

export type Call = (method: string, path: string, query?: URLSearchParams, body?: unknown) => ServerReply;

export interface InternalApi {
  /** One call, as the route's handler answers it (errors too), in a transaction of its own. */
  call: Call;
  /**
   * Calls in one write transaction: what `fn` read is still so when its writes commit. A reply
   * with an error does not undo the calls before it; `fn` throws to undo them.
   */
  atomically<T>(fn: (call: Call) => T): T;
  /**
   * Reads in one read transaction: one consistent state. `tx` is for what no route answers
   * without reading far more than asked (a page of one prompt's versions).
   */
  reading<T>(fn: (call: Call, tx: Tx) => T): T;
  /**
   * A GET answered onto `res` as the API port answers it (http/pipeline.ts): a large answer in
   * slices, metrics from the read thread, so no answer holds the event loop whatever its size.
   */
  send(res: ServerResponse, path: string, query: URLSearchParams): Promise<void>;
  context: HandlerContext;
}

export function internalApi(routes: readonly Route[], server: HandlerContext): InternalApi {
  // Answers whole, in the caller's transaction: a call here is synchronous.
  const context: HandlerContext = { ...server, inProcess: true };
  const key = context.store.apiKeys[0];
  /** The route and the request of one call, with the project's key; or the answer when no route takes it. */
  const resolve = (method: string, path: string, query: URLSearchParams, body: unknown): { match: RouteMatch & { handler: Handler }; request: ServerRequest } | ServerReply => {
    const match = matchRoute(routes, method, path);
    if (!match) return { status: 404, body: { message: `Route not found: ${method} ${path}` } };
    if (!match.handler) return { status: 405, body: { message: 'Method not allowed' } };
    const request: ServerRequest = {
      method,
      path,
      params: match.params,
      query,
      headers: {},
      body,
      rawBody: Buffer.from(JSON.stringify(body ?? {})),
      key,
      accessLevel: 'project',
    };
    return { match: { ...match, handler: match.handler }, request };
  };
  /** The route's answer to one call inside `tx`; the caller chooses the transaction. */
  const prepare = (method: string, path: string, query = new URLSearchParams(), body: unknown = {}): ((tx: Tx) => ServerReply) | ServerReply => {
    const resolved = resolve(method, path, query, body);
    if (!('match' in resolved)) return resolved;
    const { match, request } = resolved;
    const handler = match.handler;
    return (tx) => {
      try {
        const reply = handler(request, tx, context);
        if (reply instanceof DeferredReply) throw new Error(`${method} ${path} answered later; in-process calls need whole answers`);
        return reply;
      } catch (error) {
        if (error instanceof HttpError) return { status: error.status, body: error.body ?? { message: error.text ?? error.message } };
        throw error;
      }
    };
  };
  /** Calls inside `tx`; `only`: the one method allowed (a read transaction takes no writes). */
  const within =
    (tx: Tx, only?: string): Call =>
    (method, path, query, body) => {
      if (only && method !== only) return { status: 405, body: { message: `${method} in a read` } };
      const run = prepare(method, path, query, body);
      return typeof run === 'function' ? run(tx) : run;
    };
  return {
    context,
    call(method, path, query, body) {
      const run = prepare(method, path, query, body);
      if (typeof run !== 'function') return run;
      // A handler that throws HttpError rolls its writes back before its answer is returned.
      return method === 'GET' ? context.store.read(run) : writeOrAnswer(context, run);
    },
    atomically(fn) {
      return context.store.write((tx) => fn(within(tx)));
    },
    reading(fn) {
      return context.store.read((tx) => fn(within(tx, 'GET'), tx));
    },
    async send(res, path, query) {
      const resolved = resolve('GET', path, query, {});
      if (!('match' in resolved)) return sendJson(res, resolved);
      try {
        await dispatch(res, resolved.match, resolved.request, server, NO_STORE);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        sendJson(res, { status: error.status, body: error.body ?? { message: error.text ?? error.message } });
      }
    },
  };
}

/** Runs a write; an error answer rolls back what the handler wrote before it. */
function writeOrAnswer(context: HandlerContext, run: (tx: Tx) => ServerReply): ServerReply {
  let failed: ServerReply | undefined;
  try {
    return context.store.write((tx) => {
      const reply = run(tx);
      if (reply.status >= 400) {
        failed = reply;
        throw new RolledBack();
      }
      return reply;
    });
  } catch (error) {
    if (error instanceof RolledBack && failed) return failed;
    throw error;
  }
}

class RolledBack extends Error {}

/** `/api/public/...` on the UI's port, for the UI's pages. */
export async function forward(api: InternalApi, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  if (method !== 'GET' && !WRITABLE.some((pattern) => pattern.test(url.pathname))) {
    req.resume();
    sendJson(res, { status: 405, body: { message: 'The web UI changes only model definitions and prompts.' } });
    return;
  }
  let body: unknown = {};
  if (method !== 'GET') {
    try {
      body = (await readBody(req, BODY_LIMIT, '1mb', false)).parsed;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      req.resume();
      sendJson(res, { status: error.status, body: error.body ?? { message: error.text ?? error.message } });
      return;
    }
  } else {
    req.resume();
    return api.send(res, url.pathname, url.searchParams);
  }
  sendJson(res, api.call(method, url.pathname, url.searchParams, body));
}

const NO_STORE = { 'cache-control': 'no-store' };

export function sendJson(res: ServerResponse, reply: ServerReply): void {
  if (res.headersSent) return;
  writeJsonReply(res, reply, { ...NO_STORE, ...reply.headers });
}
