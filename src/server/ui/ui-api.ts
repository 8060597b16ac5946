// The UI's own endpoints under /ui/api/, for what the public API has no route for. Each answers
// JSON from the server's handlers and the core, except the export, which streams.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import type { ServerReply } from '../http/router.js';
import { costReport } from './cost.js';
import { EXPORTED_LISTS, exportList, isExportFormat } from './export.js';
import { type InternalApi, sendJson } from './internal-api.js';
import { testModelMatch } from './model-match.js';
import { moveLabel, promptDiff, promptVersions } from './prompts.js';
import { listTraces } from './traces-list.js';

type UiHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

/** A GET answered from the query, or a POST answered from a small JSON body. */
type Endpoint = { method: 'GET'; answer: (api: InternalApi, query: URLSearchParams) => ServerReply } | { method: 'POST'; answer: (api: InternalApi, body: unknown) => ServerReply };

const ENDPOINTS: Record<string, Endpoint> = {
  '/ui/api/traces': {
    method: 'GET',
    answer: (api, query) => {
      const { status, body } = listTraces(api, query);
      return { status, body };
    },
  },
  '/ui/api/cost': { method: 'GET', answer: costReport },
  '/ui/api/models/match': { method: 'POST', answer: testModelMatch },
  '/ui/api/prompts/versions': { method: 'GET', answer: promptVersions },
  '/ui/api/prompts/diff': { method: 'GET', answer: promptDiff },
  '/ui/api/prompts/labels': { method: 'POST', answer: moveLabel },
};

const JSON_BODY_LIMIT = 256 * 1024;

export function uiRoutes(api: InternalApi): UiHandler {
  return async (req, res, url) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const exported = /^\/ui\/api\/export\/(traces|observations)$/.exec(url.pathname)?.[1];
    if (exported && method === 'GET') {
      req.resume();
      const format = url.searchParams.get('format');
      if (!isExportFormat(format)) return sendJson(res, { status: 400, body: { message: 'format: csv, json or jsonl' } });
      const filter = new URLSearchParams(url.searchParams);
      filter.delete('format');
      filter.delete('cursor');
      return exportList(api, res, exported, EXPORTED_LISTS[exported]!, filter, format);
    }
    const endpoint = ENDPOINTS[url.pathname];
    if (!endpoint || endpoint.method !== method) {
      req.resume();
      return sendJson(res, { status: endpoint ? 405 : 404, body: { message: `${endpoint ? 'Method not allowed' : 'Not found'}: ${method} ${url.pathname}` } });
    }
    if (endpoint.method === 'GET') {
      req.resume();
      return sendJson(res, endpoint.answer(api, url.searchParams));
    }
    let body: unknown;
    try {
      body = (await readBody(req, JSON_BODY_LIMIT, '256kb', false)).parsed;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      req.resume();
      return sendJson(res, { status: error.status, body: error.body ?? { message: error.text ?? error.message } });
    }
    sendJson(res, endpoint.answer(api, body));
  };
}
