// The traces read API (API.md section 5): one trace with its observations and scores, the list
// with filters, paging, ordering and field groups, and deletion with observations and scores.
// Unlike the service, where ingestion is asynchronous, what was ingested is readable at once.
import { Decimal } from 'decimal.js';
import { z } from 'zod';
import { notFound } from '../http/errors.js';
import { breathe, inPieces, LateValue, RawJson, type ReadSlice, readSlices, SlicedArray, SlicedObject, wholeBody } from '../http/json-stream.js';
import { DeferredReply, type Handler, type HandlerContext, type Route, type ServerReply } from '../http/router.js';
import { rowsToRead, slicesOfIds } from '../http/slice-size.js';
import type { TraceRecord } from '../records.js';
import { type FilterColumnKey, TRACE_ORDER_COLUMNS, type TraceOrder, type TraceStats, type TraceStatsJson, traceStatsInSlices, type Tx } from '../store/index.js';
import { FILTER_PARAM, resolveFilters, targets } from './filter-param.js';
import { observationV1, type Prices, pricesOf } from './observation-view.js';
import { pageMeta } from './query.js';
import { DATE_TIME, fieldGroups, LIMIT, ONE_OR_MANY, PAGE, parseBody, parseQuery } from './read-query.js';
import { scoresV1 } from './scores.js';

export const TRACE_FIELD_GROUPS = ['core', 'io', 'scores', 'observations', 'metrics'] as const;

const ORDER_BY = z
  .string()
  .nullish()
  .transform((value) => {
    if (!value) return null;
    const [column, order] = value.split('.');
    return { column, order: order?.toUpperCase() };
  })
  .pipe(
    z
      .object({
        column: z.enum(Object.keys(TRACE_ORDER_COLUMNS) as [keyof typeof TRACE_ORDER_COLUMNS, ...Array<keyof typeof TRACE_ORDER_COLUMNS>]),
        order: z.enum(['ASC', 'DESC']),
      })
      .nullable(),
  );

const LIST_QUERY = z.object({
  page: PAGE,
  limit: LIMIT,
  userId: z.string().nullish(),
  name: z.string().nullish(),
  tags: ONE_OR_MANY,
  environment: ONE_OR_MANY,
  sessionId: z.string().nullish(),
  version: z.string().nullish(),
  release: z.string().nullish(),
  fromTimestamp: DATE_TIME,
  toTimestamp: DATE_TIME,
  orderBy: ORDER_BY,
  fields: fieldGroups(TRACE_FIELD_GROUPS),
  filter: FILTER_PARAM,
});

const ONE_QUERY = z.object({ fields: fieldGroups(TRACE_FIELD_GROUPS) });

const DELETE_BODY = z
  .object({
    traceIds: z.array(z.string()).min(1, 'At least 1 traceId is required.').max(1000, 'Cannot specify more than 1000 traces in a single request.'),
  })
  .strict();

/**
 * The trace's own fields. Without the io group input and output are null and metadata is {}: the
 * service selects them as '' and map() (getTraceById) or not at all (the list), and its converter
 * turns both into null and {} (traces_converters.ts convertClickhouseToDomain).
 */
function traceFields(trace: TraceRecord, io: boolean) {
  return {
    id: trace.id,
    projectId: trace.projectId,
    name: trace.name,
    timestamp: trace.timestamp,
    environment: trace.environment,
    tags: trace.tags,
    bookmarked: trace.bookmarked,
    release: trace.release,
    version: trace.version,
    userId: trace.userId,
    sessionId: trace.sessionId,
    public: trace.public,
    input: io ? trace.input : null,
    output: io ? trace.output : null,
    metadata: io ? trace.metadata : {},
    createdAt: trace.createdAt,
    updatedAt: trace.updatedAt,
  };
}

const htmlPath = (trace: TraceRecord) => `/project/${trace.projectId}/traces/${trace.id}`;

/** Observations of a trace read per slice: a slice is built, sent and let go before the next. */
const TRACE_SLICE = 250;
/** Start and end times of a trace's observations read per slice, for its latency. */
const TIMES_SLICE = 1000;
/** Ids of a listed trace's observations or scores written at a time. */
const IDS_PIECE = 10_000;

/** A late value: slices read with `next` until `read()` says all were, then `value()`. */
const lateValue = (next: (tx: Tx) => unknown, read: () => boolean, value: () => unknown): LateValue =>
  new LateValue(
    async (readSlice: ReadSlice) => {
      while (!read()) await readSlice(next);
      return value();
    },
    (whole) => {
      while (!read()) next(whole);
      return value();
    },
  );

