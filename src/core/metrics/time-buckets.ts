// The time dimension's buckets, as ClickHouse prints them with date_time_output_format=iso:
// minutes and hours as times ("2026-03-01T10:00:00Z"), days, weeks (from Monday) and months as
// dates ("2026-03-01"). `auto` picks the granularity from the length of the range.

export type Granularity = 'minute' | 'hour' | 'day' | 'week' | 'month';

export function granularityFor(from: string, to: string): Granularity {
  const hours = (Date.parse(to) - Date.parse(from)) / 3_600_000;
  if (hours < 2) return 'minute';
  if (hours < 72) return 'hour';
  if (hours < 1440) return 'day';
  if (hours < 8760) return 'week';
  return 'month';
}

/** The bucket of a time. */
export function bucket(iso: string, granularity: Granularity): string {
  const d = new Date(iso);
  const date = (x: Date) => x.toISOString().slice(0, 10);
  switch (granularity) {
    case 'minute':
      return `${d.toISOString().slice(0, 16)}:00Z`;
    case 'hour':
      return `${d.toISOString().slice(0, 13)}:00:00Z`;
    case 'day':
      return date(d);
    case 'week': {
      const monday = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - ((d.getUTCDay() + 6) % 7)));
      return date(monday);
    }
    case 'month':
      return `${d.toISOString().slice(0, 7)}-01`;
  }
}

/** The bucket after this one. */
export function nextBucket(value: string, granularity: Granularity): string {
  const d = new Date(value.length === 10 ? `${value}T00:00:00Z` : value);
  if (granularity === 'minute') d.setUTCMinutes(d.getUTCMinutes() + 1);
  else if (granularity === 'hour') d.setUTCHours(d.getUTCHours() + 1);
  else if (granularity === 'day') d.setUTCDate(d.getUTCDate() + 1);
  else if (granularity === 'week') d.setUTCDate(d.getUTCDate() + 7);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return bucket(d.toISOString(), granularity);
}
