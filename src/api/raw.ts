// Requests to any endpoint, for `llmobs api`: the path, fields and headers as given, every page of a
// listing, and the request as a curl command.
import { STATUS_CODES } from 'node:http';
import { z } from 'zod';
import { splitAssignment } from '../commands/options.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { parseJson, readTextInput } from '../io/files.js';
import type { ApiClient, Query } from './client.js';

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
export type Method = (typeof METHODS)[number];
const QUERY_METHODS = new Set(['GET', 'HEAD', 'DELETE']);
const method = z.string().transform((value) => value.toUpperCase()).pipe(z.enum(METHODS, { message: `must be one of ${METHODS.join(', ')}` }));

/** The options of `llmobs api`, as its run reads them. */
export const ApiOptions = z.object({
  method: method.optional(),
  path: z.string().min(1, 'needs an endpoint path, e.g. /api/public/models'),
  field: z.array(z.string()).default([]),
  typedField: z.array(z.string()).default([]),
  header: z.array(z.string()).default([]),
  input: z.string().optional(),
  paginate: z.boolean().default(false),
  include: z.boolean().default(false),
  silent: z.boolean().default(false),
  curl: z.boolean().default(false),
});

/** `api PATH`, `api METHOD PATH` and `api -X METHOD PATH` all work; two different methods do not. */
export function methodAndPath(first: string, second: string | undefined, flag: string | undefined): { method?: string; path: string } {
  if (second === undefined) {
    if ((METHODS as readonly string[]).includes(first.toUpperCase()) && !first.includes('/')) {
      throw new UsageError(`"${first}" is a method: the endpoint path is missing`, { hint: `For example: llmobs api ${first.toUpperCase()} /api/public/models` });
    }
    return { method: flag, path: first };
  }
  if (flag !== undefined && flag.toUpperCase() !== first.toUpperCase()) {
    throw new UsageError(`two methods given: ${first} and --method ${flag}`);
  }
  return { method: first, path: second };
}

export interface RawRequest {
  verb: Method;
  path: string;
  query: Query;
  body: unknown;
  headers: Record<string, string>;
}

/** The request `llmobs api` sends: its method, path, query, body and headers, checked. */
export async function buildRequest(ctx: Context, opts: z.infer<typeof ApiOptions>): Promise<RawRequest> {
  const { path, query: pathQuery } = normalisePath(opts.path);
  const headers = parseHeaders(ctx, opts.header);
  const fields: Array<[string, unknown]> = [
    ...opts.field.map((text) => splitAssignment(text, '--field')),
    ...(await Promise.all(opts.typedField.map(async (text) => typedField(ctx, text)))),
  ];
  // --paginate reads a listing: its fields are query parameters, as for -X GET.
  const verb: Method = opts.method ?? (opts.input !== undefined || (fields.length > 0 && !opts.paginate) ? 'POST' : 'GET');
  if (opts.paginate && verb !== 'GET') throw new UsageError('--paginate only works with GET');
  if (opts.paginate && opts.curl) throw new UsageError('--curl prints one request: drop --paginate');
  const cursorsInPath = pathQuery.cursor === undefined ? 0 : Array.isArray(pathQuery.cursor) ? pathQuery.cursor.length : 1;
  if (opts.paginate && fields.filter(([key]) => key === 'cursor').length + cursorsInPath > 1) {
    throw new UsageError('--paginate starts from one cursor: give cursor= once');
  }

  let body: unknown;
  const query: Query = { ...pathQuery };
  if (opts.input !== undefined) {
    body = parseJson(await readTextInput(ctx, opts.input), opts.input === '-' ? 'stdin' : opts.input);
    addAll(query, fields);
  } else if (QUERY_METHODS.has(verb)) {
    addAll(query, fields);
  } else if (fields.length) {
    const object: Record<string, unknown> = {};
    addAll(object, fields);
    body = object;
  }
  return { verb, path, query, body, headers };
}

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

