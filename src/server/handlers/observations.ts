// The observations read API (API.md section 6): v1 by id and as a paged list, and the v2 list by
// cursor with field groups.
import { z } from 'zod';
import { V4_ONLY_MESSAGES } from '../../api/write-mode.js';
import { invalidRequest, notFound } from '../http/errors.js';
import { DeferredReply, type Handler, type Route, type ServerReply } from '../http/router.js';
import type { ObservationRecord, TraceRecord } from '../records.js';
import { LateValue, slicesAfter, wholeBody } from '../http/json-stream.js';
import { rowsToRead, slicesOfIds } from '../http/slice-size.js';
import type { FilterColumnKey, ObservationCursor, ObservationFilter, TextPick, Tx } from '../store/index.js';
import { EVENTS_FILTER_PARAM, FILTER_PARAM, resolveFilters, targets } from './filter-param.js';
import { METADATA_VALUE_CUT, OBSERVATION_FIELD_GROUPS, type ObservationFieldGroup, observationV1, observationV2, type Prices, pricesOf, withStoredTexts } from './observation-view.js';
import { pageMeta } from './query.js';
import { DATE_TIME, fieldGroups, LIMIT, ONE_OR_MANY, PAGE, parseQuery } from './read-query.js';

const OBSERVATION_TYPES = ['GENERATION', 'SPAN', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL'] as const;
const LEVELS = ['DEBUG', 'DEFAULT', 'WARNING', 'ERROR'] as const;

const COMMON_FILTERS = {
  type: z.enum(OBSERVATION_TYPES).nullish(),
  name: z.string().nullish(),
  userId: z.string().nullish(),
  level: z.enum(LEVELS).nullish(),
  traceId: z.string().nullish(),
  version: z.string().nullish(),
  parentObservationId: z.string().nullish(),
  environment: ONE_OR_MANY,
  fromStartTime: DATE_TIME,
  toStartTime: DATE_TIME,
};

// useEventsTable=true reads the v1 list from the service's events table: its columns, and
// input/output filters with any string operator (getObservationsFromEventsTableForPublicApi).
const V1_LIST_QUERY = z.object({
  page: PAGE,
  limit: LIMIT,
  ...COMMON_FILTERS,
  useEventsTable: z
    .enum(['true', 'false'])
    .optional()
    .transform((value) => value === 'true'),
  filter: FILTER_PARAM,
});

interface Cursor {
  lastStartTimeTo: string;
  lastTraceId: string;
  lastId: string;
}

// Text that is not base64 JSON is the service's InvalidRequestError, thrown from the schema
// (EncodedObservationsCursorV2 in web/src/features/public-api/types/observations.ts), not a zod issue.
const CURSOR = z
  .string()
  .transform((value) => {
    try {
      return JSON.parse(Buffer.from(value, 'base64').toString('utf8')) as unknown;
    } catch {
      throw invalidRequest('Invalid cursor format');
    }
  })
  .pipe(z.object({ lastStartTimeTo: z.coerce.date(), lastTraceId: z.string(), lastId: z.string() }));

const V2_LIST_QUERY = z.object({
  fields: fieldGroups(OBSERVATION_FIELD_GROUPS),
  // A comma list; blank names are dropped (optionalCommaSeparatedStringArray).
  expandMetadata: z
    .string()
    .nullish()
    .transform((value) => (value ?? '').split(',').map((key) => key.trim()).filter((key) => key !== '')),
  limit: z.coerce.number().nonnegative().lte(1000).default(50),
  cursor: CURSOR.optional(),
  parseIoAsJson: z
    .union([z.literal('true'), z.literal('false')])
    .refine((value) => value !== 'true', {
      message:
        'parseIoAsJson=true is no longer supported on the v2 observations endpoint. Input/output fields are always returned as raw strings. Remove the parseIoAsJson parameter or set it to false.',
    })
    .optional(),
  sessionId: z.string().nullish(),
  isRootObservation: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
  ...COMMON_FILTERS,
  filter: EVENTS_FILTER_PARAM,
});

/**
 * The list's filter: the simple parameters, each giving way to an advanced filter on its column
 * (as the service's deriveFilters has it), and the advanced filters.
 */
function filterOf(query: z.output<typeof V1_LIST_QUERY>, v2?: z.output<typeof V2_LIST_QUERY>): ObservationFilter {
  const advanced = v2 ? resolveFilters(v2.filter, 'events') : resolveFilters(query.filter, query.useEventsTable ? 'events' : 'observations', { unindexedIo: true });
  const unless = <T>(column: FilterColumnKey, value: T): T | undefined => (targets(advanced, column) ? undefined : value);
  return {
    type: unless('observation.type', query.type ?? undefined),
    name: unless('observation.name', query.name ?? undefined),
    userId: unless('observation.userId', query.userId ?? undefined),
    level: unless('observation.level', query.level ?? undefined),
    traceId: unless('observation.traceId', query.traceId ?? undefined),
    version: unless('observation.version', query.version ?? undefined),
    parentObservationId: unless('observation.parentObservationId', query.parentObservationId ?? undefined),
    environments: unless('observation.environment', query.environment),
    fromStartTime: unless('observation.startTime', query.fromStartTime),
    toStartTime: unless('observation.startTime', query.toStartTime),
    ...(v2 ? { sessionId: unless('observation.sessionId', v2.sessionId ?? undefined), isRoot: unless('observation.isRoot', v2.isRootObservation) } : {}),
    advanced,
  };
}

const getOne: Handler = (request, tx) => {
  const id = request.params[0]!;
  const observation = tx.observations.get(id);
  if (!observation) throw notFound(`Observation not found within authorized project`);
  return { status: 200, body: observationV1(observation, pricesOf(tx, observation.internalModelId)) };
};

const listV1: Handler = (request, tx, context) => {
  const query = parseQuery(V1_LIST_QUERY, request.query);
  const filter = filterOf(query);
  const page = { limit: query.limit, offset: (query.page - 1) * query.limit };
  const cache = new Map<string, Prices | undefined>();
  const views = (slice: Tx, rows: ObservationRecord[]) => rows.map((o) => observationV1(o, pricesOf(slice, o.internalModelId, cache)));
  // The first slice at once, as the v2 list does: a page of one slice (most are) goes out whole,
  // with its length; `next` reads the rest. The page is whole in the end for a caller in the same process.
  const answer = (first: unknown[], next: ((slice: Tx) => unknown[] | undefined) | undefined, total: number): ServerReply => {
    const meta = pageMeta({ page: query.page, limit: query.limit }, total);
    if (!next) return { status: 200, body: { data: first, meta } };
    const body = { data: slicesAfter(first, next), meta };
    return { status: 200, body: context.inProcess ? wholeBody(body, tx) : body };
  };
  // Where there is a read thread, the page's ids and the total are read there: both may scan every
  // observation (a filter that matches few, a page far down). The records are then read by id, in
  // slices; one deleted meanwhile is left out.
  const aside = context.inProcess ? undefined : context.store.observationPageOffThread(filter, page);
  if (aside) {
    return new DeferredReply(async () => {
      const { ids, total } = await aside.catch(() => context.store.read((later) => ({ ids: later.observations.listIds(filter, page), total: later.observations.count(filter) })));
      const slices = slicesOfIds(ids, (slice, some) => slice.observations.idSizes(some), (slice, some) => views(slice, slice.observations.byIds(some)));
      const first = context.store.read(slices.next) ?? [];
      return answer(first, slices.done() ? undefined : slices.next, total);
    });
  }
  // Else read and written in slices by offset, as the v2 list by cursor (see there).
  let { offset } = page;
  let left = query.limit;
  const nextSlice = (slice: Tx) => {
    if (left === 0) return undefined;
    const { take, found } = rowsToRead(slice.observations.listSizes(filter, { limit: left, offset }), left);
    const rows = take === 0 ? [] : slice.observations.list(filter, { limit: take, offset });
    offset += rows.length;
    left = take === found ? 0 : left - rows.length;
    return rows.length === 0 ? undefined : views(slice, rows);
  };
  const first = nextSlice(tx) ?? [];
  return answer(first, left === 0 ? undefined : nextSlice, tx.observations.count(filter));
};

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64');
}

