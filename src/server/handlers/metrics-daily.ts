// GET /api/public/metrics/daily (web/src/pages/api/public/metrics/daily.ts): cost, usage and
// counts per day, newest first, each day's usage per model, paged by page number
// (GetMetricsDailyV1Query in web/src/features/public-api/types/metrics.ts). Like the v1 metrics
// route it is marked `rejectInEventsOnlyMode`: here in legacy and dual mode, and events_only
// answers its removal (removed-routes.ts).
import { z } from 'zod';
import { DeferredReply, type Handler, type Route } from '../http/router.js';
import { DATE_TIME, LIMIT, ONE_OR_MANY, PAGE, parseQuery } from './read-query.js';

const DAILY_QUERY = z.object({
  page: PAGE,
  limit: LIMIT,
  traceName: z.string().nullish(),
  userId: z.string().nullish(),
  tags: ONE_OR_MANY,
  environment: ONE_OR_MANY,
  fromTimestamp: DATE_TIME,
  toTimestamp: DATE_TIME,
});

const getDailyMetrics: Handler = (request, tx, context) => {
  const query = parseQuery(DAILY_QUERY, request.query);
  const filter = {
    traceName: query.traceName ?? undefined,
    userId: query.userId ?? undefined,
    tags: query.tags,
    environments: query.environment,
    fromTimestamp: query.fromTimestamp,
    toTimestamp: query.toTimestamp,
  };
  // With a data directory the days are read on the read thread (as the metrics), else here; a
  // read thread that failed leaves them to the event loop.
  const aside = context.inProcess ? undefined : context.store.dailyMetricsOffThread(filter, query.page, query.limit);
  if (aside) return new DeferredReply(async () => ({ status: 200, body: await aside.catch(() => context.store.read((later) => later.dailyMetrics.page(filter, query.page, query.limit))) }));
  return { status: 200, body: tx.dailyMetrics.page(filter, query.page, query.limit) };
};

export const metricsDailyRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/metrics\/daily$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { GET: getDailyMetrics },
    writeModes: ['legacy', 'dual'],
  },
];
