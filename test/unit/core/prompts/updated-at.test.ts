// The prompts list's date filters: what the server's z.iso.datetime({ offset: true }) accepts, and
// the flags' checks before anything is sent.
import { describe, expect, it } from 'vitest';
import { updatedAtSchema } from '../../../../src/core/prompts/updated-at.js';

describe('updatedAtSchema', () => {
  it.each(['2026-05-01T00:00:00Z', '2026-05-01T00:00Z', '2026-05-01T09:30+02:00', '2026-05-01T09:30:00+02:00', '2026-05-01T09:30:00-05:30', '2026-05-01T00:00:00.123Z', '2026-05-01T00:00:00.123456+00:00', '2024-02-29T23:59:59Z'])(
    'accepts %s',
    (text) => {
      expect(updatedAtSchema().safeParse(text).success).toBe(true);
    },
  );

  it.each([
    ['2026-05-01', 'a date alone'],
    ['2026-05-01T00:00:00', 'a local time'],
    ['2026-05-01T00Z', 'no minutes'],
    ['2026-02-30T00:00Z', 'a day the month does not have, to the minute'],
    ['2026-05-01T00:60Z', 'minute 60'],
    ['2026-05-01T00:00:00+0200', 'an offset without a colon'],
    ['2026-05-01 00:00:00Z', 'a space for T'],
    ['2026-05-01t00:00:00z', 'lower case'],
    ['2026-02-30T00:00:00Z', 'a day the month does not have'],
    ['2026-05-01T24:00:00Z', 'hour 24'],
    ['1714521600', 'a Unix time'],
  ])('refuses %s (%s) with the server\'s message', (text) => {
    const parsed = updatedAtSchema().safeParse(text);
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues[0]).toMatchObject({ code: 'invalid_format', format: 'datetime', message: 'Invalid ISO datetime' });
  });
});
