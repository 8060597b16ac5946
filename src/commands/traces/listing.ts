// The traces of traces list: from the legacy trace list, page by page; where that route is gone
// (Langfuse v4 "events only" deployments, Langfuse Cloud after the v3 read API's sunset), from
// the root observations of the v2 API, one per trace, with the filters it lacks applied here.
import type { ApiClient, Query } from '../../api/client.js';
import { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, observationPages, retryOptions } from '../../api/observations.js';
import { listTracesPage, notFoundKind } from '../../api/traces.js';
import type { Context } from '../../context.js';
import { hasLocalFilters, type LocalTraceFilters, rootAsTrace, rootMatches } from '../../core/traces/list-row.js';
import { ApiNotFoundError, UsageError } from '../../errors.js';
import { type Listing, type Paging, readList } from '../paging.js';

/** Traces listed when neither --limit nor --all is given (the server's page size). */
const DEFAULT_LIMIT = 50;

export interface TraceFilters extends LocalTraceFilters, Paging {
  user?: string | undefined;
  session?: string | undefined;
  environment?: string[] | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  orderBy?: string | undefined;
}

/** The traces, and the legacy listing they come from (undefined: root observations of the v2 API). */
export async function readTraces(ctx: Context, client: ApiClient, opts: TraceFilters): Promise<{ listing: Listing<Record<string, unknown>> | undefined; items: Record<string, unknown>[] }> {
  const query: Query = {
    name: opts.name,
    userId: opts.user,
    sessionId: opts.session,
    tags: opts.tag,
    environment: opts.environment,
    release: opts.release,
    version: opts.version,
    fromTimestamp: opts.from?.toISOString(),
    toTimestamp: opts.to?.toISOString(),
    orderBy: opts.orderBy,
    fields: 'core,observations,scores,metrics',
  };
  try {
    const listing = await readList((request) => listTracesPage(client, query, request.page, request.limit), opts, { maxPages: ctx.globals.maxPages });
    return { listing, items: listing.data };
  } catch (error) {
    if (notFoundKind(error) !== 'route-gone') throw error;
    if (opts.orderBy) throw new UsageError('--order-by needs the legacy trace list, which this server does not have', { cause: error });
    if (opts.page !== undefined) throw new UsageError('--page needs the legacy trace list, which this server does not have; use --limit or --all', { cause: error });
    ctx.trace(`  ${(error as Error).message}: listing root observations of the v2 API instead`);
    try {
      return { listing: undefined, items: await fromRootObservations(ctx, client, opts, opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT)) };
    } catch (inner) {
      // Neither route is there: the first answer says more about the server.
      if (inner instanceof ApiNotFoundError) throw error;
      throw inner;
    }
  }
}

/** Traces as their root observations (v2 API). Filters the API has are sent; the rest are applied here. */
async function fromRootObservations(ctx: Context, client: ApiClient, opts: TraceFilters, max: number | undefined): Promise<Record<string, unknown>[]> {
  const query: Query = {
    isRootObservation: 'true',
    fields: 'core,basic,metrics,trace_context',
    userId: opts.user,
    sessionId: opts.session,
    environment: opts.environment,
    fromStartTime: opts.from?.toISOString(),
    toStartTime: opts.to?.toISOString(),
  };
  const out: Record<string, unknown>[] = [];
  const seen = new Set<string>();
  const pages = observationPages(client, query, FIRST_PAGE, {
    ...retryOptions(ctx),
    // Several root observations can share a trace: read on until enough distinct traces.
    pageSize: hasLocalFilters(opts) || max === undefined ? OBSERVATION_PAGE_LIMIT : Math.min(Math.max(max, 50), OBSERVATION_PAGE_LIMIT),
    maxPages: ctx.globals.maxPages,
    maxBytes: client.limits.maxListingBytes,
  });
  for await (const page of pages) {
    for (const o of page.items) {
      const traceId = typeof o.traceId === 'string' ? o.traceId : null;
      if (!traceId || seen.has(traceId) || !rootMatches(o, opts)) continue;
      seen.add(traceId);
      out.push(rootAsTrace(o, traceId));
      if (max !== undefined && out.length >= max) return out;
    }
  }
  return out;
}
