// GET /api/public/experiments and GET /api/public/experiment-items, the v4 successors of dataset
// runs and run items (web/src/pages/api/public/experiments/index.ts, experiment-items/index.ts,
// their query schemas in web/src/features/public-api/types/experiments.ts). The service builds them
// from the events that carry experiment attributes; this server keeps no datasets or experiments,
// so it answers as the service does for a project without any: the query checked, then an empty
// page. In legacy mode (v4 preview off) the routes answer 404 once the query is checked.
import { z } from 'zod';
import { V4_ONLY_MESSAGES } from '../../api/write-mode.js';
import { singleFilter } from '../../core/filters.js';
import { invalidRequest, notFound } from '../http/errors.js';
import type { Handler, Route } from '../http/router.js';
import { COMMA_LIST, LIMIT, parseQuery } from './read-query.js';
import { FILTER_JSON } from './filter-param.js';

/** `commaSeparatedEnumArray(values, default)`: a comma list whose every item must be known. */
function fieldGroups(groups: readonly [string, ...string[]], fallback: string[]) {
  return z.preprocess((value) => {
    if (value === null || value === undefined || value === '') return undefined;
    if (typeof value !== 'string') return value;
    return value
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
  }, z.array(z.enum(groups)).default(fallback));
}

const SCORE_LIMIT = z.preprocess((value) => (value === '' ? undefined : value), z.coerce.number().int().gte(1).lte(50).default(50));

/** The cursor: base64url JSON, version 1 (the service's ExperimentCursorV1). */
const CURSOR = z
  .string()
  .transform((value) => {
    try {
      return JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    } catch {
      throw invalidRequest('Invalid cursor format');
    }
  })
  .pipe(z.discriminatedUnion('v', [z.object({ v: z.literal(1), lastTime: z.string(), lastTraceId: z.string(), lastId: z.string(), lastExperimentId: z.string() })]));

/** `optionalJsonParam(experimentFilterState, "filter")`: filters on the route's own columns only. */
function filterOf(columns: readonly [string, ...string[]]) {
  return FILTER_JSON.pipe(z.array(z.intersection(singleFilter(true), z.looseObject({ column: z.enum(columns) }))).optional());
}

const TIME = {
  fromStartTime: z.iso.datetime({ offset: true }),
  toStartTime: z.iso.datetime({ offset: true }).optional(),
};

// The service checks the query in two steps: the parameters, then (only when they pass) the
// decoded cursor. A step's issues are reported together.
function twoSteps(shape: z.ZodRawShape) {
  return z.object({ ...shape, cursor: z.string().optional() }).transform((query, ctx) => {
    if (typeof query.cursor !== 'string') return query;
    const cursor = CURSOR.safeParse(query.cursor);
    if (!cursor.success) {
      for (const issue of cursor.error.issues) ctx.addIssue({ ...issue, path: ['cursor', ...issue.path] } as never);
      return z.NEVER;
    }
    return query;
  });
}

const EXPERIMENTS_QUERY = twoSteps({
  fields: fieldGroups(['core', 'metadata', 'scores'], ['core']),
  limit: LIMIT,
  scoreLimit: SCORE_LIMIT,
  ...TIME,
  id: COMMA_LIST,
  name: COMMA_LIST,
  datasetId: COMMA_LIST,
  filter: filterOf(['id', 'name', 'datasetId']),
});

const EXPERIMENT_ITEMS_QUERY = twoSteps({
  fields: fieldGroups(['core', 'dataset', 'io', 'metadata', 'itemMetadata', 'experimentMetadata', 'scores'], ['core', 'dataset']),
  limit: LIMIT,
  scoreLimit: SCORE_LIMIT,
  ...TIME,
  experimentId: COMMA_LIST,
  experimentName: COMMA_LIST,
  experimentItemId: COMMA_LIST,
  datasetId: COMMA_LIST,
  filter: filterOf(['experimentId', 'experimentName', 'experimentItemId', 'datasetId']),
});

function emptyList(schema: z.ZodType, legacyMessage: string): Handler {
  return (request, _tx, context) => {
    parseQuery(schema, request.query);
    if (context.writeMode === 'legacy') throw notFound(legacyMessage);
    return { status: 200, body: { data: [], meta: {} } };
  };
}

export const experimentRoutes: Route[] = [
  {
    pattern: /^\/api\/public\/experiments$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { GET: emptyList(EXPERIMENTS_QUERY, V4_ONLY_MESSAGES.experiments) },
  },
  {
    pattern: /^\/api\/public\/experiment-items$/,
    auth: 'project',
    methodNotAllowedClass: true,
    methods: { GET: emptyList(EXPERIMENT_ITEMS_QUERY, V4_ONLY_MESSAGES.experimentItems) },
  },
];
