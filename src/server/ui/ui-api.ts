// The UI's own endpoints under /ui/api/, for what the public API has no route for. Each answers
// JSON from the server's handlers and the core (a large one in slices), except the export, which
// streams. Each module loads on its first request, so the UI adds little to the server's start.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../http/body.js';
import { HttpError } from '../http/errors.js';
import { isSliced, writeSliced } from '../http/json-stream.js';
import type { ServerReply } from '../http/router.js';
import { type InternalApi, sendJson } from './internal-api.js';

type UiHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;

/** A GET answered from the query, or a POST answered from a small JSON body. */
type Endpoint = { method: 'GET'; load: () => Promise<(api: InternalApi, query: URLSearchParams) => ServerReply | Promise<ServerReply>> } | { method: 'POST'; load: () => Promise<(api: InternalApi, body: unknown) => ServerReply> };

const ENDPOINTS: Record<string, Endpoint> = {
  '/ui/api/traces': {
    method: 'GET',
    load: async () => {
      const { listTraces } = await import('./traces-list.js');
      return async (api, query) => {
        const { status, body } = await listTraces(api, query);
        return { status, body };
      };
    },
  },
  '/ui/api/traces/observations': { method: 'GET', load: async () => (await import('./trace-observations.js')).traceObservations },
  '/ui/api/cost': { method: 'GET', load: async () => (await import('./cost.js')).costReport },
  '/ui/api/models/last-used': { method: 'GET', load: async () => modelsLastUsed },
  '/ui/api/models/match': { method: 'POST', load: async () => (await import('./model-match.js')).testModelMatch },
  '/ui/api/prompts/versions': { method: 'GET', load: async () => (await import('./prompts.js')).promptVersions },
  '/ui/api/prompts/diff': { method: 'GET', load: async () => (await import('./prompts.js')).promptDiff },
  '/ui/api/prompts/labels': { method: 'POST', load: async () => (await import('./prompts.js')).moveLabel },
};

/** The models' "Last used" (the public API has no field for it): one entry per model ever used. */
function modelsLastUsed(api: InternalApi): ServerReply {
  const used = api.context.store.read((tx) => tx.models.lastUsed());
  return { status: 200, body: { data: [...used].map(([modelId, lastUsed]) => ({ modelId, lastUsed })) } };
}

const JSON_BODY_LIMIT = 256 * 1024;

export function uiRoutes(api: InternalApi): UiHandler {
  return async (req, res, url) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const exported = /^\/ui\/api\/export\/(traces|observations)$/.exec(url.pathname)?.[1];
    if (exported && method === 'GET') {
      req.resume();
      const format = url.searchParams.get('format');
      if (format !== 'csv' && format !== 'json' && format !== 'jsonl') return sendJson(res, { status: 400, body: { message: 'format: csv, json or jsonl' } });
      const filter = new URLSearchParams(url.searchParams);
      filter.delete('format');
      filter.delete('cursor');
      const { EXPORTED_LISTS, exportList } = await import('./export.js');
      return exportList(api, res, exported, EXPORTED_LISTS[exported]!, filter, format);
    }
    const endpoint = ENDPOINTS[url.pathname];
    if (!endpoint || endpoint.method !== method) {
      req.resume();
      return sendJson(res, { status: endpoint ? 405 : 404, body: { message: `${endpoint ? 'Method not allowed' : 'Not found'}: ${method} ${url.pathname}` } });
    }
    if (endpoint.method === 'GET') {
      req.resume();
      const reply = await (await endpoint.load())(api, url.searchParams);
      // An answer with parts read later is written in slices (http/json-stream.ts).
      if (isSliced(reply.body)) return writeSliced(res, reply.status, { 'cache-control': 'no-store', ...reply.headers }, reply.body, api.context.store);
      return sendJson(res, reply);
    }
    let body: unknown;
    try {
      body = (await readBody(req, JSON_BODY_LIMIT, '256kb', false)).parsed;
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      req.resume();
      return sendJson(res, { status: error.status, body: error.body ?? { message: error.text ?? error.message } });
    }
    sendJson(res, (await endpoint.load())(api, body));
  };
}
