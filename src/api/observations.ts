// HTTP calls for observations: GET /api/public/v2/observations, cursor-paged (API.md section 6).
// Pages are read here, not by the shared client: answers are kept exactly as the server sent
// them (for exports), a malformed page is asked for again (a GET is safe to repeat), and a
// server that hands out the same cursor twice is stopped instead of looping forever.
import type { Context } from '../context.js';
import { MemberElements } from '../core/json-depth.js';
import { keepSentJson } from '../core/observations/sent-json.js';
import { ApiError, ApiNotFoundError } from '../errors.js';
import type { ApiClient, Query } from './client.js';
import { errorForBadResponse } from './http-error.js';
import { RecentIds } from './recent-ids.js';
import { observationIssues, ObservationsV2PageSchema } from './schemas/observations.js';

export const OBSERVATIONS_V2_PATH = '/api/public/v2/observations';

/** The largest page the v2 observations API serves. */
export const OBSERVATION_PAGE_LIMIT = 1000;

export interface ObservationPage {
  /** The observations as sent, in the server's order. */
  items: Record<string, unknown>[];
  /** The cursor of the next page; null on the last page. */
  next: string | null;
  /** Bytes of the answer's body. */
  bytes: number;
}

export interface PageOptions {
  /** How often a malformed page is asked for again. */
  retries: number;
  sleep: (ms: number) => Promise<void>;
  trace?: (line: string) => void;
  /** Extra request headers. */
  headers?: Record<string, string> | undefined;
  /** Another cursor-paged route than v2 observations (default: OBSERVATIONS_ROUTE). */
  route?: CursorRoute | undefined;
  /** Sees every answer read successfully (status and headers), e.g. to print them. */
  onResponse?: ((status: number, headers: Record<string, string | string[] | undefined>) => void) | undefined;
  /** Says something the user should know (repeated items dropped), once, on stderr. */
  warn?: ((line: string) => void) | undefined;
  /** Sees the body of each answer as received, before it is parsed (which waits for what it returns). */
  onBody?: ((body: Buffer) => void | Promise<void>) | undefined;
}

/** A command's retry settings as the page readers take them (--retries, its clock, --verbose, its warnings). */
export function retryOptions(ctx: Pick<Context, 'globals' | 'sleep' | 'trace' | 'out'>): Pick<PageOptions, 'retries' | 'sleep' | 'trace' | 'warn'> {
  return { retries: ctx.globals.retries, sleep: ctx.sleep, trace: (line) => ctx.trace(line), warn: (line) => ctx.out.warn(line) };
}

/** A cursor-paged route: how to read one of its pages, and what to advise when its paging goes wrong. */
export interface CursorRoute {
  path: string;
  /** The items and next cursor of an answer; problems are thrown (a bad_response error is asked for again). */
  read: (data: unknown, status: number) => { items: Record<string, unknown>[]; next: string | null };
  /** What the items are, plural (default: observations). */
  noun?: string;
  /** What to do when the listing is too long, too large, or the server pages incorrectly. */
  hints: { tooManyPages: string; tooLarge: string; badPaging: string };
  /** The query of one page (default: the query, with `cursor` after the first page). */
  params?: (query: Query, cursor: string | null) => Query;
  /** Pages are numbered, so each is asked for in the same size (a too-large page is an error, not asked for in halves). */
  fixedPageSize?: boolean;
  /**
   * The next page's cursor as read from the end of an answer before it is parsed, so that the
   * next page is asked for while this one is parsed. A guess: the parsed answer decides, and a
   * request made on a cursor it does not confirm is dropped.
   */
  peekNext?: ((body: Buffer) => string | undefined) | undefined;
  /** The answer's member whose array `read` gives as the items (that array itself): their text is kept, to be written as sent. */
  member?: string | undefined;
}

// A page with a next one ends `"meta":{"cursor":"…"}}`, as Langfuse and llmobs server write it.
const CURSOR_AT_END = /"meta":\{"cursor":"([^"\\]+)"\}\}\s*$/;

