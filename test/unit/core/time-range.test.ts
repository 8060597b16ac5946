import { describe, expect, it } from 'vitest';
import { parseMonth, parseTime } from '../../../src/core/time-range.js';

describe('times', () => {
  const now = new Date('2026-05-20T12:34:56.000Z');
  const ok = (text: string) => {
    const parsed = parseTime(text, now);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.time.toISOString();
  };

  it('takes ISO times with a zone, dates as midnight UTC, durations back from now, and now', () => {
    expect(ok('2026-05-01T00:00:00Z')).toBe('2026-05-01T00:00:00.000Z');
    expect(ok('2026-05-01T09:30+02:00')).toBe('2026-05-01T07:30:00.000Z');
    expect(ok('2026-05-01T09:30:15.250+0200')).toBe('2026-05-01T07:30:15.250Z');
    expect(ok('2026-05-01')).toBe('2026-05-01T00:00:00.000Z');
    expect(ok('24h')).toBe('2026-05-19T12:34:56.000Z');
    expect(ok('7d')).toBe('2026-05-13T12:34:56.000Z');
    expect(ok('30m')).toBe('2026-05-20T12:04:56.000Z');
    expect(ok('2w')).toBe('2026-05-06T12:34:56.000Z');
    expect(ok('now')).toBe('2026-05-20T12:34:56.000Z');
  });

  it('refuses local times, impossible dates and other text, saying why', () => {
    const fail = (text: string) => {
      const parsed = parseTime(text, now);
      expect(parsed.ok).toBe(false);
      return parsed.ok ? '' : parsed.message;
    };
    expect(fail('2026-05-01T09:30')).toContain('no Z or offset');
    expect(fail('2026-02-30')).toContain('not a calendar date');
    expect(fail('2026-05-01T25:00Z')).toContain('not a valid time');
    expect(fail('yesterday')).toContain('ISO 8601');
    expect(fail('7days')).toContain('"7days"');
  });

  it('reads a month as [first instant, first instant of the next)', () => {
    const month = parseMonth('2026-12');
    expect(month.ok && [month.from.toISOString(), month.to.toISOString()]).toEqual(['2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z']);
    expect(parseMonth('2026-13').ok).toBe(false);
    expect(parseMonth('May').ok).toBe(false);
  });
});