const getOne: Handler = (request, tx, context) => {
  const id = request.params[0]!;
  const groups = parseQuery(ONE_QUERY, request.query).fields ?? TRACE_FIELD_GROUPS;
  const has = (group: (typeof TRACE_FIELD_GROUPS)[number]) => groups.includes(group);
  const trace = tx.traces.get(id);
  if (!trace) throw notFound(`Trace ${id} not found within authorized project`);
  // Latency: the last end (or, without ends, the last start) after the first start, over the
  // trace's times read in slices (the end times are in the rows, not in an index). The same rows
  // give the cost when the observations are not asked for (each one's calculatedTotalCost is its
  // total cost, 0 when it has none), added in the same order.
  const costFromTimes = has('metrics') && !has('observations');
  let timesCost = new Decimal(0);
  let first: number | undefined;
  let lastStart: number | undefined;
  let lastEnd: number | undefined;
  let count = 0;
  let at: { startTime: string; id: string } | undefined;
  let timesRead = false;
  const nextTimes = (slice: Tx) => {
    const rows = slice.observations.timesOfTraceAfter(id, at, TIMES_SLICE);
    for (const row of rows) {
      const start = Date.parse(row.startTime);
      first ??= start;
      lastStart = start;
      if (row.endTime) lastEnd = Math.max(lastEnd ?? -Infinity, Date.parse(row.endTime));
      if (costFromTimes) timesCost = timesCost.add(row.totalCost ?? 0);
    }
    count += rows.length;
    if (rows.length < TIMES_SLICE) timesRead = true;
    else at = { startTime: rows[rows.length - 1]!.startTime, id: rows[rows.length - 1]!.id };
  };
  const seconds = () => {
    const ms = first === undefined ? undefined : lastEnd !== undefined ? lastEnd - first : count > 1 ? lastStart! - first : undefined;
    return ms !== undefined ? ms / 1000 : 0;
  };
  const latency = lateValue(nextTimes, () => timesRead, seconds);
  // The observations follow in slices; their cost is summed as they go, and the total comes last:
  // the sum of what was sent, whatever was written meanwhile.
  const cache = new Map<string, Prices | undefined>();
  let totalCost = new Decimal(0);
  let after: { startTime: string; id: string } | undefined;
  let done = false;
  const nextViews = (slice: Tx) => {
    if (done) return undefined;
    // At most TRACE_SLICE observations, fewer when their stored text is large (slice-size.ts).
    const { take, found } = rowsToRead(slice.observations.ofTraceSizes(id, after, TRACE_SLICE), TRACE_SLICE);
    const observations = take === 0 ? [] : slice.observations.ofTraceAfter(id, after, take);
    const last = observations[observations.length - 1];
    if (last) after = { startTime: last.startTime, id: last.id };
    if (take === found && found < TRACE_SLICE) done = true;
    return observations.map((o) => {
      const view = observationV1(o, pricesOf(slice, o.internalModelId, cache), true);
      totalCost = totalCost.add(view.calculatedTotalCost ?? 0);
      return view;
    });
  };
  const sumCost = has('observations') ? lateValue(nextViews, () => done, () => totalCost.toNumber()) : lateValue(nextTimes, () => timesRead, () => timesCost.toNumber());
  const body = {
    ...traceFields(trace, has('io')),
    externalId: null,
    scores: has('scores') ? scoresV1(tx.scores.ofTrace(id)) : [],
    latency: has('metrics') ? latency : -1,
    observations: has('observations') ? new SlicedArray(nextViews) : [],
    htmlPath: htmlPath(trace),
    totalCost: has('metrics') ? sumCost : -1,
  };
  // A caller in the same process (the web UI) takes the answer whole, in its own transaction.
  return { status: 200, body: context.inProcess ? wholeBody(body, tx) : body };
};

