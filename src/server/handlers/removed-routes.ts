// v3 routes this server does not implement, present in events_only mode only to answer their
// removal as a Langfuse v4 deployment does: a 404 before authentication for each method marked
// `rejectInEventsOnlyMode` in web/src/pages/api/public/**. In legacy and dual mode they are absent
// ("Route not found"), as before, but for the metrics routes, which answer there (metrics-v1.ts,
// metrics-daily.ts). Their other methods (DELETE /scores/{id}, POST /dataset-run-items)
// are not implemented here either: they answer 405.
import type { Route } from '../http/router.js';

function removed(pattern: RegExp, methods: readonly string[]): Route {
  return { pattern, auth: 'project', methodNotAllowedClass: true, methods: {}, removedInEventsOnly: methods, writeModes: ['events_only'] };
}

export const removedRoutes: Route[] = [
  // sessions/index.ts, sessions/[sessionId].ts
  removed(/^\/api\/public\/sessions$/, ['GET']),
  removed(/^\/api\/public\/sessions\/([^/]+)$/, ['GET']),
  // metrics/index.ts, metrics/daily.ts
  removed(/^\/api\/public\/metrics$/, ['GET']),
  removed(/^\/api\/public\/metrics\/daily$/, ['GET']),
  // scores/[scoreId].ts (DELETE stays), v2/scores/index.ts, v2/scores/[scoreId].ts
  removed(/^\/api\/public\/scores\/([^/]+)$/, ['GET']),
  removed(/^\/api\/public\/v2\/scores$/, ['GET']),
  removed(/^\/api\/public\/v2\/scores\/([^/]+)$/, ['GET']),
  // dataset-run-items.ts (POST stays), datasets/[name]/runs/index.ts, datasets/[name]/runs/[runName].ts
  removed(/^\/api\/public\/dataset-run-items$/, ['GET']),
  removed(/^\/api\/public\/datasets\/([^/]+)\/runs$/, ['GET']),
  removed(/^\/api\/public\/datasets\/([^/]+)\/runs\/([^/]+)$/, ['GET', 'DELETE']),
  // The v2 SDKs' single-record writes: generations.ts, spans.ts, events.ts
  removed(/^\/api\/public\/generations$/, ['POST', 'PATCH']),
  removed(/^\/api\/public\/spans$/, ['POST', 'PATCH']),
  removed(/^\/api\/public\/events$/, ['POST']),
];
