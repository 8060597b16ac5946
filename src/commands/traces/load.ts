// Reads one trace: from GET /api/public/traces/{id}, or, where that route is gone (Langfuse v4
// "events only" deployments, and Langfuse Cloud after the v3 read API's sunset), from the v2
// observations of the trace. A trace that is not there yet is asked for again with --wait:
// ingestion is asynchronous, and a trace is readable seconds after it was sent.
import type { ApiClient } from '../../api/client.js';
import { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, observationPages, retryOptions } from '../../api/observations.js';
import { getTrace, notFoundKind, traceScoresV3 } from '../../api/traces.js';
import type { Context } from '../../context.js';
import { ApiNotFoundError, NotFoundError } from '../../errors.js';

export interface LoadedTrace {
  source: 'traces' | 'observations-v2';
  /** The trace as the API gave it (the legacy route), or as far as its observations tell. */
  trace: Record<string, unknown>;
  observations: Record<string, unknown>[];
  scores: Record<string, unknown>[];
}

const V2_FIELDS = ['core', 'basic', 'time', 'model', 'usage', 'metrics', 'prompt', 'trace_context'];

async function fromObservations(ctx: Context, client: ApiClient, id: string, io: boolean): Promise<LoadedTrace | null> {
  const fields = io ? [...V2_FIELDS, 'io', 'metadata'] : V2_FIELDS;
  const observations: Record<string, unknown>[] = [];
  const pages = observationPages(client, { traceId: id, fields: fields.join(',') }, FIRST_PAGE, {
    ...retryOptions(ctx),
    pageSize: OBSERVATION_PAGE_LIMIT,
    max: 100_000,
    maxPages: ctx.globals.maxPages,
    maxBytes: client.limits.maxListingBytes,
  });
  // A loop, not push(...items): a server may send a page larger than a call takes arguments.
  for await (const page of pages) for (const item of page.items) observations.push(item);
  if (observations.length === 0) return null;
  if (observations.length >= 100_000) ctx.out.warn(`trace ${id} has more than 100,000 observations: only the newest 100,000 are shown (llmobs observations export --trace ${id} reads them all)`);
  const pick = (key: string) => observations.map((o) => o[key]).find((v) => v !== null && v !== undefined && v !== '') ?? null;
  const root = observations.find((o) => o.isRootObservation === true || !o.parentObservationId);
  const starts = observations.map((o) => o.startTime).filter((t): t is string => typeof t === 'string').sort();
  const trace: Record<string, unknown> = {
    id,
    timestamp: starts[0] ?? null,
    name: (root?.traceName as string | undefined) ?? pick('traceName') ?? (root?.name as string | undefined) ?? null,
    userId: pick('userId'),
    sessionId: pick('sessionId'),
    environment: pick('environment'),
    release: pick('release'),
    tags: pick('tags') ?? [],
    observations,
    scores: [],
  };
  let scores: Record<string, unknown>[] = [];
  try {
    scores = await traceScoresV3(client, id);
    trace.scores = scores;
  } catch (error) {
    // Scores are a bonus here: a server without the v3 scores route still shows the tree.
    ctx.trace(`  scores not read: ${(error as Error).message}`);
  }
  return { source: 'observations-v2', trace, observations, scores };
}

export async function loadTrace(ctx: Context, client: ApiClient, id: string, options: { io: boolean; waitSeconds: number }): Promise<LoadedTrace> {
  let routeGone = false;
  let waited = 0;
  let interval = 1;
  let lastError: unknown;
  for (;;) {
    if (!routeGone) {
      try {
        const trace = await getTrace(client, id);
        const { observations, scores } = trace;
        return { source: 'traces', trace, observations: (observations ?? []) as Record<string, unknown>[], scores: (scores ?? []) as Record<string, unknown>[] };
      } catch (error) {
        const kind = notFoundKind(error);
        if (kind === undefined) throw error;
        lastError = error;
        if (kind === 'route-gone') {
          routeGone = true;
          ctx.trace(`  ${(error as Error).message}: reading the trace from the v2 observations API instead`);
        }
      }
    }
    if (routeGone) {
      try {
        const loaded = await fromObservations(ctx, client, id, options.io);
        if (loaded) return loaded;
      } catch (error) {
        // Neither route is there: the first answer says more about the server.
        if (error instanceof ApiNotFoundError) throw lastError;
        throw error;
      }
    }
    if (waited >= options.waitSeconds) break;
    const pause = Math.min(interval, options.waitSeconds - waited);
    // Said once, so a terminal or a CI log shows why nothing happens yet.
    if (waited === 0) ctx.out.info(`trace ${id} not found yet (ingestion is asynchronous): asking again for up to ${options.waitSeconds} s`);
    ctx.trace(`  trace ${id} not found yet; asking again in ${pause} s`);
    await ctx.sleep(pause * 1000);
    waited += pause;
    interval = Math.min(interval * 2, 5);
  }
  const waitedText = options.waitSeconds > 0 ? ` after waiting ${options.waitSeconds} s` : '';
  throw new NotFoundError(`trace ${id} not found${waitedText}${routeGone ? ' (no observation has this trace id)' : ''}`, {
    status: 404,
    hint:
      options.waitSeconds > 0
        ? 'Check the id and the project of the keys (llmobs whoami). Ingestion can lag behind by minutes under load.'
        : 'Ingestion is asynchronous: a trace can be missing for several seconds after it was sent. Ask again with --wait 30, or check the id and the project of the keys (llmobs whoami).',
  });
}
