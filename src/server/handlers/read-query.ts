// Query parameters of the read API, checked the way the service's zod schemas check them
// (web/src/features/public-api/types/*.ts): a refused parameter is a 400 "Invalid request data".
import { z } from 'zod';
import { invalidRequestData, zodIssues } from '../http/errors.js';
import { queryObject } from './prompt-body.js';

/** `publicApiPaginationZod`: page > 0 (default 1), limit 1..100 (default 50); "" counts as unset. */
export const PAGE = z.preprocess((x) => (x === '' ? undefined : x), z.coerce.number().int().gt(0).default(1));
export const LIMIT = z.preprocess((x) => (x === '' ? undefined : x), z.coerce.number().int().gte(1).lte(100).default(50));

/** An ISO date-time with Z or an offset, as UTC ISO text with milliseconds (how the store keeps times). */
export const DATE_TIME = z.iso
  .datetime({ offset: true })
  .nullish()
  .transform((value) => (value ? new Date(value).toISOString() : undefined));

/**
 * A parameter that may repeat (`environment=a&environment=b`). Given once, it is a comma list, as
 * the service splits it (public-api-filter-builder.ts convertApiProvidedFilterToClickhouseFilter).
 */
export const ONE_OR_MANY = z
  .union([z.array(z.string()), z.string()])
  .nullish()
  .transform((value) => (value === null || value === undefined ? undefined : Array.isArray(value) ? value : value.split(',')));

/** A comma list of known values; unknown ones are dropped; none left means "not given". */
export function fieldGroups<T extends string>(groups: readonly T[]) {
  return z
    .string()
    .nullish()
    .transform((value) => {
      if (!value) return null;
      const picked = value
        .split(',')
        .map((item) => item.trim())
        .filter((item): item is T => (groups as readonly string[]).includes(item));
      return picked.length ? picked : null;
    });
}

/** A comma list of strings; empty means "not given". */
export const COMMA_LIST = z
  .string()
  .nullish()
  .transform((value) => {
    const items = (value ?? '')
      .split(',')
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    return items.length ? items : undefined;
  });

/** Parses a query string with a schema; throws the server's 400 answer. */
export function parseQuery<T extends z.ZodType>(schema: T, query: URLSearchParams): z.output<T> {
  const parsed = schema.safeParse(queryObject(query));
  if (!parsed.success) throw invalidRequestData(zodIssues(parsed.error.issues as never));
  return parsed.data;
}

/** Parses a body with a schema; throws the server's 400 answer. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw invalidRequestData(zodIssues(parsed.error.issues as never));
  return parsed.data;
}
