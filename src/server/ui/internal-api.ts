// The UI reads and writes through the server's own route handlers, called in-process with the
// project's key: the same answers a client of the public API gets, without a network hop. Every
// read route is open to it; writes only to model definitions and prompts, the two things the UI
// edits.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { DeferredReply, type HandlerContext, matchRoute, type Route, type ServerReply, type ServerRequest, writeJsonReply } from '../http/router.js';
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
  /** Reads in one read transaction: one consistent state. */
  reading<T>(fn: (call: Call) => T): T;
  context: HandlerContext;
}

export function internalApi(routes: readonly Route[], server: HandlerContext): InternalApi {
  // Answers whole, in the caller's transaction: a call here is synchronous.
  const context: HandlerContext = { ...server, inProcess: true };
  const key = context.store.apiKeys[0];
  /** The route's answer to one call inside `tx`; the caller chooses the transaction. */
  const prepare = (method: string, path: string, query = new URLSearchParams(), body: unknown = {}): ((tx: Tx) => ServerReply) | ServerReply => {
    const match = matchRoute(routes, method, path);
    if (!match) return { status: 404, body: { message: `Route not found: ${method} ${path}` } };
    if (!match.handler) return { status: 405, body: { message: 'Method not allowed' } };
    const handler = match.handler;
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
      return context.store.read((tx) => fn(within(tx, 'GET')));
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
  }
  sendJson(res, api.call(method, url.pathname, url.searchParams, body));
}

export function sendJson(res: ServerResponse, reply: ServerReply): void {
  writeJsonReply(res, reply, { 'cache-control': 'no-store', ...reply.headers });
}