const list: Handler = (request, tx, context) => {
  const query = parseQuery(LIST_QUERY, request.query);
  const groups = query.fields ?? TRACE_FIELD_GROUPS;
  const has = (group: (typeof TRACE_FIELD_GROUPS)[number]) => groups.includes(group);
  // A simple parameter gives way to an advanced filter on the same column, as on the service.
  const advanced = resolveFilters(query.filter, 'traces');
  const unless = <T>(column: FilterColumnKey, value: T): T | undefined => (targets(advanced, column) ? undefined : value);
  const filter = {
    userId: unless('trace.userId', query.userId ?? undefined),
    name: unless('trace.name', query.name ?? undefined),
    sessionId: unless('trace.sessionId', query.sessionId ?? undefined),
    version: unless('trace.version', query.version ?? undefined),
    release: unless('trace.release', query.release ?? undefined),
    tags: unless('trace.tags', query.tags),
    environments: unless('trace.environment', query.environment),
    fromTimestamp: unless('trace.timestamp', query.fromTimestamp),
    toTimestamp: unless('trace.timestamp', query.toTimestamp),
    advanced,
  };
  const order: TraceOrder | null = query.orderBy ? { column: query.orderBy.column, direction: query.orderBy.order } : null;
  const ids = tx.traces.listIds(filter, order, { limit: query.limit, offset: (query.page - 1) * query.limit });
  const meta = pageMeta({ page: query.page, limit: query.limit }, tx.traces.count(filter));
  const parts = { ids: has('observations') || has('scores'), metrics: has('metrics') };
  // `pieces`: a long trace's ids are written a piece at a time, not in one go; the read thread's
  // come as JSON already.
  const page = (stats: Map<string, TraceStats | TraceStatsJson>, pieces = false): ServerReply => {
    const idList = (list: string[] | Uint8Array) => (list instanceof Uint8Array ? new RawJson(list) : pieces && list.length > IDS_PIECE ? inPieces(list, IDS_PIECE) : list);
    const rowOf = (trace: TraceRecord) => {
      const stat = stats.get(trace.id)!;
      const row = {
        ...traceFields(trace, has('io')),
        externalId: null,
        observations: has('observations') ? idList(stat.observationIds) : [],
        scores: has('scores') ? idList(stat.scoreIds) : [],
        totalCost: has('metrics') ? stat.totalCost : -1,
        latency: has('metrics') ? stat.latencyMs / 1000 : -1,
        htmlPath: htmlPath(trace),
      };
      return pieces ? new SlicedObject(row) : row;
    };
    // The traces themselves are read in slices, a few at a time when they are large (slice-size.ts);
    // one deleted meanwhile is left out.
    const data = new SlicedArray(slicesOfIds(ids, (slice, some) => slice.traces.recordSizes(some), (slice, some) => slice.traces.records(some).map(rowOf)).next);
    return { status: 200, body: { data, meta } };
  };
  // A caller in the same process (the web UI) takes the answer at once, in its own transaction.
  if (context.inProcess) {
    const reply = page(tx.traces.stats(ids, filter, parts));
    return { ...reply, body: wholeBody(reply.body as Record<string, unknown>, tx) };
  }
  if (!parts.ids && !parts.metrics) return page(tx.traces.stats(ids, filter, parts));
  // The stats read every row of the listed traces' observations, which for a long trace takes
  // long: on the read thread where there is one (the same query), else in slices between which
  // the event loop runs. Either reads the store as it is then, after the page was read.
  const inSlices = () => traceStatsInSlices(readSlices(context.store), ids, filter, parts);
  const aside = context.store.traceStatsOffThread({ ids, filter, parts });
  return new DeferredReply(async () => page(await (aside ? aside.catch(inSlices) : inSlices()), true));
};

/**
 * Observations and scores one transaction of a deletion removes: a large trace goes in several,
 * and the server answers other requests between them.
 */
const DELETE_ROWS = 1_000;

/**
 * Deletes traces with their observations and scores, and answers once all are gone: at once when
 * they fit one transaction (most do), otherwise after the later ones. A deletion cut short (a
 * failed write, a stopped server) may have removed part of a trace's observations, and has
 * answered no success: sent again, it removes the rest.
 */
function deleteTraces(tx: Tx, context: HandlerContext, ids: readonly string[], message: string): ServerReply | DeferredReply {
  const unique = [...new Set(ids)];
  const reply = { status: 200, body: { message } };
  let done = tx.traces.deleteStep(unique, { at: 0, deleted: 0 }, DELETE_ROWS);
  if (done.at === unique.length) return reply;
  return new DeferredReply(async () => {
    while (done.at < unique.length) {
      // A turn of the event loop between steps: requests that came in meanwhile are answered.
      await breathe();
      done = context.store.write((later) => later.traces.deleteStep(unique, done, DELETE_ROWS));
    }
    return reply;
  });
}

export const traceRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/traces\/([^/]+)$/,
    auth: 'project',
    methodNotAllowedClass: true,
    // web/src/pages/api/public/traces/[traceId].ts: GET only, DELETE stays.
    removedInEventsOnly: ['GET'],
    methods: {
      GET: getOne,
      DELETE: (request, tx, context) => deleteTraces(tx, context, [request.params[0]!], 'Trace deleted successfully'),
    },
  },
  {
    pattern: /^\/api\/public\/traces$/,
    auth: 'project',
    methodNotAllowedClass: true,
    // web/src/pages/api/public/traces/index.ts: GET and the legacy POST (not implemented here); DELETE stays.
    removedInEventsOnly: ['GET', 'POST'],
    methods: {
      GET: list,
      DELETE: (request, tx, context) => deleteTraces(tx, context, parseBody(DELETE_BODY, request.body).traceIds, 'Traces deleted successfully'),
    },
  },
];
