// GET /api/public/metrics, the Metrics API v1 (web/src/pages/api/public/metrics/index.ts): the
// same JSON query as v2 (`query=`), checked against v1's views (traces, observations and the
// score views of the v3 tables, GetMetricsV1Query in web/src/features/public-api/types/
// metrics.ts), answered as `{ data: [...] }` by the engine over the store's v1 rows. The service
// marks it `rejectInEventsOnlyMode`: this route exists in legacy and dual mode, and events_only
// answers its removal (removed-routes.ts).
import { z } from 'zod';
import { MetricsQueryError, MetricsResourceError, parseMetricsQuery, queryRange, runMetricsQuery, v1Declaration, v1Relations } from '../../core/metrics/index.js';
import { HttpError, invalidRequest, invalidRequestData, zodIssues } from '../http/errors.js';
import type { Handler, Route } from '../http/router.js';
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

const getMetricsV1: Handler = (request, tx) => {
  const text = parseQuery(METRICS_QUERY, request.query).query;
  try {
    const query = parseMetricsQuery(text, 'v1');
    const { from, to } = queryRange(query);
    const relations = v1Relations(v1Declaration(query.view), query);
    const rows = query.view === 'traces' ? tx.metricsV1.traces(from, to, relations) : query.view === 'observations' ? tx.metricsV1.observations(from, to, relations) : tx.metricsV1.scores(from, to);
    return { status: 200, body: { data: runMetricsQuery(query, rows, 'v1') } };
  } catch (error) {
    if (error instanceof MetricsResourceError) throw new HttpError(422, { message: V1_METRICS_RESOURCE_MESSAGE, error: 'Request timed out' });
    if (!(error instanceof MetricsQueryError)) throw error;
    if (!error.issues) throw invalidRequest(error.message);
    // The route's schema parses the query inside its `query` parameter, so its issues' paths start there.
    throw invalidRequestData(zodIssues(error.issues.map((issue) => ({ ...issue, path: ['query', ...issue.path] })) as never));
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
