// Reading a list the way every list command does: --limit N prints at most N items (reading as
// many pages as that takes), --all every item, --page P one page. The JSON shape is the API's page
// shape whatever the flags: {"data": [...], "meta": {page, limit, totalItems, totalPages}}. When
// more items exist than were printed, a hint says how to get them, on stderr, with --json too.
//
// A server that ignores `page` (the same page again) or never stops (more pages than it announced,
// pages larger than asked) cannot keep llmobs reading forever: such answers end the read with an
// error instead.
import { z } from 'zod';
import type { PageMeta, Page } from '../api/schemas/common.js';
import type { Context } from '../context.js';
import { ApiError, UsageError } from '../errors.js';
import { MAX_INT32, wholeNumber } from './options.js';

/** The largest page the page-based endpoints serve. */
export const MAX_PAGE_SIZE = 100;
/** Pages a listing follows unless --max-pages says otherwise (the default of --max-pages). */
export const MAX_PAGES = 1000;

const whole = z.string().transform(wholeNumber(1, MAX_INT32));

/** Zod fields for the options object of a list command (see addPagingFlags). */
export const pagingFields = {
  all: z.boolean().default(false),
  page: whole.optional(),
  limit: whole.optional(),
};

export interface Paging {
  all: boolean;
  page?: number | undefined;
  limit?: number | undefined;
}

export interface Listing<T> {
  data: T[];
  /** The server's paging information (of the first page read): totalItems counts every item it has. */
  meta: PageMeta;
  /** Items that exist and were not printed (0 when unknown or none). */
  more: number;
  /** How the read was asked for, to word the hint. */
  paging: Paging;
  /** Set when a client-side filter applied: totalItems then counts items before it. */
  filtered: boolean;
}

/** One page; `page` is left out (the server's default, 1) when it was not asked for. */
export type FetchPage<T> = (request: { page: number | undefined; limit: number | undefined }) => Promise<Page<T>>;

export interface ReadOptions<T> {
  /** Keeps only some items (the server cannot filter them): every page is then read unless --limit stops earlier. */
  filter?: ((item: T) => boolean) | undefined;
  /** Page size when several pages are read (default 100). */
  pageSize?: number | undefined;
  /** Most pages to read (--max-pages); a listing that needs more is an error, not a partial list. */
  maxPages?: number | undefined;
}

/** Usage errors, before anything is sent. */
export function checkPaging(paging: Paging, options: { filtered?: boolean; filterFlag?: string } = {}): void {
  if (paging.all && paging.limit !== undefined) throw new UsageError('--all and --limit exclude each other: --all prints every item, --limit at most n');
  if (paging.all && paging.page !== undefined) throw new UsageError('--all and --page exclude each other: --all reads every page');
  if (paging.page !== undefined && paging.limit !== undefined && paging.limit > MAX_PAGE_SIZE) {
    throw new UsageError(`with --page, --limit is the page size: at most ${MAX_PAGE_SIZE}`, { hint: 'Without --page, --limit may be larger: that many items are read over several pages.' });
  }
  if (paging.page !== undefined && options.filtered) {
    throw new UsageError(`--page cannot be combined with ${options.filterFlag ?? 'this filter'}`, { hint: 'The filter applies to every page, so the whole list is read.' });
  }
}