/**
 * Where the v2 list cuts metadata values: Langfuse reads the page from events_core, whose values
 * are cut, and joins whole metadata from events_full only when io is asked for or expandMetadata
 * names a key; then every value is whole, not only the named ones
 * (getObservationsV2FromEventsTableForPublicApi in packages/shared/src/server/repositories/events.ts).
 */
function metadataCut(groups: readonly ObservationFieldGroup[], expand: readonly string[]): number | undefined {
  return groups.includes('metadata') && !groups.includes('io') && expand.length === 0 ? METADATA_VALUE_CUT : undefined;
}

/** Rows of the list's order one slice may scan for a filter that the list's index does not serve. */
const SCAN_ROWS = 20_000;

const NO_TEXTS: TextPick = new Set();

/**
 * Whether the filter picks rows by more than the list's index serves (its time range) and the
 * indexes that find a trace's observations (the trace, and a user's or session's traces): the
 * type, name, level, version, parent, environment or the `filter` parameter, which may match
 * few of the rows the scan goes through.
 */
function scansBeyondIndex(filter: ObservationFilter): boolean {
  if (filter.traceId !== undefined || filter.userId !== undefined || filter.sessionId !== undefined) return false;
  const { type, name, level, version, parentObservationId, isRoot, environments, advanced } = filter;
  return [type, name, level, version, parentObservationId, isRoot].some((value) => value !== undefined) || (environments?.length ?? 0) > 0 || (advanced?.length ?? 0) > 0;
}

/**
 * The v2 list. A page is read and written in slices of at most SLICE_BYTES of stored text,
 * each in a read of its own (json-stream.ts), so that a page of large observations neither holds
 * the event loop nor becomes one huge text: each slice first reads the sizes of the rows to come
 * (and of one more than the page still needs, which tells whether another page follows), then
 * the rows that fit.
 */
