// Model definitions as GET /api/public/models lists them, for `models list --offline`, which
// lists the built-in catalogue without a server: in the server's order, one page at a time.
import { compareStrings } from '../order.js';
import type { ModelDefinition } from './types.js';

/** The API's default page size for model definitions. */
export const MODELS_PAGE_SIZE = 50;

/**
 * The server's order: ORDER BY model_name, unit, start_date DESC NULLS LAST, with null units last
 * too (Postgres sorts nulls last in ascending order). Postgres has no tie-break; the id makes
 * paging over equal keys stable. Text is compared by code unit, as the local server compares it.
 */
export function compareListOrder(a: Pick<ModelDefinition, 'id' | 'modelName' | 'unit' | 'startDate'>, b: Pick<ModelDefinition, 'id' | 'modelName' | 'unit' | 'startDate'>): number {
  const nullsLast = <T>(x: T | null, y: T | null, compare: (x: T, y: T) => number) => (x === null ? (y === null ? 0 : 1) : y === null ? -1 : compare(x, y));
  return (
    compareStrings(a.modelName, b.modelName) ||
    nullsLast(a.unit, b.unit, compareStrings) ||
    nullsLast(a.startDate, b.startDate, (x, y) => Date.parse(y) - Date.parse(x)) ||
    compareStrings(a.id, b.id)
  );
}

export interface ModelsPage<T> {
  data: T[];
  meta: { page: number; limit: number; totalItems: number; totalPages: number };
}

/** One page of `definitions` in the server's order: `page` from 1, `limit` items (default 50). */
export function modelsPage<T extends Pick<ModelDefinition, 'id' | 'modelName' | 'unit' | 'startDate'>>(definitions: readonly T[], request: { page?: number | undefined; limit?: number | undefined }): ModelsPage<T> {
  const page = request.page ?? 1;
  const limit = request.limit ?? MODELS_PAGE_SIZE;
  const sorted = [...definitions].sort(compareListOrder);
  const start = (page - 1) * limit;
  return { data: sorted.slice(start, start + limit), meta: { page, limit, totalItems: sorted.length, totalPages: Math.ceil(sorted.length / limit) } };
}