/** `models` and `/models` mean `/api/public/models`; a full URL is refused (the server comes from the profile). */
export function normalisePath(raw: string): { path: string; query: Query } {
  if (/^[a-z]+:\/\//i.test(raw)) {
    throw new UsageError('pass a path such as /api/public/models; the server comes from the profile or --base-url');
  }
  const [pathPart = '', search = ''] = raw.split(/\?(.*)/s, 2);
  let path = pathPart.startsWith('/') ? pathPart : `/${pathPart}`;
  if (!path.startsWith('/api/')) path = `/api/public${path}`;
  const query: Query = {};
  const params = new URLSearchParams(search);
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    query[key] = values.length === 1 ? values[0] : values;
  }
  return { path, query };
}

/** `-H 'name: value'`; values of headers that carry credentials are never printed. */
function parseHeaders(ctx: Context, list: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const text of list) {
    const at = text.indexOf(':');
    const name = at > 0 ? text.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--header expects "name: value", got "${text}"`);
    const value = text.slice(at + 1).trim();
    if (isCredentialHeader(name)) {
      ctx.addSecret(value);
      // The token alone too: "Bearer sk-..." may show up without its scheme.
      for (const part of value.split(/\s+/)) ctx.addSecret(part);
    }
    headers[name.toLowerCase()] = value;
  }
  return headers;
}

function isCredentialHeader(name: string): boolean {
  return /^(authorization|proxy-authorization|cookie)$|key|token|secret/i.test(name);
}

async function typedField(ctx: Context, text: string): Promise<[string, unknown]> {
  const [key, raw] = splitAssignment(text, '--typed-field');
  if (raw.startsWith('@')) return [key, await readTextInput(ctx, raw.slice(1))];
  if (raw === 'true') return [key, true];
  if (raw === 'false') return [key, false];
  if (raw === 'null') return [key, null];
  if (/^-?\d+(\.\d+)?([eE][-+]?\d+)?$/.test(raw)) return [key, Number(raw)];
  if (/^[[{"]/.test(raw)) return [key, parseJson(raw, `--typed-field ${key}`)];
  return [key, raw];
}

/** Repeated keys become arrays, as in a query string. */
function addAll(target: Record<string, unknown>, fields: Array<[string, unknown]>): void {
  for (const [key, value] of fields) {
    const current = target[key];
    if (current === undefined) target[key] = value;
    else target[key] = Array.isArray(current) ? [...current, value] : [current, value];
  }
}

export function statusAndHeaders(status: number, headers: Record<string, string | string[] | undefined>): string {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) lines.push(`${name}: ${item}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/**
 * The request as a curl command. Credentials are never printed: they come from the environment
 * variables llmobs reads too, so the command runs as it is where those are set.
 */
export function curlCommand(client: ApiClient, verb: string, path: string, query: Query, body: unknown, headers: Record<string, string>): string {
  const parts = ['curl', '--request', verb, quote(client.url(path, query))];
  const auth = client.config.auth;
  const own = new Set(Object.keys(headers));
  if (!own.has('authorization')) {
    if (auth.type === 'basic') parts.push('--user', '"$LANGFUSE_PUBLIC_KEY:$LANGFUSE_SECRET_KEY"');
    if (auth.type === 'bearer') parts.push('--header', '"Authorization: Bearer $LLMOBS_API_KEY"');
  }
  parts.push('--header', quote('accept: application/json'));
  if (body !== undefined) parts.push('--header', quote('content-type: application/json'));
  for (const [name, value] of Object.entries(headers)) parts.push('--header', quote(`${name}: ${isCredentialHeader(name) ? '<redacted>' : value}`));
  if (body !== undefined) parts.push('--data', quote(JSON.stringify(body)));
  return parts.join(' ');
}

export function curlHint(client: ApiClient): string {
  const auth = client.config.auth;
  if (auth.type === 'basic') return 'Nothing was sent. The keys are not printed: set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY before running it.';
  if (auth.type === 'bearer') return 'Nothing was sent. The key is not printed: set LLMOBS_API_KEY before running it.';
  return 'Nothing was sent.';
}

function quote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** For a 404 on a prompt path whose name was written with a plain "/": the same path with %2F. */
export function encodedPromptPath(path: string): string | undefined {
  const match = /^\/api\/public\/v2\/prompts\/(.+?)(\/versions\/[^/]+)?$/.exec(path);
  if (!match?.[1] || !match[1].includes('/')) return undefined;
  return `/api/public/v2/prompts/${match[1].split('/').join('%2F')}${match[2] ?? ''}`;
}