const listV2: Handler = (request, tx, context) => {
  const query = parseQuery(V2_LIST_QUERY, request.query);
  if (!Number.isInteger(query.limit)) throw invalidRequest('limit must be an integer');
  // A legacy deployment has the v4 preview off: the route answers 404 once the query is checked.
  if (context.writeMode === 'legacy') throw notFound(V4_ONLY_MESSAGES.observations);
  const groups: readonly ObservationFieldGroup[] = query.fields ?? ['core', 'basic'];
  const filter = filterOf({ ...query, page: 1, useEventsTable: true, filter: undefined }, query);
  const traces = new Map<string, TraceRecord | undefined>();
  const needsTrace = groups.includes('basic') || groups.includes('trace_context');
  const traceOf = (slice: Tx, id: string | null) => {
    if (!id || !needsTrace) return undefined;
    if (!traces.has(id)) traces.set(id, slice.traces.get(id));
    return traces.get(id);
  };
  const cache = new Map<string, Prices | undefined>();
  const pricesFor = (slice: Tx, o: ObservationRecord) => (groups.includes('model') ? pricesOf(slice, o.internalModelId, cache) : undefined);
  const cutAt = metadataCut(groups, query.expandMetadata);
  // Input, output and metadata are read only for a page that sends them.
  const pick: TextPick = new Set([...(groups.includes('io') ? (['input', 'output'] as const) : []), ...(groups.includes('metadata') ? (['metadata'] as const) : [])]);
  // Where the next slice reads from (after a row sent, or after the part of the list a slice
  // scanned), and the last row sent (the next page's cursor).
  let position: ObservationCursor | undefined = query.cursor ? { startTime: query.cursor.lastStartTimeTo.toISOString(), traceId: query.cursor.lastTraceId, id: query.cursor.lastId } : undefined;
  let lastSent = position;
  let sent = 0;
  let more = false;
  let done = query.limit === 0;
  // The page is full and its last part read: what follows is looked through for one more match,
  // which tells whether the page gets a cursor.
  let probing = false;
  const bounded = scansBeyondIndex(filter);
  const nextSlice = (slice: Tx) => {
    if (done) return undefined;
    // A filter the list's index does not serve is read SCAN_ROWS rows of the list at a time.
    const bound = bounded ? slice.observations.pageBound(filter, position, SCAN_ROWS) : undefined;
    if (probing) {
      if (slice.observations.pageSizes(filter, position, 1, NO_TEXTS, bound).total().count > 0) more = true;
      if (more || !bound) done = true;
      else position = bound;
      return [];
    }
    const want = query.limit - sent;
    const { take, found } = rowsToRead(slice.observations.pageSizes(filter, position, want + 1, pick, bound), want);
    if (take === 0) {
      if (bound) position = bound;
      else done = true;
      return bound ? [] : undefined;
    }
    const rows = slice.observations.pageRows(filter, position, take, pick, bound);
    const last = rows[rows.length - 1]!.record;
    position = lastSent = { startTime: last.startTime, traceId: last.traceId ?? '', id: last.id };
    sent += rows.length;
    // Every match of this part read: the next slice reads after it.
    const partDone = take === found && bound !== undefined;
    if (partDone) position = bound;
    if (sent === query.limit) {
      if (found > take) more = true;
      if (more || !bound) done = true;
      else probing = true;
    } else if (take === found && !bound) {
      done = true;
    }
    return rows.map(({ record, texts }) => observationV2(withStoredTexts(record, texts, cutAt), groups, traceOf(slice, record.traceId), pricesFor(slice, record)));
  };
  const meta = () => (more && lastSent ? { cursor: encodeCursor({ lastStartTimeTo: lastSent.startTime, lastTraceId: lastSent.traceId, lastId: lastSent.id }) } : {});
  // The first slice is read at once, in this transaction: a page of one slice (most are) goes out
  // whole, with its length. A caller in the same process (the web UI's exports) takes only that
  // slice: a page that may be shorter than asked for, with a cursor to the rest.
  const first = nextSlice(tx) ?? [];
  if (done || context.inProcess) {
    if (!done) {
      more = true;
      // A first slice that found nothing in its part: the cursor goes on after the part.
      lastSent = position;
    }
    return { status: 200, body: { data: first, meta: meta() } };
  }
  return { status: 200, body: { data: slicesAfter(first, nextSlice), meta: new LateValue(meta, meta) } };
};

export const observationRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/observations\/([^/]+)$/,
    auth: 'project',
    methodNotAllowedClass: true,
    removedInEventsOnly: ['GET'],
    methods: { GET: getOne },
  },
  {
    pattern: /^\/api\/public\/observations$/,
    auth: 'project',
    methodNotAllowedClass: true,
    removedInEventsOnly: ['GET'],
    methods: { GET: listV1 },
  },
  {
    pattern: /^\/api\/public\/v2\/observations$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { GET: listV2 },
  },
];

