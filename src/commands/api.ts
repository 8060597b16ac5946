import { z } from 'zod';
import type { ApiClient, Query } from '../api/client.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { parseJson, readTextInput } from '../io/files.js';
import type { ActionInput } from './action.js';
import { parseOptions, splitAssignment } from './options.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'] as const;
const QUERY_METHODS = new Set(['GET', 'HEAD', 'DELETE']);

const Options = z.object({
  method: z.string().transform((value) => value.toUpperCase()).pipe(z.enum(METHODS, { message: `must be one of ${METHODS.join(', ')}` })),
  path: z.string().min(1),
  field: z.array(z.string()).default([]),
  typedField: z.array(z.string()).default([]),
  input: z.string().optional(),
  paginate: z.boolean().default(false),
});

type Options = z.infer<typeof Options>;

export default async function action(ctx: Context, { args, opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(Options, { ...opts, method: args[0], path: args[1] }));
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  const { path, query: pathQuery } = normalisePath(opts.path);
  const fields: Array<[string, unknown]> = [
    ...opts.field.map((text) => splitAssignment(text, '--field')),
    ...(await Promise.all(opts.typedField.map(async (text) => typedField(ctx, text)))),
  ];
  if (opts.paginate && opts.method !== 'GET') throw new UsageError('--paginate only works with GET');

  let body: unknown;
  const query: Query = { ...pathQuery };
  if (opts.input !== undefined) {
    body = parseJson(await readTextInput(ctx, opts.input), opts.input === '-' ? 'stdin' : opts.input);
    addAll(query, fields);
  } else if (QUERY_METHODS.has(opts.method)) {
    addAll(query, fields);
  } else if (fields.length) {
    const object: Record<string, unknown> = {};
    addAll(object, fields);
    body = object;
  }

  const client = await ctx.api();
  if (opts.paginate) {
    ctx.out.printJson(await allPages(client, path, query));
    return;
  }
  const response = await client.request(opts.method, path, { query, body });
  if (response.data !== undefined) ctx.out.printJson(response.data);
}

async function allPages(client: ApiClient, path: string, query: Query): Promise<unknown[]> {
  const start = Number(query.page ?? 1);
  const rest = { ...query };
  delete rest.page;
  return client.collectPages(
    path,
    rest,
    (data) => {
      const record = data as { data?: unknown; meta?: { totalPages?: unknown; limit?: unknown } };
      if (!Array.isArray(record?.data)) {
        throw new UsageError(`${path} is not a page-based list (no data array in the answer); drop --paginate`);
      }
      const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
      return { items: record.data as unknown[], totalPages: number(record.meta?.totalPages), limit: number(record.meta?.limit) };
    },
    { startPage: Number.isInteger(start) && start > 0 ? start : 1 },
  );
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
