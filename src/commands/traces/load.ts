// Reads one trace into a sink (sinks.ts), which writes or keeps it as it comes: from
// GET /api/public/traces/{id} where the server has the v3 trace routes, or where they are gone
// (Langfuse v4 events_only deployments, Langfuse Cloud since 2026-11-16) from the trace's v2
// observations, page by page, the trace's own fields made of them as Langfuse v4 makes them
// (core/traces/aggregate.ts); which route a server answers is remembered (api/read-routes.ts). A
// v3 answer too large to read whole is read again in parts: the trace's fields without its
// observations, then the observations page by page from the observations list (v2, or v1 on a
// legacy server). At most --max-observations are read, over at most --max-pages pages. A trace
// that is not there yet is asked for again with --wait: ingestion is asynchronous, and a trace is
// readable seconds after it was sent.
import type { ApiClient } from '../../api/client.js';
import { routedObservationPages } from '../../api/observation-routes.js';
import { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, OBSERVATIONS_V2_PATH, observationPages, retryOptions, type WalkPage } from '../../api/observations.js';
import { viaRoute } from '../../api/read-routes.js';
import { ObservationsV2PageSchema } from '../../api/schemas/observations.js';
import { TraceSchema } from '../../api/schemas/traces.js';
import { getTrace, notFoundKind, tracePath, traceScoresV3 } from '../../api/traces.js';
import type { Context } from '../../context.js';
import { TraceAggregate } from '../../core/traces/aggregate.js';
import { ApiError, ApiNotFoundError, CliError, ExitCode, NotFoundError } from '../../errors.js';
import type { TraceSink } from './sinks.js';

export interface LoadOptions {
  /** Read each observation's input and output (the io and metadata groups). */
  io: boolean;
  waitSeconds: number;
  maxObservations: number;
  /** The sink shows the trace's own input and output even without `io` (--json). */
  traceIo: boolean;
  /** Most pages read (--max-pages). */
  maxPages: number;
  /** For a sink that keeps what it is given (the tree): the most bytes the answers may add up to. */
  maxBytes: number | undefined;
}

const V2_FIELDS = ['core', 'basic', 'time', 'model', 'usage', 'metrics', 'prompt', 'trace_context'];

const fieldsFor = (io: boolean) => (io ? [...V2_FIELDS, 'io', 'metadata'] : V2_FIELDS).join(',');

/** A sink that says whether anything was given to it: after that, a failing route is not swapped for the other. */
class Watched implements TraceSink {
  begun = false;
  constructor(private readonly sink: TraceSink) {}
  begin(head: Record<string, unknown>) {
    this.begun = true;
    return this.sink.begin(head);
  }
  add(items: readonly Record<string, unknown>[]) {
    return this.sink.add(items);
  }
  end(tail: Record<string, unknown>, source: 'traces' | 'observations-v2') {
    return this.sink.end(tail, source);
  }
  stop(reason: string) {
    return this.sink.stop(reason);
  }
}

function tooMany(id: string, max: number): CliError {
  return new CliError(`trace ${id} has more than ${max.toLocaleString('en-US')} observations (--max-observations); stopped`, ExitCode.api, 'too_many_observations', {
    hint: `Raise the bound with --max-observations N, or export them with flat memory: llmobs observations export --trace ${id} --output FILE`,
  });
}

/** Gives the sink the pages' observations, at most `max` of them; past that, stops it and throws. */
async function drain(id: string, pages: AsyncIterable<WalkPage>, sink: TraceSink, max: number, first?: () => Promise<void>): Promise<number> {
  let count = 0;
  for await (const page of pages) {
    if (page.items.length === 0) continue;
    if (count === 0) await first?.();
    const room = max - count;
    await sink.add(page.items.length > room ? page.items.slice(0, room) : page.items);
    count += page.items.length;
    if (count > max) {
      const error = tooMany(id, max);
      await sink.stop(error.message);
      throw error;
    }
  }
  return count;
}

/** From the v3 trace route; false when the trace is not there (yet). */
async function fromV3(ctx: Context, client: ApiClient, id: string, options: LoadOptions, sink: TraceSink): Promise<boolean> {
  let trace: Record<string, unknown>;
  try {
    trace = await getTrace(client, id);
  } catch (error) {
    if (notFoundKind(error) === 'trace-missing') return false;
    if (!(error instanceof ApiError && error.code === 'response_too_large')) throw error;
    ctx.trace(`  ${error.message}: reading the trace's own fields, then its observations page by page`);
    return fromV3InParts(ctx, client, id, options, sink);
  }
  const observations = (Array.isArray(trace.observations) ? trace.observations : []) as Record<string, unknown>[];
  if (observations.length > options.maxObservations) throw tooMany(id, options.maxObservations);
  // The fields keep their places around the observations, as the route sent them.
  const entries = Object.entries(trace);
  const at = entries.findIndex(([key]) => key === 'observations');
  await sink.begin(Object.fromEntries(at < 0 ? entries : entries.slice(0, at)));
  await sink.add(observations);
  await sink.end(at < 0 ? {} : Object.fromEntries(entries.slice(at + 1)), 'traces');
  return true;
}

