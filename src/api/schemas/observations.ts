// Wire shape of GET /api/public/v2/observations (openapi.yml ObservationsV2Response): a page of
// observations and `meta.cursor`, absent on the last page. Only what paging, the tree and exports
// rely on is checked; every other field is kept as the server sent it.
import { z } from 'zod';

const nullableString = z.string().nullish();

export const ObservationV2Schema = z.looseObject({
  id: z.string(),
  traceId: nullableString,
  startTime: nullableString,
  type: nullableString,
  parentObservationId: nullableString,
});

/** The envelope; its items are checked by `observationIssues`. */
export const ObservationsV2PageSchema = z.looseObject({
  data: z.array(z.unknown()),
  meta: z.looseObject({ cursor: nullableString }),
});

const OPTIONAL_STRINGS = ['traceId', 'startTime', 'type', 'parentObservationId'] as const;

/**
 * The rules of ObservationV2Schema, checked by hand: an export checks every observation of every
 * page, and zod copies each object it checks, which costs as much again as parsing the page. Returns the first few problems as "path: message", like zod's issues; empty when fine.
 */
export function observationIssues(items: readonly unknown[], max = 3): string[] {
  const issues: string[] = [];
  for (let i = 0; i < items.length && issues.length < max; i++) {
    const item = items[i];
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      issues.push(`data.${i}: expected an object`);
      continue;
    }
    const record = item as Record<string, unknown>;
    if (typeof record.id !== 'string') issues.push(`data.${i}.id: expected a string`);
    for (const key of OPTIONAL_STRINGS) {
      const value = record[key];
      if (value !== undefined && value !== null && typeof value !== 'string') issues.push(`data.${i}.${key}: expected a string or null`);
    }
  }
  return issues.slice(0, max);
}
