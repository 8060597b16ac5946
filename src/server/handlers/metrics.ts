// GET /api/public/v2/metrics, the `observations` view: what a cost report needs. The query is the
// service's JSON object (`query=`); the engine (src/core/metrics) checks it and answers it over
// the observations of its range, which the store reads with their traces' fields.
import { z } from 'zod';
import { MetricsQueryError, parseMetricsQuery, queryRange, runMetricsQuery } from '../../core/metrics/index.js';
import { invalidRequest, invalidRequestData, zodIssues } from '../http/errors.js';
import type { Handler, Route } from '../http/router.js';
import { parseQuery } from './read-query.js';

const METRICS_QUERY = z.object({ query: z.string() });

const getMetrics: Handler = (request, tx) => {
  const text = parseQuery(METRICS_QUERY, request.query).query;
  try {
    const query = parseMetricsQuery(text);
    const { from, to } = queryRange(query);
    return { status: 200, body: { data: runMetricsQuery(query, tx.observations.forMetrics(from, to)) } };
  } catch (error) {
    if (!(error instanceof MetricsQueryError)) throw error;
    throw error.issues ? invalidRequestData(zodIssues(error.issues as never)) : invalidRequest(error.message);
  }
};

export const metricsRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/v2\/metrics$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { GET: getMetrics },
  },
];
