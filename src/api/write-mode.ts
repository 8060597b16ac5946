// Langfuse v4's write modes (LANGFUSE_MIGRATION_V4_WRITE_MODE, packages/shared/src/env.ts) and the
// answers by which a client tells them apart. A deployment runs one mode for all its projects:
// `legacy` writes the v3 tables only, `dual` writes them and the v4 events table, `events_only`
// (the default since v4, and what Langfuse Cloud runs) writes the events table only and turns the
// routes that read or write the v3 tables off.

export const WRITE_MODES = ['legacy', 'dual', 'events_only'] as const;
export type WriteMode = (typeof WRITE_MODES)[number];

/** Langfuse's own default (packages/shared/src/env.ts, web/src/env.mjs, worker/src/env.ts). */
export const DEFAULT_WRITE_MODE: WriteMode = 'events_only';

export function isWriteMode(value: unknown): value is WriteMode {
  return typeof value === 'string' && (WRITE_MODES as readonly string[]).includes(value);
}

/**
 * The 404 of a route marked `rejectInEventsOnlyMode` in an events_only deployment, sent before
 * authentication (createAuthedProjectAPIRoute.ts).
 */
export const EVENTS_ONLY_REMOVED_MESSAGE =
  'This endpoint is not available on deployments running in Langfuse v4 events_only mode. Learn more about Langfuse v4 at: https://langfuse.com/docs/v4';

/**
 * The 404s (LangfuseNotFoundError, after authentication and the query's check) of the v4 read
 * routes where the v4 preview is off: web/src/pages/api/public/v2/observations/index.ts,
 * v2/metrics.ts, experiments/index.ts, experiment-items/index.ts.
 */
export const V4_ONLY_MESSAGES = {
  observations: 'The observations v2 API is only available in a Langfuse v4 write mode. Learn more at: https://langfuse.com/docs/v4',
  metrics: 'The metrics v2 API is only available in a Langfuse v4 write mode. Learn more at: https://langfuse.com/docs/v4',
  experiments: 'The experiments API is only available in a Langfuse v4 write mode. Learn more at: https://langfuse.com/docs/v4',
  experimentItems: 'The experiment items API is only available in a Langfuse v4 write mode. Learn more at: https://langfuse.com/docs/v4',
} as const;

/**
 * Where Langfuse tells anyone its write mode: the web app's public tRPC procedure
 * `public.traceReadConfig` (web/src/server/api/routers/public.ts), no key needed. Its answer, with
 * the superjson transformer: `{"result":{"data":{"json":{"v4WriteMode":"events_only"}}}}`.
 */
export const TRACE_READ_CONFIG_PATH = '/api/trpc/public.traceReadConfig';
