// Time buckets as ClickHouse prints them (date_time_output_format=iso), and `auto`'s choice.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bucket, granularityFor, nextBucket } from '../../../../src/core/metrics/time-buckets.js';

const GRANULARITIES = ['minute', 'hour', 'day', 'week', 'month'] as const;
const asTime = (b: string) => Date.parse(b.length === 10 ? `${b}T00:00:00Z` : b);

describe('time buckets', () => {
  it('prints minutes and hours as times, days, weeks (from Monday) and months as dates', () => {
    const t = '2026-03-05T10:42:17.123Z'; // a Thursday
    expect(GRANULARITIES.map((g) => bucket(t, g))).toEqual(['2026-03-05T10:42:00Z', '2026-03-05T10:00:00Z', '2026-03-05', '2026-03-02', '2026-03-01']);
    expect(nextBucket('2026-12-01', 'month')).toBe('2027-01-01');
    expect(nextBucket('2026-03-01T23:59:00Z', 'minute')).toBe('2026-03-02T00:00:00Z');
  });

  it('picks the granularity of `auto` from the length of the range', () => {
    const from = '2026-01-01T00:00:00Z';
    const after = (hours: number) => new Date(Date.parse(from) + hours * 3_600_000).toISOString();
    expect([1, 2, 71, 72, 1439, 1440, 8759, 8760].map((h) => granularityFor(from, after(h)))).toEqual(['minute', 'hour', 'hour', 'day', 'day', 'week', 'week', 'month']);
  });

  it('puts a time in the bucket that starts at or before it and ends after it; a bucket is its own bucket', () => {
    const time = fc.integer({ min: Date.UTC(1970, 0, 5), max: Date.UTC(2200, 0, 1) }).map((ms) => new Date(ms).toISOString());
    fc.assert(
      fc.property(time, fc.constantFrom(...GRANULARITIES), (iso, granularity) => {
        const b = bucket(iso, granularity);
        const next = nextBucket(b, granularity);
        expect(asTime(b)).toBeLessThanOrEqual(Date.parse(iso));
        expect(asTime(next)).toBeGreaterThan(Date.parse(iso));
        expect(bucket(new Date(asTime(b)).toISOString(), granularity)).toBe(b);
        expect(bucket(new Date(asTime(next) - 1).toISOString(), granularity)).toBe(b);
      }),
    );
  });
});
