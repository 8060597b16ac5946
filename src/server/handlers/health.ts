// GET /api/public/health and /ready (web/src/pages/api/public/health.ts and health-service.ts).
// `failIfNoRecentEvents=true` turns it into an ingestion liveness check, which looks where the
// write mode puts new data: the events table in events_only mode, the v3 traces and observations
// tables otherwise (here: one store, the same records).
import type { Handler, Route } from '../http/router.js';
import type { Tx } from '../store/index.js';

/** The Langfuse API level this server implements (PUT /api/public/models arrived in 4.35.0). */
export const API_VERSION = '4.35.0';

const RECENT_MS = 3 * 60 * 1000;

/** Why ingestion looks stalled, or undefined when something arrived within the last 3 minutes. */
function staleness(tx: Tx, now: Date, eventsOnly: boolean): string | undefined {
  const from = new Date(now.getTime() - RECENT_MS).toISOString();
  // The service's bound is inclusive of now; the store's upper bounds are exclusive.
  const to = new Date(now.getTime() + 1).toISOString();
  const page = { limit: 1, offset: 0 };
  const observations = tx.observations.list({ fromStartTime: from, toStartTime: to }, page).length > 0;
  if (eventsOnly) return observations ? undefined : 'No events within the last 3 minutes';
  const traces = tx.traces.list({ fromTimestamp: from, toTimestamp: to }, null, page).length > 0;
  if (!traces) return 'No traces within the last 3 minutes';
  return observations ? undefined : 'No observations within the last 3 minutes';
}

const health: Handler = (request, tx, { apiVersion, now, writeMode }) => {
  const stale = request.query.get('failIfNoRecentEvents') === 'true' ? staleness(tx, now(), writeMode === 'events_only') : undefined;
  return stale ? { status: 503, body: { status: stale, version: apiVersion } } : { status: 200, body: { status: 'OK', version: apiVersion } };
};

export const healthRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/health$/,
    auth: 'none',
    methodNotAllowedClass: true,
    methods: { GET: health },
  },
  {
    pattern: /^\/api\/public\/ready$/,
    auth: 'none',
    methodNotAllowedClass: true,
    methods: { GET: (_request, _tx, { apiVersion }) => ({ status: 200, body: { status: 'OK', version: apiVersion } }) },
  },
];
