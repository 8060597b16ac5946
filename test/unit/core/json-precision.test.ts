// The service's parseJsonPrioritised keeps numbers a double would round as their source digits
// (packages/shared/src/utils/json.ts `parsePreservingPrecision`, lossless-json's isSafeNumber);
// the expected answers are those of its tests (packages/shared/src/utils/json.test.ts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSafeNumberText, parseJsonKeepingPrecision } from '../../../src/core/json-precision.js';

describe('parseJsonKeepingPrecision', () => {
  it('keeps a 13+ digit integer that a double holds as a number', () => {
    expect(parseJsonKeepingPrecision('{"ts": 1721001600000}')).toEqual({ ts: 1721001600000 });
  });

  it('resolves safe scientific notation to a number and keeps an overflow exact', () => {
    expect(parseJsonKeepingPrecision('{"a": 1e3}')).toEqual({ a: 1000 });
    expect(parseJsonKeepingPrecision('{"a": 1e500}')).toEqual({ a: '1e500' });
  });

  it('keeps integers past 2^53 and decimals with more digits than a double as their text', () => {
    expect(parseJsonKeepingPrecision('{"id": 12345678901234567890, "n": [9007199254740993, 5]}')).toEqual({ id: '12345678901234567890', n: ['9007199254740993', 5] });
    expect(parseJsonKeepingPrecision('{"pi": 3.14159265358979323846}')).toEqual({ pi: '3.14159265358979323846' });
    expect(parseJsonKeepingPrecision('12345678901234567890')).toBe('12345678901234567890');
  });

  it('leaves digits inside strings alone, escaped quotes included', () => {
    expect(parseJsonKeepingPrecision('{"blob": "aGVsbG8e9wORLD3e", "at": "2026-07-15T12:00:00.123456Z", "n": 5}')).toEqual({ blob: 'aGVsbG8e9wORLD3e', at: '2026-07-15T12:00:00.123456Z', n: 5 });
    expect(parseJsonKeepingPrecision('["a\\"12345678901234567890\\\\", 12345678901234567890]')).toEqual(['a"12345678901234567890\\', '12345678901234567890']);
  });

  it('keeps the last of duplicate keys, as JSON.parse does', () => {
    expect(parseJsonKeepingPrecision('{"a": 1, "a": 9223372036854775807}')).toEqual({ a: '9223372036854775807' });
  });

  it('throws on text that is not JSON, as JSON.parse does', () => {
    expect(() => parseJsonKeepingPrecision('{nope 12345678901234567890')).toThrow(SyntaxError);
  });

  it('equals JSON.parse on any JSON whose numbers a double holds', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseJsonKeepingPrecision(text)).toEqual(JSON.parse(text));
      }),
    );
  });
});

describe('isSafeNumberText', () => {
  it.each([
    ['1721001600000', true],
    ['9007199254740991', true],
    ['9007199254740993', false],
    ['0.1', true],
    ['1.50', true],
    ['-0', true],
    ['1e500', false],
    ['2.5e-400', false],
    ['0.30000000000000004', true],
    ['0.300000000000000041', false],
  ])('%s: %s', (text, safe) => {
    expect(isSafeNumberText(text)).toBe(safe);
  });
});
