// Times given on the command line for data queries (--from, --to, --month). A time must say which
// moment it is: an ISO 8601 date and time with Z or an offset, a date (midnight UTC), a duration
// back from now (30m, 24h, 7d, 2w), or `now`. A local time without an offset is refused: the same
// command would select different data on machines in different time zones.

export const TIME_FORMAT = 'an ISO 8601 time with Z or an offset (2026-05-01T00:00:00Z), a date (2026-05-01, midnight UTC), a duration back from now (30m, 24h, 7d, 2w) or now';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}:?\d{2})$/;
const RELATIVE = /^(\d{1,6})(m|h|d|w)$/;
const MONTH = /^(\d{4})-(\d{2})$/;
const UNIT_MS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

export type TimeParse = { ok: true; time: Date } | { ok: false; message: string };

function validDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

export function parseTime(text: string, now: Date): TimeParse {
  const value = text.trim();
  const fail = (why = `must be ${TIME_FORMAT}`): TimeParse => ({ ok: false, message: `${why}, not ${JSON.stringify(text)}` });
  if (value === 'now') return { ok: true, time: new Date(now.getTime()) };
  const relative = RELATIVE.exec(value);
  if (relative) return { ok: true, time: new Date(now.getTime() - Number(relative[1]) * UNIT_MS[relative[2]!]!) };
  const date = DATE.exec(value);
  if (date) {
    const [y, m, d] = [Number(date[1]), Number(date[2]), Number(date[3])];
    if (!validDate(y, m, d)) return fail('is not a calendar date');
    return { ok: true, time: new Date(Date.UTC(y, m - 1, d)) };
  }
  const full = DATE_TIME.exec(value);
  if (full) {
    if (!validDate(Number(full[1]), Number(full[2]), Number(full[3]))) return fail('is not a calendar date');
    if (Number(full[4]) > 23 || Number(full[5]) > 59 || Number(full[6] ?? 0) > 59) return fail('is not a valid time of day');
    const ms = Date.parse(value.replace(' ', 'T').replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
    if (Number.isNaN(ms)) return fail();
    return { ok: true, time: new Date(ms) };
  }
  if (/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(value)) return fail('has no Z or offset (a local time means different moments on different machines)');
  return fail();
}

/** The month `YYYY-MM` as [first instant, first instant of the next month), in UTC. */
export function parseMonth(text: string): { ok: true; from: Date; to: Date } | { ok: false; message: string } {
  const m = MONTH.exec(text.trim());
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return { ok: false, message: `must be a month as YYYY-MM (2026-05), not ${JSON.stringify(text)}` };
  const year = Number(m[1]);
  const month = Number(m[2]) - 1;
  return { ok: true, from: new Date(Date.UTC(year, month, 1)), to: new Date(Date.UTC(year, month + 1, 1)) };
}

/** `2026-05-01T00:00:00.000Z`: the form Langfuse's own clients send. */
export function isoTime(date: Date): string {
  return date.toISOString();
}
