// Observation listings on the route the server answers (read-routes.ts): the v2 list, cursor-paged,
// or where a Langfuse deployment runs the legacy write mode (no v2 observations), the v1 list,
// page-numbered (web/src/pages/api/public/observations/index.ts: filters type, name, userId,
// level, traceId, version, parentObservationId, environment, fromStartTime, toStartTime; at most
// 100 a page; newest first). A v1 page's observations are given in the v2 shape with the field
// groups asked for (core/observations/v1-as-v2.ts), so what is written does not depend on the route.
import { z } from 'zod';
import type { Context } from '../context.js';
import { type FieldGroup, GROUP_NAMES } from '../core/observations/fields.js';
import { v1AsV2 } from '../core/observations/v1-as-v2.js';
import { ApiNotFoundError, UsageError } from '../errors.js';
import type { ApiClient, Query } from './client.js';
import { errorForBadResponse } from './http-error.js';
import { type CursorRoute, OBSERVATIONS_ROUTE, observationPages, type WalkOptions, type WalkPage, type WalkState } from './observations.js';
import { viaRoute } from './read-routes.js';

export const OBSERVATIONS_V1_PATH = '/api/public/observations';
/** The largest page of the v1 list (publicApiPaginationZod). */
export const V1_PAGE_LIMIT = 100;
/**
 * A v1 listing without --to ends where it began (and 10 minutes on, for clocks that differ):
 * pages are numbered, so observations that start later would push those not read yet onto pages
 * already read.
 */
const V1_WINDOW_SLACK_MS = 10 * 60_000;

const V1_FILTERS = ['type', 'name', 'userId', 'level', 'traceId', 'version', 'parentObservationId', 'environment', 'fromStartTime'] as const;
/** Filters of the v2 list that v1 does not have, and the flag that sets each. */
const V2_ONLY_FILTERS: Record<string, string> = { sessionId: '--session', isRootObservation: 'a filter on root observations' };

const count = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]);
const V1PageSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string() })),
  meta: z.looseObject({ page: count, totalPages: count }),
});

/** A cursor of the v1 list: the page to read next, and the end of the window the listing reads. */
export function isV1Cursor(cursor: string | null): boolean {
  return cursor !== null && cursor.startsWith('v1:');
}

function readV1Cursor(cursor: string): { page: number; to: string } {
  const match = /^v1:(\d+):(.+)$/.exec(cursor);
  const page = Number(match?.[1]);
  if (!match || !(page >= 1) || Number.isNaN(Date.parse(match[2]!))) throw new UsageError(`not a cursor of the v1 observations list: ${JSON.stringify(cursor)}`);
  return { page, to: match[2]! };
}

function groupsOf(query: Query): FieldGroup[] {
  const fields = typeof query.fields === 'string' ? query.fields.split(',') : [];
  const groups = GROUP_NAMES.filter((group) => fields.includes(group));
  return groups.length ? groups : ['core', 'basic'];
}

/**
 * The v1 list as a cursor route. `shape` 'v2' gives each observation as the v2 list does with the
 * query's field groups; 'as-sent' as v1 sent it (a trace's observations, as the v3 trace route gives them).
 */
export function v1ObservationsRoute(query: Query, now: Date, shape: 'v2' | 'as-sent' = 'v2'): CursorRoute {
  const groups = groupsOf(query);
  const given = typeof query.toStartTime === 'string' ? query.toStartTime : undefined;
  const end = given ?? new Date(now.getTime() + V1_WINDOW_SLACK_MS).toISOString();
  return {
    ...OBSERVATIONS_ROUTE,
    path: OBSERVATIONS_V1_PATH,
    fixedPageSize: true,
    peekNext: undefined,
    member: undefined,
    params(q, cursor) {
      for (const [name, flag] of Object.entries(V2_ONLY_FILTERS)) {
        if (q[name] !== undefined && q[name] !== null) throw new UsageError(`${flag} needs the v2 observations API, which this server does not have (a Langfuse deployment in the legacy write mode has the v1 list only)`);
      }
      const at = cursor ? readV1Cursor(cursor) : { page: 1, to: end };
      const out: Query = { page: at.page, limit: q.limit, toStartTime: at.to };
      for (const name of V1_FILTERS) out[name] = q[name];
      return out;
    },
    read(data, status) {
      const parsed = V1PageSchema.safeParse(data);
      if (!parsed.success) {
        throw errorForBadResponse('GET', OBSERVATIONS_V1_PATH, status, parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; '));
      }
      const { page, totalPages } = parsed.data.meta;
      const items = parsed.data.data as Record<string, unknown>[];
      return { items: shape === 'v2' ? items.map((o) => v1AsV2(o, groups)) : items, next: page < totalPages && items.length > 0 ? `v1:${page + 1}:${end}` : null };
    },
  };
}

export interface RoutedOptions extends WalkOptions {
  /** How v1 observations are given (see v1ObservationsRoute). */
  v1Shape?: 'v2' | 'as-sent';
  /** Told the route once it is known (before the first page is yielded). */
  onRoute?: (route: 'v2' | 'v1') => void;
}

/**
 * The pages of an observation listing on the route the server answers. A walk that starts from a
 * cursor (a resumed export) stays on the route that cursor belongs to.
 */
export async function* routedObservationPages(ctx: Context, client: ApiClient, query: Query, start: WalkState, options: RoutedOptions): AsyncGenerator<WalkPage> {
  const onV1 = (): WalkOptions => ({ ...options, route: v1ObservationsRoute(query, ctx.now(), options.v1Shape), pageSize: Math.min(options.pageSize, V1_PAGE_LIMIT) });
  let walk: AsyncGenerator<WalkPage>;
  let first: IteratorResult<WalkPage>;
  if (start.cursor !== null) {
    const route = isV1Cursor(start.cursor) ? 'v1' : 'v2';
    options.onRoute?.(route);
    walk = observationPages(client, query, start, route === 'v1' ? onV1() : options);
    try {
      first = await walk.next();
    } catch (error) {
      if (error instanceof ApiNotFoundError) {
        error.hint = `This listing began on the ${route} observations API, which the server no longer answers (its Langfuse write mode changed): start it over (an export with --force).`;
      }
      throw error;
    }
  } else {
    type Begun = { pages: AsyncGenerator<WalkPage>; first: IteratorResult<WalkPage> };
    const begin = async (options: WalkOptions): Promise<Begun> => {
      const pages = observationPages(client, query, start, options);
      return { pages, first: await pages.next() };
    };
    const routed = await viaRoute<'observations', Begun>(ctx, client, 'observations', { v2: () => begin(options), v1: () => begin(onV1()) });
    options.onRoute?.(routed.route);
    ({ pages: walk, first } = routed.value);
  }
  try {
    for (let next = first; !next.done; next = await walk.next()) yield next.value;
  } finally {
    await walk.return(undefined);
  }
}
