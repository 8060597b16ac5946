// The traces of traces list: from the v3 trace list, page by page; where that route is gone
// (Langfuse v4 "events only" deployments, Langfuse Cloud after the v3 read API's sunset), from
// the root observations of the v2 API, one per trace, with the filters it lacks applied here and
// each trace's cost, latency and observation count from one Metrics API query per 100 traces.
// Which of the two a server answers is remembered (api/read-routes.ts).
import type { ApiClient, Query } from '../../api/client.js';
import { queryMetrics } from '../../api/metrics.js';
import { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, observationPages, retryOptions } from '../../api/observations.js';
import { viaRoute } from '../../api/read-routes.js';
import { listTracesPage, notFoundKind } from '../../api/traces.js';
import type { Context } from '../../context.js';
import { hasLocalFilters, type LocalTraceFilters, rootAsTrace, rootMatches } from '../../core/traces/list-row.js';
import { observationCount, readTraceMetrics, TRACE_METRICS_CHUNK, traceMetricsQuery } from '../../core/traces/list-metrics.js';
import { ApiNotFoundError, CliError, UsageError } from '../../errors.js';
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

export interface ReadTraces {
  /** The v3 listing the traces come from; undefined: root observations of the v2 API. */
  listing: Listing<Record<string, unknown>> | undefined;
  items: Record<string, unknown>[];
  /** Why the per-trace numbers are missing, when the Metrics API did not answer them. */
  metricsProblem?: string | undefined;
}

export async function readTraces(ctx: Context, client: ApiClient, opts: TraceFilters): Promise<ReadTraces> {
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
  const routed = await viaRoute<'traces', ReadTraces>(
    ctx,
    client,
    'traces',
    {
      v3: async () => {
        const listing = await readList((request) => listTracesPage(client, query, request.page, request.limit), opts, { maxPages: ctx.globals.maxPages });
        return { listing, items: listing.data };
      },
      v4: async () => {
        if (opts.orderBy) throw new UsageError('--order-by needs the v3 trace list, which this server does not have (Langfuse v4): traces come newest first');
        if (opts.page !== undefined) throw new UsageError('--page needs the v3 trace list, which this server does not have (Langfuse v4); use --limit or --all');
        const items = await fromRootObservations(ctx, client, opts, opts.all ? undefined : (opts.limit ?? DEFAULT_LIMIT));
        return { listing: undefined, items, metricsProblem: await addTraceMetrics(ctx, client, items) };
      },
    },
    { gone: (error, route) => (route === 'v3' ? notFoundKind(error) === 'route-gone' : error instanceof ApiNotFoundError) },
  );
  return routed.value;
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
  const byTrace = new Map<string, Record<string, unknown>>();
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
      if (!traceId) continue;
      const listed = byTrace.get(traceId);
      if (listed) {
        (listed.rootObservationIds as unknown[]).push(o.id);
        continue;
      }
      if (!rootMatches(o, opts)) continue;
      const item = { ...rootAsTrace(o, traceId), rootObservationIds: [o.id] };
      byTrace.set(traceId, item);
      out.push(item);
      if (max !== undefined && out.length >= max) return out;
    }
  }
  return out;
}

/**
 * Sets each trace's totalCost, latency and observationCount from the Metrics API. A failure
 * (a rate limit, a server without metrics v2) leaves them empty: the list is still right, and
 * the returned text says why they are missing.
 */
async function addTraceMetrics(ctx: Context, client: ApiClient, items: Record<string, unknown>[]): Promise<string | undefined> {
  for (let at = 0; at < items.length; at += TRACE_METRICS_CHUNK) {
    const chunk = items.slice(at, at + TRACE_METRICS_CHUNK);
    const times = chunk.map((item) => Date.parse(String(item.timestamp))).filter((t) => Number.isFinite(t));
    const earliest = new Date(times.length ? Math.min(...times) : ctx.now().getTime());
    let rows: Record<string, unknown>[];
    try {
      rows = await queryMetrics(ctx, client, traceMetricsQuery(chunk.map((item) => String(item.id)), earliest, ctx.now()));
    } catch (error) {
      if (!(error instanceof CliError) || error instanceof UsageError) throw error;
      for (const item of items) delete item.rootObservationIds;
      return error.message;
    }
    const metrics = readTraceMetrics(rows);
    for (const item of chunk) {
      const found = metrics.get(String(item.id));
      item.totalCost = found?.totalCost ?? null;
      item.latency = found?.longest ?? item.latency ?? null;
      item.observationCount = found ? observationCount(found, String(item.id), item.rootObservationIds as string[]) : null;
    }
  }
  for (const item of items) delete item.rootObservationIds;
  return undefined;
}
