// Scores (API.md section 7): POST /api/public/scores (Basic, or Bearer with the public key, as SDKs
// send them) and the v3 list by cursor. The body schema follows the service's PostScoresBody.
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { invalidRequest } from '../http/errors.js';
import { LateValue, slicesAfter, wholeBody } from '../http/json-stream.js';
import type { Handler, Route } from '../http/router.js';
import { authOf, ingestEvents } from '../ingest/routes.js';
import type { ScoreRecord } from '../records.js';
import type { ScoreCursor, ScoreFilter, Tx } from '../store/index.js';
import { COMMA_LIST, parseBody, parseQuery } from './read-query.js';

const JSON_VALUE: z.ZodType<unknown> = z.lazy(() => z.union([z.array(JSON_VALUE), z.record(z.string(), JSON_VALUE), z.string(), z.number(), z.boolean(), z.null()]));

const FOUNDATION = z.object({
  id: z.string().nullish(),
  name: z.string().min(1),
  traceId: z.string().nullish(),
  sessionId: z.string().nullish(),
  datasetRunId: z.string().nullish(),
  observationId: z.string().nullish(),
  comment: z.string().nullish(),
  metadata: JSON_VALUE.nullish(),
  environment: z.string().default('default'),
  queueId: z.string().nullish(),
  source: z.enum(['API', 'ANNOTATION']).default('API'),
});

const POST_BODY = FOUNDATION.and(
  z.discriminatedUnion('dataType', [
    z.object({ value: z.number(), dataType: z.literal('NUMERIC'), configId: z.string().nullish() }),
    z.object({ value: z.string(), dataType: z.literal('CATEGORICAL'), configId: z.string().nullish() }),
    z.object({
      value: z.number().refine((value) => value === 0 || value === 1, { message: 'Value must be a number equal to either 0 or 1 for data type BOOLEAN' }),
      dataType: z.literal('BOOLEAN'),
      configId: z.string().nullish(),
    }),
    z.object({ value: z.string(), dataType: z.literal('CORRECTION'), configId: z.undefined().nullish() }),
    z.object({ value: z.string().min(1).max(500), dataType: z.literal('TEXT'), configId: z.string().nullish() }),
    // No dataType: inferred from the value (zod 4.6 needs the absent key marked optional).
    z.object({ value: z.union([z.string(), z.number()]), dataType: z.undefined().optional(), configId: z.string().nullish() }),
  ]),
)
  .refine(
    (data) => {
      const trace = !!data.traceId;
      const session = !!data.sessionId;
      const run = !!data.datasetRunId;
      return (trace && !session && !run) || (session && !trace && !run && !data.observationId) || (run && !trace && !session && !data.observationId);
    },
    {
      message: 'Provide exactly one of the following: traceId (with optional observationId), sessionId or datasetRunId. ObservationId requires traceId.',
      path: ['traceId', 'sessionId', 'datasetRunId', 'observationId'],
    },
  )
  .refine((data) => !(data.source === 'ANNOTATION' && data.dataType !== 'CORRECTION' && !data.configId), {
    message: 'configId is required when source is ANNOTATION (except for CORRECTION scores).',
    path: ['configId'],
  });

// As on the service, the score goes through ingestion as one score-create event: merged with what
// is stored for its id (every earlier event of it, in time order) and dropped where the worker drops
// one (a configId this project does not have), while the answer already says 200 with the id.
const create: Handler = (request, tx, context) => {
  const body = parseBody(POST_BODY, request.body);
  const id = body.id || randomUUID();
  const now = context.now();
  const event = { id: randomUUID(), type: 'score-create', timestamp: now.toISOString(), body: { ...body, id } };
  const result = ingestEvents([event], tx, authOf(request, context), now);
  const failed = result.errors[0];
  if (failed) return { status: failed.status, body: { message: failed.error ?? failed.message } };
  if (result.successes.length !== 1) throw new Error('Failed to create score');
  return { status: 200, body: { id } };
};

