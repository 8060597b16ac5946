// The prompts list's date filters (API.md 4.3): `fromUpdatedAt` (inclusive) and `toUpdatedAt`
// (exclusive) select prompt versions by their last update.
import { z } from 'zod';

export const UPDATED_AT_FORMAT = 'an ISO 8601 date and time with seconds and Z or an offset, such as 2026-05-01T00:00:00Z or 2026-05-01T09:30:00+02:00';

/**
 * The server's `z.iso.datetime({ offset: true })`: a real calendar date, a time with seconds
 * (fractions allowed), then `Z` or an offset with a colon. No date alone, no local time.
 * `message` replaces zod's "Invalid ISO datetime", which is what the server says.
 */
export function updatedAtSchema(message?: (input: unknown) => string) {
  return message === undefined ? z.iso.datetime({ offset: true }) : z.iso.datetime({ offset: true, error: (issue) => message(issue.input) });
}
