// HTTP calls for traces (API.md section 5): the legacy read routes, which Langfuse v4
// "events only" deployments no longer serve (404 with a v4 message), and Langfuse Cloud sunsets.
import { z } from 'zod';
import { ApiNotFoundError } from '../errors.js';
import type { ApiClient, Query } from './client.js';
import { type Page, pageSchema } from './schemas/common.js';
import { type ApiTrace, type ApiTraceListItem, TraceListItemSchema, TraceSchema } from './schemas/traces.js';

export const TRACES_PATH = '/api/public/traces';

export function tracePath(id: string): string {
  return `${TRACES_PATH}/${encodeURIComponent(id)}`;
}

export async function getTrace(client: ApiClient, id: string): Promise<ApiTrace> {
  const { data } = await client.request('GET', tracePath(id), { schema: TraceSchema });
  return data;
}

const TracesPageSchema = pageSchema(TraceListItemSchema);

export async function listTracesPage(client: ApiClient, query: Query, page: number, limit: number): Promise<Page<ApiTraceListItem>> {
  const { data } = await client.request('GET', TRACES_PATH, { query: { ...query, page, limit }, schema: TracesPageSchema });
  return data;
}

/** The largest page the trace list serves. */
export const TRACE_PAGE_LIMIT = 100;

/**
 * Up to `max` traces (every one when `max` is undefined), page by page. The page size is fixed
 * for the whole walk: page numbers only mean something for one size.
 */
export async function* traces(client: ApiClient, query: Query, max: number | undefined): AsyncGenerator<ApiTraceListItem> {
  const limit = max !== undefined && max < TRACE_PAGE_LIMIT ? max : TRACE_PAGE_LIMIT;
  let given = 0;
  for (let page = 1; ; page++) {
    const answer = await listTracesPage(client, query, page, limit);
    for (const item of answer.data) {
      if (max !== undefined && given >= max) return;
      given++;
      yield item;
    }
    if (answer.data.length === 0 || page >= answer.meta.totalPages || (max !== undefined && given >= max)) return;
  }
}

/**
 * What a 404 from a trace route means: the trace is not (yet) there, or the route itself is gone
 * (a v4 events-only deployment says so; anything else that is not Langfuse's "Trace … not found"
 * is taken the same way, and the v2 observations API is tried instead).
 */
export function notFoundKind(error: unknown): 'trace-missing' | 'route-gone' | undefined {
  if (!(error instanceof ApiNotFoundError)) return undefined;
  return /^trace .*not found/i.test(error.serverMessage ?? '') ? 'trace-missing' : 'route-gone';
}

const ScoresV3PageSchema = z.looseObject({ data: z.array(z.looseObject({ name: z.string() })) });

/** The first page (up to 100) of a trace's scores from GET /api/public/v3/scores (Langfuse v4). */
export async function traceScoresV3(client: ApiClient, traceId: string): Promise<Record<string, unknown>[]> {
  const { data } = await client.request('GET', '/api/public/v3/scores', { query: { traceId, limit: 100 }, schema: ScoresV3PageSchema });
  return data.data;
}
