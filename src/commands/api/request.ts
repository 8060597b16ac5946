// The request llmobs api sends: the method and path as given (a short path means /api/public/...),
// -f and -F fields as query parameters or a JSON body, --input as the body, -H headers (credential
// values kept out of every printed text), all checked before anything is sent.
import { z } from 'zod';
import type { Query } from '../../api/client.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseJson, readTextInput } from '../../io/files.js';
import { splitAssignment } from '../options.js';
import { METHODS, type Method } from './methods.js';

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

/** Headers whose values are credentials: never printed. */
export function isCredentialHeader(name: string): boolean {
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
