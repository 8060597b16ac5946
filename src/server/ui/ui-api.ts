// The UI's own endpoints, for what the public API has no route for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type InternalApi, sendJson } from './internal-api.js';
import { exportTraces, isExportFormat } from './export.js';
import { testModelMatch } from './model-match.js';
import { listTraces } from './traces-list.js';
import { readBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';

type UiHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

export function uiRoutes(api: InternalApi): UiHandler {
  const { context } = api;
  return async (req, res, url) => {
    const method = (req.method ?? 'GET').toUpperCase();
    if (url.pathname === '/ui/api/info' && method === 'GET') {
      req.resume();
      sendJson(res, { status: 200, body: { project: { id: context.store.project.id, name: context.store.project.name }, writeMode: context.writeMode } });
      return;
    }
    if (url.pathname === '/ui/api/traces' && method === 'GET') {
      req.resume();
      const { status, body } = listTraces(api, url.searchParams);
      sendJson(res, { status, body });
      return;
    }
    if (url.pathname === '/ui/api/export/traces' && method === 'GET') {
      req.resume();
      const format = url.searchParams.get('format');
      if (!isExportFormat(format)) return sendJson(res, { status: 400, body: { message: 'format: csv, json or jsonl' } });
      return exportTraces(api, res, url.searchParams, format);
    }
    if (url.pathname === '/ui/api/models/match' && method === 'POST') {
      const body = await readJson(req);
      return sendJson(res, body instanceof HttpError ? { status: body.status, body: body.body ?? { message: body.message } } : testModelMatch(api, body));
    }
    req.resume();
    sendJson(res, { status: 404, body: { message: `Not found: ${method} ${url.pathname}` } });
  };
}

/** A small JSON body, or the error that refused it. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  try {
    return (await readBody(req, 256 * 1024, '256kb', false)).parsed;
  } catch (error) {
    if (error instanceof HttpError) {
      req.resume();
      return error;
    }
    throw error;
  }
}
