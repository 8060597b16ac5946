// GET /api/public/metrics, the Metrics API v1 (web/src/pages/api/public/metrics/index.ts): the
// same JSON query as v2 (`query=`), checked against v1's views (traces, observations and the
// score views of the v3 tables, GetMetricsV1Query in web/src/features/public-api/types/
// metrics.ts), answered as `{ data: [...] }` by the engine over the store's v1 rows, on the
// server's read thread when it has a data directory (store/read-thread.ts). The service
// marks it `rejectInEventsOnlyMode`: this route exists in legacy and dual mode, and events_only
// answers its removal (removed-routes.ts).
import { z } from 'zod';
import { MetricsQueryError, MetricsResourceError, parseMetricsQuery } from '../../core/metrics/index.js';
import { HttpError, invalidRequest, invalidRequestData, zodIssues } from '../http/errors.js';
import { DeferredReply, type Handler, type Route } from '../http/router.js';
import { metricsV1Answer } from '../store/index.js';
import { parseQuery } from './read-query.js';

const METRICS_QUERY = z.object({ query: z.string() });

/**
 * The 422 of a query over ClickHouse's resource limits on this route
 * (LEGACY_PUBLIC_API_METRICS_CLICKHOUSE_RESOURCE_ERROR_MESSAGE in withMiddlewares.ts).
 */
export const V1_METRICS_RESOURCE_MESSAGE = [
  'Your query could not be completed. Please narrow your request by adding more specific filters (e.g., a shorter date range).',
  'This legacy endpoint can be slow. Please migrate to the high-performance Metrics API v2 at /api/public/v2/metrics.',
  'This applies to Langfuse Cloud only until v4 is released in OSS.',
  'Docs: https://langfuse.com/docs/metrics/features/metrics-api',
].join('\n');

/** The service's answers to a query it refuses or cannot answer; anything else is thrown on. */
function refusal(error: unknown): unknown {
  if (error instanceof MetricsResourceError) return new HttpError(422, { message: V1_METRICS_RESOURCE_MESSAGE, error: 'Request timed out' });
  if (!(error instanceof MetricsQueryError)) return error;
  if (!error.issues) return invalidRequest(error.message);
  // The route's schema parses the query inside its `query` parameter, so its issues' paths start there.
  return invalidRequestData(zodIssues(error.issues.map((issue) => ({ ...issue, path: ['query', ...issue.path] })) as never));
}

const getMetricsV1: Handler = (request, tx, context) => {
  const text = parseQuery(METRICS_QUERY, request.query).query;
  try {
    const query = parseMetricsQuery(text, 'v1');
    // With a data directory the answer is computed on the read thread (as v2's), else here.
    const aside = context.inProcess ? undefined : context.store.metricsV1OffThread(text);
    if (aside) {
      return new DeferredReply(async () => {
        try {
          // A read thread that failed (it could not start, or stopped) leaves the query to the event loop.
          const data = await aside.catch((error: unknown) => {
            if (error instanceof MetricsQueryError || error instanceof MetricsResourceError) throw error;
            return context.store.read((later) => metricsV1Answer(query, later.metricsV1));
          });
          return { status: 200, body: { data } };
        } catch (error) {
          throw refusal(error);
        }
      });
    }
    return { status: 200, body: { data: metricsV1Answer(query, tx.metricsV1) } };
  } catch (error) {
    throw refusal(error);
  }
};

export const metricsV1Routes: Route[] = [
  {
    pattern: /^\/api\/public\/metrics$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { GET: getMetricsV1 },
    writeModes: ['legacy', 'dual'],
  },
];
