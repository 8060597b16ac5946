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

/** One page of the trace list; page and limit left out are the server's defaults (1 and 50). */
export async function listTracesPage(client: ApiClient, query: Query, page: number | undefined, limit: number | undefined): Promise<Page<ApiTraceListItem>> {
  const { data } = await client.request('GET', TRACES_PATH, { query: { ...query, page, limit }, schema: TracesPageSchema });
  return data;
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
