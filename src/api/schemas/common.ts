import { z } from 'zod';
import { lenientNumber } from '../../core/numbers.js';

/** A count that some servers (ClickHouse-backed views) send as a numeric string. */
const count = z.union([z.number(), z.string()]).transform((value, ctx) => {
  const n = lenientNumber(value);
  if (n === null) ctx.addIssue({ code: 'custom', message: `expected a number, received "${String(value).slice(0, 40)}"` });
  return n ?? 0;
});

export const PageMetaSchema = z.looseObject({
  page: count,
  limit: count,
  totalItems: count,
  totalPages: count,
});

export type PageMeta = z.infer<typeof PageMetaSchema>;

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export function pageSchema<T>(item: z.ZodType<T>): z.ZodType<Page<T>> {
  return z.looseObject({ data: z.array(item), meta: PageMetaSchema }) as unknown as z.ZodType<Page<T>>;
}