/**
 * Scores in the v1 shape (the scores of GET /api/public/traces/{id}), as the service's
 * APIScoreSchemaV1 parses them (packages/shared/src/features/scores/interfaces/api/v1/schemas.ts):
 * its own keys only (no sessionId or datasetRunId), stringValue null for NUMERIC, no value for
 * TEXT. It has no CORRECTION variant, and getScoresForTraces reads listable types only, so
 * corrections are left out.
 */
export function scoresV1(scores: readonly ScoreRecord[]) {
  return scores
    .filter((score) => score.dataType !== 'CORRECTION')
    .map((score) => ({
      id: score.id,
      projectId: score.projectId,
      environment: score.environment,
      name: score.name,
      ...(score.dataType === 'TEXT' ? {} : { value: score.value }),
      source: score.source,
      authorUserId: score.authorUserId,
      comment: score.comment,
      metadata: score.metadata,
      configId: score.configId,
      queueId: score.queueId,
      executionTraceId: score.executionTraceId ?? null,
      createdAt: score.createdAt,
      updatedAt: score.updatedAt,
      timestamp: score.timestamp,
      traceId: score.traceId,
      observationId: score.observationId,
      stringValue: score.stringValue,
      dataType: score.dataType,
    }));
}

const V3_GROUPS = ['core', 'details', 'subject', 'annotation'] as const;
type V3Group = (typeof V3_GROUPS)[number];
const SOURCES = ['API', 'EVAL', 'ANNOTATION'];
const DATA_TYPES = ['NUMERIC', 'CATEGORICAL', 'BOOLEAN', 'CORRECTION', 'TEXT'];

const enumList = (allowed: readonly string[], label: string) =>
  z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item.length > 0)
        .map((item) => item.toUpperCase()),
    )
    .pipe(
      z.array(z.string()).superRefine((values, ctx) => {
        for (const value of values) {
          if (!allowed.includes(value)) ctx.addIssue({ code: 'custom', message: `Invalid ${label} value: "${value}". Allowed: ${allowed.join(', ')}` });
        }
      }),
    )
    .optional();

const emptyIsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((value) => (value === '' ? undefined : value), schema);

// The service's cursor (ScoresCursorV3 in packages/shared/src/server/repositories/scores.ts):
// base64url JSON {v: 1, lastTimestamp, lastId}. Text that is not base64url JSON is its thrown
// InvalidRequestError; JSON of another shape is a zod issue.
const CURSOR = z
  .string()
  .transform((text) => {
    try {
      return JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as unknown;
    } catch {
      throw invalidRequest('Invalid cursor format');
    }
  })
  .pipe(z.discriminatedUnion('v', [z.object({ v: z.literal(1), lastTimestamp: z.coerce.date(), lastId: z.string() })]));

