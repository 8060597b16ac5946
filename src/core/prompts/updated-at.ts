// The prompts list's date filters (API.md 4.3): `fromUpdatedAt` (inclusive) and `toUpdatedAt`
// (exclusive) select prompt versions by their last update.
import { z } from 'zod';

export const UPDATED_AT_FORMAT = 'an ISO 8601 date and time with Z or an offset, such as 2026-05-01T00:00:00Z or 2026-05-01T09:30+02:00';

// A time to the minute, before its Z or offset.
const TO_THE_MINUTE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(Z|[+-]\d{2}:\d{2})$/;

/**
 * The server's `z.iso.datetime({ offset: true })`: a real calendar date, a time (fractions of a
 * second allowed), then `Z` or an offset with a colon. No date alone, no local time. Seconds may
 * be left out: zod's v4 API accepted that until a later release made them mandatory, and which
 * release a server runs is unknown, so llmobs does not refuse what a server may accept. The
 * value is kept as given. `message` replaces zod's "Invalid ISO datetime", the server's words.
 */
export function updatedAtSchema(message?: (input: unknown) => string) {
  const iso = message === undefined ? z.iso.datetime({ offset: true }) : z.iso.datetime({ offset: true, error: (issue) => message(issue.input) });
  return z.string().superRefine((value, check) => {
    const parsed = iso.safeParse(value.replace(TO_THE_MINUTE, '$1:00$2'));
    if (parsed.success) return;
    for (const issue of parsed.error.issues) check.addIssue({ ...issue, input: value } as Parameters<typeof check.addIssue>[0]);
  });
}
