// Options shared by the commands that read observations (list, export, cost recompute): the v2
// API's filters, validated before anything is sent, and turned into its query parameters.
import { z } from 'zod';
import type { Query } from '../../api/client.js';
import { parseTime } from '../../core/time-range.js';
import { formatInteger } from '../../core/thousands.js';
import { FORMATS } from '../../core/observations/writer.js';
import { LEVELS, OBSERVATION_TYPES } from './filter-flags.js';

/** A time flag (see TIME_FORMAT in core/time-range.ts), read against the context's clock. */
export function timeOption(now: Date) {
  return z.string().transform((text, check) => {
    const parsed = parseTime(text, now);
    if (parsed.ok) return parsed.time;
    check.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  });
}

export function wholeNumber(min: number, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${formatInteger(max)}`));
}

const nonEmpty = z.string().min(1, 'must not be empty');

export function filterShape(now: Date) {
  return {
    type: z.enum(OBSERVATION_TYPES, { error: `must be one of ${OBSERVATION_TYPES.join(', ')}` }).optional(),
    name: nonEmpty.optional(),
    trace: nonEmpty.optional(),
    user: nonEmpty.optional(),
    session: nonEmpty.optional(),
    environment: z.array(nonEmpty).optional(),
    level: z.enum(LEVELS, { error: `must be one of ${LEVELS.join(', ')}` }).optional(),
    version: nonEmpty.optional(),
    from: timeOption(now).optional(),
    to: timeOption(now).optional(),
  };
}

/** The options of a command that writes observations out: which fields, in which format, where. */
export const outputShape = {
  fields: z.array(z.string()).optional(),
  format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional(),
  output: nonEmpty.optional(),
};

export interface ObservationFilters {
  type?: string | undefined;
  name?: string | undefined;
  trace?: string | undefined;
  user?: string | undefined;
  session?: string | undefined;
  environment?: string[] | undefined;
  level?: string | undefined;
  version?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

/** The time window check every filtered command makes before sending anything. */
export function checkWindow(filters: { from?: Date | undefined; to?: Date | undefined }, check: z.core.$RefinementCtx): void {
  if (filters.from && filters.to && filters.from.getTime() >= filters.to.getTime()) {
    check.addIssue({ code: 'custom', message: `--from (${filters.from.toISOString()}) must be earlier than --to (${filters.to.toISOString()}): --from is inclusive and --to exclusive, so nothing could match` });
  }
}

export function observationQuery(filters: ObservationFilters): Query {
  return {
    type: filters.type,
    name: filters.name,
    traceId: filters.trace,
    userId: filters.user,
    sessionId: filters.session,
    environment: filters.environment,
    level: filters.level,
    version: filters.version,
    fromStartTime: filters.from?.toISOString(),
    toStartTime: filters.to?.toISOString(),
  };
}