const V3_QUERY = z
  .object({
    limit: z.preprocess((x) => (x === '' ? undefined : x), z.coerce.number().int().gte(1).lte(100).default(50)),
    fields: z
      .string()
      .optional()
      .transform((value) => (value ? value.split(',').map((item) => item.trim()) : ['core']))
      .pipe(z.array(z.enum(V3_GROUPS))),
    cursor: CURSOR.optional(),
    id: COMMA_LIST,
    name: COMMA_LIST,
    source: enumList(SOURCES, 'source'),
    dataType: enumList(DATA_TYPES, 'dataType'),
    environment: COMMA_LIST,
    configId: COMMA_LIST,
    queueId: COMMA_LIST,
    authorUserId: COMMA_LIST,
    value: COMMA_LIST,
    valueMin: emptyIsUnset(z.coerce.number().optional()),
    valueMax: emptyIsUnset(z.coerce.number().optional()),
    traceId: COMMA_LIST,
    sessionId: COMMA_LIST,
    observationId: COMMA_LIST,
    experimentId: COMMA_LIST,
    fromTimestamp: emptyIsUnset(z.coerce.date().optional()),
    toTimestamp: emptyIsUnset(z.coerce.date().optional()),
    userId: z
      .string()
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
    traceTags: z
      .string()
      .optional()
      .transform((value) => (value === '' ? undefined : value)),
  })
  .strict()
  .superRefine((data, ctx) => {
    if (data.userId !== undefined) ctx.addIssue({ code: 'custom', message: 'userId filter requires a trace JOIN and is not supported in v3 — use v2 or omit this filter' });
    if (data.traceTags !== undefined) ctx.addIssue({ code: 'custom', message: 'traceTags filter requires a trace JOIN and is not supported in v3 — use v2 or omit this filter' });
    if (data.value?.length) {
      const type = data.dataType?.length === 1 ? data.dataType[0] : undefined;
      if (!type) ctx.addIssue({ code: 'custom', message: 'value filter requires a single dataType from: NUMERIC, BOOLEAN, CATEGORICAL' });
      else if (!['NUMERIC', 'BOOLEAN', 'CATEGORICAL'].includes(type)) {
        ctx.addIssue({ code: 'custom', message: `value filter requires dataType to be NUMERIC, BOOLEAN, or CATEGORICAL (got "${type}")` });
      } else if (type === 'NUMERIC') {
        for (const v of data.value) {
          if (!Number.isFinite(Number(v))) ctx.addIssue({ code: 'custom', message: `value filter with dataType=NUMERIC requires each value to be a finite number (got "${v}")` });
        }
      } else if (type === 'BOOLEAN') {
        for (const v of data.value) {
          if (v !== 'true' && v !== 'false') ctx.addIssue({ code: 'custom', message: `value filter with dataType=BOOLEAN requires each value to be "true" or "false" (got "${v}")` });
        }
      }
    }
    if ((data.valueMin !== undefined || data.valueMax !== undefined) && !(data.dataType?.length === 1 && data.dataType[0] === 'NUMERIC')) {
      ctx.addIssue({ code: 'custom', message: 'valueMin and valueMax require dataType=NUMERIC as a single value' });
    }
    if ((data.observationId?.length ?? 0) > 0 && !(data.traceId?.length ?? 0)) {
      ctx.addIssue({ code: 'custom', message: 'observationId filter requires traceId — observation IDs are scoped to a trace' });
    }
    if ([data.traceId, data.sessionId, data.experimentId].filter((list) => list && list.length > 0).length > 1) {
      ctx.addIssue({ code: 'custom', message: 'At most one of traceId, sessionId, experimentId may be specified' });
    }
  });

const encodeCursor = (last: ScoreRecord) =>
  Buffer.from(JSON.stringify({ v: 1, lastTimestamp: new Date(last.timestamp).toISOString(), lastId: last.id })).toString('base64url');

function scoreV3(score: ScoreRecord, groups: readonly V3Group[]) {
  const value = score.dataType === 'NUMERIC' ? score.value : score.dataType === 'BOOLEAN' ? score.value === 1 : score.stringValue;
  const out: Record<string, unknown> = {
    id: score.id,
    projectId: score.projectId,
    name: score.name,
    source: score.source,
    timestamp: score.timestamp,
    environment: score.environment,
    createdAt: score.createdAt,
    updatedAt: score.updatedAt,
    dataType: score.dataType,
    value,
  };
  if (groups.includes('details')) Object.assign(out, { comment: score.comment, configId: score.configId, metadata: score.metadata });
  if (groups.includes('annotation')) Object.assign(out, { authorUserId: score.authorUserId, queueId: score.queueId });
  if (groups.includes('subject')) {
    out.subject = score.observationId
      ? { kind: 'observation', id: score.observationId, ...(score.traceId ? { traceId: score.traceId } : {}) }
      : score.traceId
        ? { kind: 'trace', id: score.traceId }
        : score.sessionId
          ? { kind: 'session', id: score.sessionId }
          : { kind: 'experiment', id: score.datasetRunId ?? '' };
  }
  return out;
}

/** Scores of the list's order one slice may scan for a filter that the list's indexes do not serve. */
const SCAN_ROWS = 20_000;

/**
 * Whether the filter picks scores by more than the list's index serves (its time range) and the
 * indexes that find scores by id, trace and observation: a name, a source, a value... may match
 * few of the scores a scan goes through.
 */
