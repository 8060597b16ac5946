// The time range of a cost report or a re-pricing: --month, or --from and --to (absolute, or
// relative to now such as 7d), each with how it is named in a cached answer's key.
import { UsageError } from '../../errors.js';
import { parseMonth, parseTime } from '../../core/time-range.js';

export interface Bound {
  time: Date;
  /** How the bound is named in the cache key: relative ones by what was typed. */
  key: string;
}

function bound(text: string, now: Date, flag: string): Bound {
  const parsed = parseTime(text, now);
  if (!parsed.ok) throw new UsageError(`${flag}: ${parsed.message}`);
  const relative = /^(now|\d+[mhdw])$/.test(text.trim());
  return { time: parsed.time, key: relative ? `rel:${text.trim()}` : parsed.time.toISOString() };
}

export function resolveRange(opts: { from?: string | undefined; to?: string | undefined; month?: string | undefined }, now: Date): { from: Bound; to: Bound } {
  if (opts.month !== undefined) {
    if (opts.from !== undefined || opts.to !== undefined) throw new UsageError('--month sets the whole range: drop --from and --to');
    const word = opts.month.trim();
    const y = now.getUTCFullYear();
    const m = now.getUTCMonth();
    const text = word === 'this' ? `${y}-${String(m + 1).padStart(2, '0')}` : word === 'last' ? new Date(Date.UTC(y, m - 1, 1)).toISOString().slice(0, 7) : word;
    const month = parseMonth(text);
    if (!month.ok) throw new UsageError(`--month: ${month.message.replace('(2026-05)', '(2026-05), this or last')}`);
    // The current month ends now: its remaining days hold nothing yet.
    const to = month.to.getTime() > now.getTime() ? { time: now, key: 'rel:now' } : { time: month.to, key: month.to.toISOString() };
    return { from: { time: month.from, key: month.from.toISOString() }, to };
  }
  const monthStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const from = opts.from !== undefined ? bound(opts.from, now, '--from') : { time: monthStart, key: monthStart.toISOString() };
  const to = opts.to !== undefined ? bound(opts.to, now, '--to') : { time: now, key: 'rel:now' };
  return { from, to };
}
