// The options of cost report and cost recompute, checked before anything is read or sent.
import { z } from 'zod';
import { UsageError } from '../../errors.js';
import { OBSERVATION_TYPES } from '../observations/filter-flags.js';
import { filterShape, wholeNumber } from '../observations/filters.js';

/** An amount in USD as people write it: 100, $12.50, 1,000 or 1_000. */
const usd = z
  .string()
  .transform((text) => text.trim().replace(/^\$/, '').replace(/_/g, ''))
  // 1,000 or 12,500.50; a comma anywhere else (1,5) may be a decimal comma: refused, not guessed.
  .transform((text) => (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(text) ? text.replace(/,/g, '') : text))
  .pipe(z.string().regex(/^\d+(\.\d+)?$/, 'must be an amount in USD, such as 100 or 12.50').transform(Number));

export const ReportOptions = z.object({
  from: z.string().optional(),
  to: z.string().optional(),
  month: z.string().optional(),
  by: z.array(z.string()).optional(),
  type: z.array(z.enum(OBSERVATION_TYPES, { error: `must be one of ${OBSERVATION_TYPES.join(', ')}` })).optional(),
  environment: z.array(z.string().min(1, 'must not be empty')).optional(),
  budget: usd.optional(),
  cache: z.boolean().default(true),
});

/** The options of cost recompute; --from and --to stay text (see range.ts: a month or a range). */
export function recomputeOptions(now: Date) {
  const { from: _from, to: _to, ...filters } = filterShape(now);
  return z.object({
    ...filters,
    input: z.string().min(1, 'must not be empty').optional(),
    from: z.string().optional(),
    to: z.string().optional(),
    month: z.string().optional(),
    limit: wholeNumber(1).optional(),
    modelsFile: z.string().min(1).optional(),
    offline: z.boolean().default(false),
    remote: z.boolean().default(false),
    ignoreStartDates: z.boolean().default(false),
    output: z.string().min(1, 'must not be empty').optional(),
  });
}

export type RecomputeOptions = z.infer<ReturnType<typeof recomputeOptions>>;

/** The options that pick generations on the server: --input reads a whole file instead. */
const SERVER_ONLY = ['from', 'to', 'month', 'limit', 'type', 'name', 'trace', 'user', 'session', 'environment', 'level', 'version'] as const;

export function refuseServerFilters(opts: RecomputeOptions): void {
  const given = SERVER_ONLY.filter((key) => opts[key] !== undefined);
  if (given.length) throw new UsageError(`--input reads every generation in the file; ${given.map((k) => `--${k}`).join(', ')} select generations on the server: drop ${given.length === 1 ? 'it' : 'them'} (or filter when exporting)`);
}
