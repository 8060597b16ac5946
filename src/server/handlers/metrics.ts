// GET /api/public/v2/metrics (web/src/pages/api/public/v2/metrics.ts): the `observations` view
// (what a cost report needs) and the score views. The query is the service's JSON object
// (`query=`); the engine (src/core/metrics) checks it; the store aggregates observations in SQL,
// and the engine finishes the answer. Scores, and a query on metadata, the engine answers over
// the rows of the range, which the store reads with their traces' fields. With a data directory
// all of it runs on the server's read thread (store/read-thread.ts).
import { z } from 'zod';
import { V4_ONLY_MESSAGES } from '../../api/write-mode.js';
import { MetricsQueryError, parseMetricsQuery, queryRange } from '../../core/metrics/index.js';
import { invalidRequest, invalidRequestData, notFound, zodIssues } from '../http/errors.js';
import { DeferredReply, type Handler, type Route } from '../http/router.js';
import { metricsAnswer } from '../store/index.js';
import { parseQuery } from './read-query.js';

const METRICS_QUERY = z.object({ query: z.string() });
const INVALID_JSON = 'Invalid JSON in query parameter';

/** The service's answers to a query it refuses; anything else is thrown on. */
function refusal(error: unknown, legacy: boolean): unknown {
  if (!(error instanceof MetricsQueryError)) return error;
  if (legacy && !error.issues && error.message !== INVALID_JSON) return notFound(V4_ONLY_MESSAGES.metrics);
  if (!error.issues) return invalidRequest(error.message);
  // The route's schema parses the query inside its `query` parameter, so its issues' paths start there.
  return invalidRequestData(zodIssues(error.issues.map((issue) => ({ ...issue, path: ['query', ...issue.path] })) as never));
}

const getMetrics: Handler = (request, tx, context) => {
  const text = parseQuery(METRICS_QUERY, request.query).query;
  // In legacy mode the service answers 404 once the query passed its schema (v2/metrics.ts,
  // isMetricsV2Available): bad JSON and schema issues still answer 400, the later checks do not run.
  const legacy = context.writeMode === 'legacy';
  try {
    const query = parseMetricsQuery(text);
    if (legacy) throw notFound(V4_ONLY_MESSAGES.metrics);
    const { from, to } = queryRange(query);
    // With a data directory the answer is computed on the read thread, else here (metricsAnswer).
    const aside = context.inProcess ? undefined : context.store.metricsOffThread(text);
    if (aside) {
      return new DeferredReply(async () => {
        try {
          // A read thread that failed (it could not start, or stopped) leaves the query to the event loop.
          const data = await aside.catch((error: unknown) => {
            if (error instanceof MetricsQueryError) throw error;
            return context.store.read((later) => metricsAnswer(query, later, from, to));
          });
          return { status: 200, body: { data } };
        } catch (error) {
          throw refusal(error, legacy);
        }
      });
    }
    return { status: 200, body: { data: metricsAnswer(query, tx, from, to) } };
  } catch (error) {
    throw refusal(error, legacy);
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
