// Every page of a listing, for llmobs api --paginate: by page number, or by cursor on the routes
// that page by cursor (and on any route whose first answer hands out a next cursor and no page count).
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { ApiClient, Query } from './client.js';

/** Routes that page by cursor (API.md), with their largest page: --paginate reads them in pages of that size. */
const CURSOR_ROUTES: Record<string, number> = { '/api/public/v2/observations': 1000, '/api/public/v3/scores': 100 };
/** Longer than any cursor Langfuse hands out by far: a "cursor" this long is not one. */
const MAX_CURSOR_LENGTH = 4096;

type OnResponse = (status: number, headers: Record<string, string | string[] | undefined>) => void;

/**
 * Every item of a listing, page by page: `meta.cursor` on cursor routes (or when the query starts
 * from a cursor, or the first answer has a next cursor and no page count), `page=` otherwise.
 */
export async function allPages(ctx: Context, client: ApiClient, path: string, query: Query, headers: Record<string, string>, onResponse: OnResponse): Promise<unknown[]> {
  if (query.cursor !== undefined || CURSOR_ROUTES[path] !== undefined) return cursorPages(ctx, client, path, query, headers, onResponse);
  const start = Number(query.page ?? 1);
  const rest = { ...query };
  delete rest.page;
  let reads = 0;
  let meta: { totalPages?: unknown; limit?: unknown; cursor?: unknown } | undefined;
  const items = await client.collectPages(
    path,
    rest,
    (data) => {
      const record = data as { data?: unknown; meta?: { totalPages?: unknown; limit?: unknown; cursor?: unknown } };
      if (!Array.isArray(record?.data)) {
        throw new UsageError(`${path} is not a paged list (no data array in the answer); drop --paginate`);
      }
      reads++;
      meta = record.meta;
      const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
      return { items: record.data as unknown[], totalPages: number(record.meta?.totalPages), limit: number(record.meta?.limit) };
    },
    { startPage: Number.isInteger(start) && start > 0 ? start : 1, headers, onResponse },
  );
  // A route this CLI does not know as cursor-paged answered with a next cursor and no page count: go on by cursor.
  if (reads === 1 && meta?.totalPages === undefined && typeof meta?.cursor === 'string' && meta.cursor !== '') {
    const limit = typeof meta.limit === 'number' && Number.isInteger(meta.limit) && meta.limit > 0 ? meta.limit : undefined;
    const more = await cursorPages(ctx, client, path, { ...rest, cursor: meta.cursor, ...(limit ? { limit } : {}) }, headers, onResponse, { items: items.length, pages: 1, pageSize: limit ?? (items.length || undefined) });
    for (const item of more) items.push(item);
  }
  return items;
}

/**
 * Follows `meta.cursor` until a page has none, with the bounds of every cursor listing (see
 * observationPages): --max-pages, the listing size limit, a cursor handed out twice, the same page
 * under a new cursor, and a chain of (nearly) empty pages each stop with an error.
 */
async function cursorPages(
  ctx: Context,
  client: ApiClient,
  path: string,
  query: Query,
  headers: Record<string, string>,
  onResponse: OnResponse,
  after: { items: number; pages: number; pageSize?: number | undefined } = { items: 0, pages: 0 },
): Promise<unknown[]> {
  const { observationPages, retryOptions } = await import('./observations.js');
  const { errorForBadResponse } = await import('./http-error.js');
  const rest = { ...query };
  delete rest.cursor;
  const cursor = typeof query.cursor === 'string' && query.cursor !== '' ? query.cursor : null;
  const asked = Number(query.limit);
  const pageSize = Number.isInteger(asked) && asked > 0 ? asked : (after.pageSize ?? CURSOR_ROUTES[path] ?? 50);
  let first = after.pages === 0;
  const route = {
    path,
    noun: 'items',
    read(data: unknown, status: number) {
      const record = data as { data?: unknown; meta?: { cursor?: unknown } } | null;
      if (!Array.isArray(record?.data)) {
        if (first) throw new UsageError(`${path} is not a paged list (no data array in the answer); drop --paginate`);
        throw errorForBadResponse('GET', path, status, 'data: expected an array of items');
      }
      const next = record.meta?.cursor;
      if (next !== undefined && next !== null && typeof next !== 'string') throw errorForBadResponse('GET', path, status, `meta.cursor: expected a string, got ${typeof next}`);
      if (typeof next === 'string' && next.length > MAX_CURSOR_LENGTH) throw errorForBadResponse('GET', path, status, `meta.cursor: ${next.length} characters, more than any cursor (${MAX_CURSOR_LENGTH})`);
      first = false;
      return { items: record.data as Record<string, unknown>[], next: next || null };
    },
    hints: {
      tooManyPages: 'Raise the limit with --max-pages <n> if the listing really is that long, or narrow it with query parameters (-f name=value).',
      tooLarge: `Narrow the listing with query parameters (-f name=value), or raise the limit with LLMOBS_MAX_RESPONSE_MB (the listing may hold 8 times that).`,
      badPaging: 'The server pages incorrectly: narrow the query, or report it to the server\'s maintainers.',
    },
  };
  const items: unknown[] = [];
  const pages = observationPages(client, rest, { cursor, items: after.items, pages: after.pages }, {
    route,
    // A raw request shows what the server sent, repeats included.
    repeats: 'keep',
    headers,
    onResponse,
    ...retryOptions(ctx),
    pageSize,
    maxPages: Math.max(1, client.limits.maxPages - after.pages),
    maxBytes: client.limits.maxListingBytes,
  });
  // One by one: a spread of a very long page overflows the stack.
  for await (const page of pages) for (const item of page.items) items.push(item);
  return items;
}