function scansBeyondIndex(filter: ScoreFilter): boolean {
  if ((filter.ids?.length ?? 0) > 0 || (filter.traceIds?.length ?? 0) > 0 || (filter.observationIds?.length ?? 0) > 0) return false;
  return Object.entries(filter).some(([key, value]) => key !== 'fromTimestamp' && key !== 'toTimestamp' && value !== undefined && (!Array.isArray(value) || value.length > 0));
}

/**
 * The v3 list. A filter its indexes do not serve is read SCAN_ROWS scores of the list's order at
 * a time, each part in a slice of its own (json-stream.ts), so that a filter that matches few
 * scores never scans them all in one go; a part with no match sends nothing and the page goes on.
 */
const listV3: Handler = (request, tx, context) => {
  const query = parseQuery(V3_QUERY, request.query);
  const type = query.dataType?.length === 1 ? query.dataType[0] : undefined;
  const values = query.value ?? [];
  const filter: ScoreFilter = {
    ids: query.id,
    names: query.name,
    sources: query.source,
    dataTypes: query.dataType,
    environments: query.environment,
    configIds: query.configId,
    queueIds: query.queueId,
    authorUserIds: query.authorUserId,
    traceIds: query.traceId,
    sessionIds: query.sessionId,
    observationIds: query.observationId,
    datasetRunIds: query.experimentId,
    numericValues: type === 'NUMERIC' ? values.map(Number) : type === 'BOOLEAN' ? values.map((v) => (v === 'true' ? 1 : 0)) : undefined,
    stringValues: type === 'CATEGORICAL' ? values : undefined,
    valueMin: query.valueMin,
    valueMax: query.valueMax,
    fromTimestamp: query.fromTimestamp?.toISOString(),
    toTimestamp: query.toTimestamp?.toISOString(),
  };
  const bounded = scansBeyondIndex(filter);
  // Where the next slice reads from (after a score sent, or after the part a slice scanned), and
  // the last score sent (the next page's cursor).
  let position: ScoreCursor | undefined = query.cursor && { timestamp: query.cursor.lastTimestamp.toISOString(), id: query.cursor.lastId };
  let lastSent: ScoreRecord | undefined;
  let sent = 0;
  let more = false;
  let done = false;
  // Once the page is full, what follows is looked through for one more match (a read of one),
  // which tells whether the page gets a cursor.
  const nextSlice = (slice: Tx) => {
    if (done) return undefined;
    const bound = bounded ? slice.scores.pageBound(filter, position, SCAN_ROWS) : undefined;
    const want = query.limit - sent;
    // One more than the page still needs: whether another page follows.
    const rows = slice.scores.page(filter, position, want + 1, bound);
    const page = rows.slice(0, want);
    sent += page.length;
    if (page.length > 0) lastSent = page[page.length - 1];
    if (rows.length > want) more = done = true;
    else if (!bound) done = true;
    else position = bound;
    return page.map((score) => scoreV3(score, query.fields));
  };
  const meta = () => ({ limit: query.limit, ...(more && lastSent ? { cursor: encodeCursor(lastSent) } : {}) });
  // The first slice at once, in this transaction: a page of one slice (every page of a filter
  // the indexes serve) goes out whole, with its length.
  const first = nextSlice(tx) ?? [];
  if (done) return { status: 200, body: { data: first, meta: meta() } };
  const body = { data: slicesAfter(first, nextSlice), meta: new LateValue(meta, meta) };
  return { status: 200, body: context.inProcess ? wholeBody(body, tx) : body };
};

export const scoreRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/scores$/,
    auth: 'project',
    allowScoresKey: true,
    methodNotAllowedClass: true,
    // The v1 list (not implemented here); POST stays (web/src/pages/api/public/scores/index.ts).
    removedInEventsOnly: ['GET'],
    methods: { POST: create },
  },
  {
    pattern: /^\/api\/public\/v3\/scores$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { GET: listV3 },
  },
];
