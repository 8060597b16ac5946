import { z } from 'zod';

export const PageMetaSchema = z.looseObject({
  page: z.number(),
  limit: z.number(),
  totalItems: z.number(),
  totalPages: z.number(),
});

export type PageMeta = z.infer<typeof PageMetaSchema>;

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export function pageSchema<T>(item: z.ZodType<T>): z.ZodType<Page<T>> {
  return z.looseObject({ data: z.array(item), meta: PageMetaSchema }) as unknown as z.ZodType<Page<T>>;
}
