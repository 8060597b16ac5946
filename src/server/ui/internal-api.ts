// The UI reads and writes through the server's own route handlers, called in-process with the
// project's key: the same answers a client of the public API gets, without a network hop. Every
// read route is open to it, the v3 ones too whatever the write mode (the traces list needs them);
// writes only to model definitions and prompts, the two things the UI edits.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { type HandlerContext, matchRoute, type Route, type ServerReply, type ServerRequest } from '../http/router.js';

const WRITABLE = [/^\/api\/public\/models(\/[^/]+)?$/, /^\/api\/public\/v2\/prompts(\/.*)?$/];
const BODY_LIMIT = 1024 * 1024;

export interface InternalApi {
  /** One call, as the route's handler answers it (errors too). */
  call(method: string, path: string, query?: URLSearchParams, body?: unknown): ServerReply;
  context: HandlerContext;
}

export function internalApi(routes: readonly Route[], context: HandlerContext): InternalApi {
  const key = context.store.apiKeys[0];
  return {
    context,
    call(method, path, query = new URLSearchParams(), body = {}) {
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
      try {
        return method === 'GET' ? context.store.read((tx) => handler(request, tx, context)) : context.store.write((tx) => handler(request, tx, context));
      } catch (error) {
        if (error instanceof HttpError) return { status: error.status, body: error.body ?? { message: error.text ?? error.message } };
        throw error;
      }
    },
  };
}

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
  const headers: Record<string, string> = { 'cache-control': 'no-store', ...reply.headers };
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}