export async function readList<T>(fetchPage: FetchPage<T>, paging: Paging, options: ReadOptions<T> = {}): Promise<Listing<T>> {
  const filter = options.filter;
  const pageSize = options.pageSize ?? MAX_PAGE_SIZE;

  // One page, as asked: --page, or nothing asked and nothing to filter.
  if (paging.page !== undefined || (!paging.all && !filter && (paging.limit === undefined || paging.limit <= pageSize))) {
    const page = paging.page ?? 1;
    const answer = await fetchPage({ page: paging.page, limit: paging.limit });
    checkPageSize(answer, paging.limit);
    const before = (page - 1) * answer.meta.limit;
    return { data: answer.data, meta: answer.meta, more: Math.max(0, answer.meta.totalItems - before - answer.data.length), paging, filtered: false };
  }

  const want = paging.all ? Number.POSITIVE_INFINITY : (paging.limit ?? Number.POSITIVE_INFINITY);
  const data: T[] = [];
  let first: PageMeta | undefined;
  let previousFirstItem: string | undefined;
  let seen = 0;
  const maxPages = options.maxPages ?? MAX_PAGES;
  for (let page = 1; ; page++) {
    if (page > maxPages) throw tooManyPages(maxPages);
    const answer = await fetchPage({ page, limit: pageSize });
    checkPageSize(answer, pageSize);
    first ??= answer.meta;
    if (answer.data.length === 0) break;
    const firstItem = JSON.stringify(answer.data[0]);
    if (page > 1 && firstItem === previousFirstItem) throw inconsistent(`page ${page} is the same as page ${page - 1} (does it ignore the page parameter?)`);
    previousFirstItem = firstItem;
    seen += answer.data.length;
    for (const item of answer.data) {
      if (filter && !filter(item)) continue;
      if (data.length < want) data.push(item);
    }
    if (data.length >= want) break;
    if (page >= answer.meta.totalPages) break;
    // A short page is the last, whatever totalPages says (the smaller of the sizes asked and applied).
    if (answer.data.length < Math.min(pageSize, answer.meta.limit > 0 ? answer.meta.limit : pageSize)) break;
  }
  const meta = first ?? { page: 1, limit: pageSize, totalItems: 0, totalPages: 0 };
  // Unknown how many of the unread items pass a filter: only say there are more when the limit stopped the read.
  const more = filter ? (data.length >= want && seen < meta.totalItems ? 1 : 0) : Math.max(0, meta.totalItems - data.length);
  return { data, meta, more, paging, filtered: filter !== undefined };
}

function checkPageSize<T>(answer: Page<T>, asked: number | undefined): void {
  if (asked !== undefined && answer.data.length > asked) throw inconsistent(`a page of ${answer.data.length} items when at most ${asked} were asked for`);
}

function tooManyPages(maxPages: number): ApiError {
  return new ApiError(`the listing has more than ${maxPages} pages; stopped without a partial result`, {
    status: 200,
    method: 'GET',
    path: '',
    hint: 'Raise the limit with --max-pages <n> if the list really is that long, or narrow it with a filter.',
  }, 5, 'too_many_pages');
}

function inconsistent(what: string): ApiError {
  return new ApiError(`the server's paging is inconsistent: ${what}; stopped reading`, { status: 200, method: 'GET', path: '', hint: 'Try again; if it persists, report it to the server\'s operator.' });
}

/** {data, meta}: the same shape for one page, several, or all. */
export function listingJson<T, U = T>(listing: Listing<T>, map?: (item: T) => U): { data: Array<T | U>; meta: PageMeta } {
  return { data: map ? listing.data.map(map) : listing.data, meta: listing.meta };
}

/** Says on stderr (with --json too) that more items exist and how to get them. */
export function hintMore(ctx: Context, listing: Listing<unknown>, noun: string): void {
  const { paging, meta } = listing;
  if (listing.more === 0) {
    if (paging.page !== undefined && listing.data.length === 0 && meta.totalItems > 0) {
      ctx.out.hint(`Page ${paging.page} is past the end: there are ${meta.totalPages} pages of ${meta.limit}.`);
    }
    return;
  }
  if (listing.filtered) {
    ctx.out.hint(`Showing the first ${listing.data.length} ${noun}; there may be more. All of them: --all`);
    return;
  }
  if (paging.page !== undefined) {
    const next = paging.page < meta.totalPages ? ` Next: --page ${paging.page + 1}, or` : ' All of them:';
    ctx.out.hint(`Page ${paging.page} of ${meta.totalPages} (${meta.totalItems} ${noun}).${next} --all`);
    return;
  }
  ctx.out.hint(`Showing ${listing.data.length} of ${meta.totalItems} ${noun}. More: --limit ${meta.totalItems}, or --all`);
}