/** The cursor at the end of a v2 page's body, if it ends the way Langfuse writes one. */
export function cursorAtEnd(body: Buffer): string | undefined {
  return CURSOR_AT_END.exec(body.toString('utf8', Math.max(0, body.length - 1024)))?.[1];
}

export const OBSERVATIONS_ROUTE: CursorRoute = {
  path: OBSERVATIONS_V2_PATH,
  read(data, status) {
    const parsed = ObservationsV2PageSchema.safeParse(data);
    const issues = parsed.success ? observationIssues(parsed.data.data) : parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`);
    if (issues.length) throw errorForBadResponse('GET', OBSERVATIONS_V2_PATH, status, issues.join('; '));
    const page = data as { data: Record<string, unknown>[]; meta: { cursor?: string | null } };
    return { items: page.data, next: page.meta.cursor || null };
  },
  peekNext: cursorAtEnd,
  member: 'data',
  hints: {
    tooManyPages: 'Raise the limit with --max-pages <n>, narrow the list with filters, or read everything with: llmobs observations export --output FILE',
    tooLarge: 'Filter the listing (--from/--to, --limit), or read everything to a file with flat memory: llmobs observations export --output FILE',
    badPaging: 'The server pages incorrectly. Narrow the query (--from/--to) or report it to the server\'s maintainers.',
  },
};

/** One page; `query` holds the filters, fields and limit. */
export async function fetchObservationPage(client: ApiClient, query: Query, cursor: string | null, options: PageOptions): Promise<ObservationPage> {
  const route = options.route ?? OBSERVATIONS_ROUTE;
  const full = route.params ? route.params(query, cursor) : cursor ? { ...query, cursor } : query;
  for (let attempt = 0; ; attempt++) {
    try {
      const elements = route.member === undefined ? undefined : new MemberElements(route.member);
      const { data, status, bytes, headers } = await client.request<unknown>('GET', route.path, { query: full, headers: options.headers, onBody: options.onBody, elements });
      const page = route.read(data, status);
      // Only items that are the answer's own elements, not ones the route made from them.
      if (elements && page.items === (data as Record<string, unknown> | null)?.[elements.key]) keepSentJson(page.items, elements);
      options.onResponse?.(status, headers);
      return { ...page, bytes };
    } catch (error) {
      // A listing answers 404 only when the route itself is missing: say what that means.
      if (route === OBSERVATIONS_ROUTE && error instanceof ApiNotFoundError && !error.hint) {
        error.hint = `This server has no v2 observations API (${OBSERVATIONS_V2_PATH}): a self-hosted Langfuse older than the v2 APIs, or not a Langfuse server. Check the base URL (llmobs health), or upgrade the server.`;
      }
      if (!(error instanceof ApiError && error.code === 'bad_response') || attempt >= options.retries) throw error;
      const delay = Math.min(500 * 2 ** attempt, 8_000);
      options.trace?.(`  malformed page (${error.message}); asking again in ${delay} ms`);
      await options.sleep(delay);
    }
  }
}

export interface WalkState {
  /** The cursor of the page to fetch next; null for the first page. */
  cursor: string | null;
  /** Items given so far (counts toward `max`). */
  items: number;
  pages: number;
}

/** Where a listing starts: before its first page. */
export const FIRST_PAGE: Readonly<WalkState> = { cursor: null, items: 0, pages: 0 };

/** What observationPages takes besides the route's PageOptions. */
export interface WalkOptions extends PageOptions {
  max?: number | undefined;
  pageSize: number;
  maxPages?: number | undefined;
  /** For a caller that keeps every page in memory: the most bytes all the answers may add up to. */
  maxBytes?: number | undefined;
  /**
   * An item whose id an earlier page had is dropped (the default), counted once, and the number
   * dropped is said once through `warn` when the walk ends; 'keep' gives pages as sent.
   */
  repeats?: 'drop' | 'keep' | undefined;
}

export type WalkPage = { items: Record<string, unknown>[]; state: WalkState; last: boolean };

/**
 * Pages from `start` on until the last page or `max` items. Each yielded page carries the state
 * after it, so a caller that has stored the page can record where to continue.
 */
export async function* observationPages(client: ApiClient, query: Query, start: WalkState, options: WalkOptions): AsyncGenerator<WalkPage> {
  const recent = options.repeats === 'keep' ? undefined : new RecentIds();
  const dropped = { count: 0 };
  try {
    yield* walkPages(client, query, start, options, (list) => fresh(list, recent, dropped));
  } finally {
    // Said once, however the walk ends: its last page, an error, or a caller that stopped early.
    if (dropped.count > 0) {
      const noun = options.route?.noun ?? 'observations';
      const n = dropped.count;
      options.warn?.(`the server sent ${n === 1 ? `1 of the ${noun}` : `${n} ${noun}`} again (ids an earlier page had): dropped, so each is kept and counted once`);
    }
  }
}

/** The items whose ids were not seen before (an item without an id is kept); counts the others. */
function fresh(list: Record<string, unknown>[], recent: RecentIds | undefined, dropped: { count: number }): Record<string, unknown>[] {
  if (!recent) return list;
  const out: Record<string, unknown>[] = [];
  for (const item of list) {
    const id = item?.id;
    if (typeof id === 'string' && recent.seen(id)) dropped.count++;
    else out.push(item);
  }
  return out;
}

/**
 * Resolves after a turn of the event loop. undici writes a request on a kept-alive connection only
 * then (it first looks for a close the server sent meanwhile), so a page asked for ahead waits
 * for this before the work on the page in hand, or it would not leave until that work is done.
 */
const sent = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A page asked for: its size and cursor, and the next page if its answer started it early. */
interface Asked {
  limit: number;
  cursor: string | null;
  page: Promise<ObservationPage>;
  early: Asked | undefined;
}

/** The pages themselves; `fresh` keeps the items of a page that are new. */
async function* walkPages(
  client: ApiClient,
  query: Query,
  start: WalkState,
  options: WalkOptions,
  fresh: (list: Record<string, unknown>[]) => Record<string, unknown>[],
): AsyncGenerator<WalkPage> {
  const { path, hints, noun = 'observations' } = options.route ?? OBSERVATIONS_ROUTE;
  let { cursor, items, pages } = start;
  const firstPage = pages;
  const seen = new Set<string>();
  let emptyRun = 0;
  let sparseRun = 0;
  let bytes = 0;
  let previous = '';
  let size = options.pageSize;
  let good = 0;
  const fixed = options.route?.fixedPageSize === true;
  const limitNow = () => (options.max === undefined || fixed ? size : Math.min(size, options.max - items));
  const morePages = (after: number) => options.maxPages === undefined || after - firstPage < options.maxPages;
  // The next page is asked for before this one is handed over, so the server builds it while the
  // caller writes this one; where the route can read the next cursor from the end of an answer,
  // as soon as the answer is in, so the server builds it while this one is parsed too. Only the
  // answer the walk waits for starts one early: the walk runs at most a page ahead of its caller.
  // A failure is met where the page is awaited, as an unprefetched one's is.
  const peek = options.max === undefined && !fixed ? (options.route ?? OBSERVATIONS_ROUTE).peekNext : undefined;
  let awaited: Asked | undefined;
  const ask = (limit: number, from: string | null): Asked => {
    const onBody =
      peek &&
      ((body: Buffer) => {
        if (awaited !== asked) return undefined;
        const next = peek(body);
        // A page asked for again (a malformed answer) replaces what its first answer started.
        asked.early = next !== undefined && next !== from && morePages(pages + 1) ? ask(size, next) : undefined;
        return asked.early && sent();
      });
    const asked: Asked = { limit, cursor: from, page: fetchObservationPage(client, { ...query, limit }, from, { ...options, onBody }), early: undefined };
    asked.page.catch(() => {});
    return asked;
  };
  let ahead: Asked | undefined;
  while (options.max === undefined || items < options.max) {
    if (!morePages(pages)) {
      throw new ApiError(`the listing has more than ${options.maxPages} pages; stopped without a partial result`, {
        status: 200,
        method: 'GET',
        path,
        hint: hints.tooManyPages,
      }, 5, 'too_many_pages');
    }
    const current = ahead ?? ask(limitNow(), cursor);
    const limit = current.limit;
    ahead = undefined;
    awaited = current;
    let page: ObservationPage;
    try {
      page = await current.page;
    } catch (error) {
      awaited = undefined;
      // Observations with large inputs make a page too large to read: ask for the same position
      // in smaller pages (the cursor is a position, so any size continues it correctly).
      if (!(error instanceof ApiError && error.code === 'response_too_large') || limit <= 1 || fixed) throw error;
      size = Math.max(1, Math.floor(limit / 2));
      good = 0;
      options.trace?.(`  page of ${limit} too large; asking for ${size} at a time`);
      continue;
    }
    awaited = undefined;
    bytes += page.bytes;
    if (options.maxBytes !== undefined && bytes > options.maxBytes) {
      const mb = Math.round(options.maxBytes / 1024 / 1024);
      throw new ApiError(`the pages of GET ${path} add up to more than ${mb} MB (the limit for one listing); stopped after page ${pages + 1}`, {
        status: 200,
        method: 'GET',
        path,
        hint: hints.tooLarge,
      }, 5, 'response_too_large');
    }
    if (size < options.pageSize && ++good >= 10) {
      size = Math.min(options.pageSize, size * 2);
      good = 0;
    }
    let list = fresh(page.items);
    if (options.max !== undefined && items + list.length > options.max) list = list.slice(0, options.max - items);
    items += list.length;
    pages++;
    const last = page.next === null || (options.max !== undefined && items >= options.max);
    if (page.next !== null) {
      if (page.next === cursor || seen.has(page.next)) {
        throw new ApiError(`GET ${path}: the server returned a cursor it had returned before; stopping instead of reading the same pages again`, {
          status: 200,
          method: 'GET',
          path,
          hint: hints.badPaging,
        }, 5, 'bad_response');
      }
      seen.add(page.next);
      if (seen.size > 10_000) seen.clear();
    }
    // A new cursor with the same observations again is a server that does not move on.
    const key = (item: Record<string, unknown> | null) => (item?.id === undefined ? JSON.stringify(item) : String(item.id));
    const signature = page.items.length ? `${key(page.items[0]!)}\u0000${key(page.items[page.items.length - 1]!)}\u0000${page.items.length}` : '';
    if (signature && signature === previous) {
      throw new ApiError(`GET ${path}: the server returned the same page twice under different cursors; stopping instead of writing it again`, { status: 200, method: 'GET', path, hint: hints.badPaging }, 5, 'bad_response');
    }
    previous = signature;
    emptyRun = list.length === 0 ? emptyRun + 1 : 0;
    if (emptyRun >= 100 && !last) {
      throw new ApiError(`GET ${path}: 100 empty pages in a row, each with a next cursor; stopping`, { status: 200, method: 'GET', path, hint: hints.badPaging }, 5, 'bad_response');
    }
    // Langfuse gives a next cursor only after a full page. A chain of pages that hold a few
    // observations each would take a request per observation, without end: stopped.
    sparseRun = page.next !== null && page.items.length * 10 < limit ? sparseRun + 1 : 0;
    if (sparseRun >= 100 && !last) {
      throw new ApiError(`GET ${path}: 100 pages in a row with fewer than a tenth of the ${limit} ${noun} asked for, each with a next cursor; stopping`, {
        status: 200,
        method: 'GET',
        path,
        hint: hints.badPaging,
      }, 5, 'bad_response');
    }
    cursor = page.next;
    if (!last && morePages(pages)) {
      const next = limitNow();
      // What was asked for early is kept only if the parsed answer confirms it.
      const early = current.early;
      if (early !== undefined && early.cursor === cursor && early.limit === next) ahead = early;
      else {
        ahead = ask(next, cursor);
        await sent();
      }
    }
    yield { items: list, state: { cursor, items, pages }, last };
    if (last) return;
  }
}
