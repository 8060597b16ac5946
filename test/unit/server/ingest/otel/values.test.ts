// Span times as Langfuse's OTel processor converts them (OtelIngestionProcessor.convertNanoTimestampToISO
// and resolveSpanTimestamps in packages/shared/src/server/otel/OtelIngestionProcessor.ts): no range
// check and no clamp; a value that does not convert is no time, and the other edge (or now) stands in.
import { describe, expect, it } from 'vitest';
import { nanoToIso, spanTimes } from '../../../../../src/server/ingest/otel/values.js';

describe('nanoToIso', () => {
  it('reads the three encodings of int64, cut to milliseconds', () => {
    expect(nanoToIso('1772366400123456789')).toBe('2026-03-01T12:00:00.123Z');
    expect(nanoToIso(1772366400123456789)).toBe('2026-03-01T12:00:00.123Z');
    // The {low, high} shape of Langfuse's otel-api.servertest.ts.
    expect(nanoToIso({ low: 466848096, high: 406528574, unsigned: true })).toBe('2025-04-30T15:28:50.686Z');
  });

  it('gives negative times as the service does: a string divides as BigInt, toward zero', () => {
    expect(nanoToIso('-5')).toBe('1970-01-01T00:00:00.000Z');
    expect(nanoToIso(-5)).toBe('1970-01-01T00:00:00.000Z');
    expect(nanoToIso('-1000000000000000000')).toBe('1938-04-24T22:13:20.000Z');
  });

  it('gives no time for what BigInt or Date refuse', () => {
    for (const value of ['', '  ', 'abc', '1.5e18', '99999999999999999999999', 1e30, Number.NaN, Number.POSITIVE_INFINITY, true, {}, { high: '1', low: 0 }, null, undefined]) {
      expect(nanoToIso(value), String(value)).toBeUndefined();
    }
  });

  it('keeps a Date past year 9999 in its extended ISO form (the ingestion schema refuses it later)', () => {
    expect(nanoToIso(1e21)).toBe('+033658-09-27T01:46:40.000Z');
  });
});

describe('spanTimes', () => {
  const now = new Date('2026-03-01T12:00:00.000Z');
  const end = '1772366401000000000';

  it('takes the other edge for a missing one, and now for both', () => {
    expect(spanTimes('abc', end, now)).toEqual({ startTimeISO: '2026-03-01T12:00:01.000Z', endTimeISO: '2026-03-01T12:00:01.000Z' });
    expect(spanTimes(end, undefined, now)).toEqual({ startTimeISO: '2026-03-01T12:00:01.000Z', endTimeISO: '2026-03-01T12:00:01.000Z' });
    expect(spanTimes('abc', 'def', now)).toEqual({ startTimeISO: '2026-03-01T12:00:00.000Z', endTimeISO: '2026-03-01T12:00:00.000Z' });
  });

  it('keeps a start after the end, or before 1970, as it converts', () => {
    expect(spanTimes('-5', end, now).startTimeISO).toBe('1970-01-01T00:00:00.000Z');
    expect(spanTimes('1772366402000000000', end, now)).toEqual({ startTimeISO: '2026-03-01T12:00:02.000Z', endTimeISO: '2026-03-01T12:00:01.000Z' });
  });
});
