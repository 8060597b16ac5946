// GET /api/public/v3/scores as a cursor-paged route for the page walker of api/observations.ts:
// pages of up to 100, `meta.cursor` to the next. A page whose items are not objects with an id is
// asked for again, then refused.
import { z } from 'zod';
import type { CursorRoute } from './observations.js';
import { errorForBadResponse } from './http-error.js';

export const SCORES_V3_PATH = '/api/public/v3/scores';
/** The largest page the v3 scores API serves. */
export const SCORE_PAGE_LIMIT = 100;

const PageSchema = z.looseObject({
  data: z.array(z.looseObject({ id: z.string(), timestamp: z.string() })),
  meta: z.looseObject({ cursor: z.string().nullable().optional() }),
});

export const SCORES_V3_ROUTE: CursorRoute = {
  path: SCORES_V3_PATH,
  noun: 'scores',
  read(data, status) {
    const parsed = PageSchema.safeParse(data);
    if (!parsed.success) throw errorForBadResponse('GET', SCORES_V3_PATH, status, parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(body)'}: ${issue.message}`).join('; '));
    return { items: parsed.data.data as Record<string, unknown>[], next: parsed.data.meta.cursor || null };
  },
  hints: {
    tooManyPages: 'Export a shorter window (--interval).',
    tooLarge: 'Export a shorter window (--interval).',
    badPaging: 'The server pages its scores incorrectly; report it to its maintainers.',
  },
};