/** The trace's fields without its observations (the route's field groups), then the observations page by page. */
async function fromV3InParts(ctx: Context, client: ApiClient, id: string, options: LoadOptions, sink: TraceSink): Promise<boolean> {
  let fields: Record<string, unknown>;
  try {
    fields = (await client.request('GET', tracePath(id), { query: { fields: 'core,io,scores,metrics' }, schema: TraceSchema })).data;
  } catch (error) {
    if (notFoundKind(error) === 'trace-missing') return false;
    throw error;
  }
  const { observations: _, scores, ...head } = fields;
  await sink.begin(head);
  const pages = routedObservationPages(ctx, client, { traceId: id, fields: fieldsFor(true) }, FIRST_PAGE, {
    ...retryOptions(ctx),
    pageSize: OBSERVATION_PAGE_LIMIT,
    max: options.maxObservations + 1,
    maxPages: options.maxPages,
    maxBytes: options.maxBytes,
    // v1 observations as the v3 trace route gives them.
    v1Shape: 'as-sent',
  });
  await drain(id, pages, sink, options.maxObservations);
  await sink.end({ scores: scores ?? [] }, 'traces');
  return true;
}

/** From the trace's v2 observations; false when none has its id (yet). */
async function fromV4(ctx: Context, client: ApiClient, id: string, options: LoadOptions, sink: TraceSink): Promise<boolean> {
  const aggregate = new TraceAggregate();
  const pages = observationPages(client, { traceId: id, fields: fieldsFor(options.io) }, FIRST_PAGE, {
    ...retryOptions(ctx),
    pageSize: OBSERVATION_PAGE_LIMIT,
    max: options.maxObservations + 1,
    maxPages: options.maxPages,
    maxBytes: options.maxBytes,
  });
  const seen = async function* () {
    for await (const page of pages) {
      for (const item of page.items) aggregate.add(item);
      yield page;
    }
  };
  const count = await drain(id, seen(), sink, options.maxObservations, () => sink.begin({ id }));
  if (count === 0) return false;
  // The trace's input and output are its root observation's; read on their own when the pages left them out.
  const io = options.traceIo && !options.io ? await rootIo(client, id, aggregate.rootObservation()?.id) : undefined;
  let scores: Record<string, unknown>[] = [];
  try {
    scores = await traceScoresV3(client, id);
  } catch (error) {
    // Scores are a bonus here: a server without the v3 scores route still shows the tree.
    if (!(error instanceof CliError)) throw error;
    ctx.trace(`  scores not read: ${error.message}`);
  }
  await sink.end({ ...aggregate.fields(io), scores }, 'observations-v2');
  return true;
}

async function rootIo(client: ApiClient, id: string, rootId: unknown): Promise<{ input: unknown; output: unknown; metadata: unknown }> {
  if (typeof rootId !== 'string') return { input: null, output: null, metadata: null };
  const { data } = await client.request('GET', OBSERVATIONS_V2_PATH, { query: { traceId: id, isRootObservation: 'true', fields: 'core,io,metadata', limit: 100 }, schema: ObservationsV2PageSchema });
  const root = (data.data as Array<Record<string, unknown>>).find((o) => o?.id === rootId);
  return { input: root?.input ?? null, output: root?.output ?? null, metadata: root?.metadata ?? null };
}

export async function loadTrace(ctx: Context, client: ApiClient, id: string, options: LoadOptions, output: TraceSink): Promise<void> {
  const sink = new Watched(output);
  let waited = 0;
  let interval = 1;
  for (;;) {
    let found: { value: boolean; route: 'v3' | 'v4' };
    try {
      found = await viaRoute<'traces', boolean>(
        ctx,
        client,
        'traces',
        { v3: () => fromV3(ctx, client, id, options, sink), v4: () => fromV4(ctx, client, id, options, sink) },
        // Once observations were given out, an error is the trace's, not a sign of the other route.
        { gone: (error, route) => !sink.begun && (route === 'v3' ? notFoundKind(error) === 'route-gone' : error instanceof ApiNotFoundError) },
      );
    } catch (error) {
      // What was written stays a whole document that says why it ends there.
      if (sink.begun && error instanceof CliError && error.code !== 'too_many_observations') await output.stop(`stopped: ${error.message}`);
      throw error;
    }
    if (found.value) return;
    if (waited >= options.waitSeconds) {
      const waitedText = options.waitSeconds > 0 ? ` after waiting ${options.waitSeconds} s` : '';
      throw new NotFoundError(`trace ${id} not found${waitedText}${found.route === 'v4' ? ' (no observation has this trace id)' : ''}`, {
        status: 404,
        hint:
          options.waitSeconds > 0
            ? 'Check the id and the project of the keys (llmobs whoami). Ingestion can lag behind by minutes under load.'
            : 'Ingestion is asynchronous: a trace can be missing for several seconds after it was sent. Ask again with --wait 30, or check the id and the project of the keys (llmobs whoami).',
      });
    }
    const pause = Math.min(interval, options.waitSeconds - waited);
    // Said once, so a terminal or a CI log shows why nothing happens yet.
    if (waited === 0) ctx.out.info(`trace ${id} not found yet (ingestion is asynchronous): asking again for up to ${options.waitSeconds} s`);
    ctx.trace(`  trace ${id} not found yet; asking again in ${pause} s`);
    await ctx.sleep(pause * 1000);
    waited += pause;
    interval = Math.min(interval * 2, 5);
  }
}
