// Query and body checks shared by handlers, answering as the server's zod schemas do.
import { type Issue, invalidRequestData } from '../http/errors.js';

export interface Pagination {
  page: number;
  limit: number;
}

/** `page` (> 0, default 1) and `limit` (1..100) as in publicApiPaginationZod; "" counts as unset. */
export function parsePagination(query: URLSearchParams, defaultLimit = 50): Pagination {
  const issues: Issue[] = [];
  const read = (name: string, fallback: number, min: number, max: number): number => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value)) {
      issues.push({ code: 'invalid_type', expected: 'int', path: [name], message: `Invalid input: expected int, received ${JSON.stringify(raw)}` });
      return fallback;
    }
    if (value < min) issues.push({ code: 'too_small', minimum: min, origin: 'number', inclusive: true, path: [name], message: `Too small: expected number to be >=${min}` });
    if (value > max) issues.push({ code: 'too_big', maximum: max, origin: 'number', inclusive: true, path: [name], message: `Too big: expected number to be <=${max}` });
    return value;
  };
  const page = read('page', 1, 1, Number.MAX_SAFE_INTEGER);
  const limit = read('limit', defaultLimit, 1, 100);
  if (issues.length) throw invalidRequestData(issues);
  return { page, limit };
}

export function pageMeta(pagination: Pagination, totalItems: number) {
  return {
    page: pagination.page,
    limit: pagination.limit,
    totalItems,
    totalPages: Math.ceil(totalItems / pagination.limit),
  };
}

export function paginate<T>(items: readonly T[], pagination: Pagination): T[] {
  const start = (pagination.page - 1) * pagination.limit;
  return items.slice(start, start + pagination.limit);
}
