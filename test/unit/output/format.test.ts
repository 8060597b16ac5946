// Every dollar amount llmobs prints comes from formatUsd: the same sign, zero, grouping and
// missing-value rules in every style; the styles differ only in the decimals they keep.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countOf, formatCost, formatDecimal, formatInteger, formatUsd, type UsdStyle, formatSeconds, formatShare } from '../../../src/output/format.js';

const STYLES: UsdStyle[] = ['exact', 'price', 'report'];

describe('formatUsd', () => {
  it('keeps what each style promises for ordinary amounts', () => {
    expect([0.000123, 0.3, 2.5, 0.1 + 0.2].map((v) => formatUsd(v, 'exact'))).toEqual(['$0.000123', '$0.30', '$2.50', '$0.30']);
    expect([0.000123456789012, 1 / 3].map((v) => formatUsd(v, 'exact'))).toEqual(['$0.000123456789', '$0.333333333333']);
    expect([2.4999999999999996, 0.075, 10, 1.5e-7].map((v) => formatUsd(v, 'price'))).toEqual(['$2.50', '$0.075', '$10.00', '$0.00000015']);
    expect([1234.5, 12, 0.5, 0.04567, 0.0123, 0.000125, 0.0000012346].map((v) => formatUsd(v, 'report'))).toEqual(['$1,234.50', '$12.00', '$0.50', '$0.0457', '$0.0123', '$0.000125', '$0.000001235']);
    expect(formatCost(0.04567)).toBe(formatUsd(0.04567, 'report'));
  });

  it('shows tiny amounts with their significant digits, not as zero', () => {
    expect(formatUsd(3e-12, 'exact')).toBe('$0.000000000003');
    expect(formatUsd(1.5e-15, 'price')).toBe('$0.0000000000000015');
    expect(formatUsd(1.23456e-9, 'report')).toBe('$0.000000001235');
  });

  it('reads zero, and amounts that round to zero, as $0.00 in every style', () => {
    for (const style of STYLES) {
      expect(formatUsd(0, style)).toBe('$0.00');
      expect(formatUsd(-0, style)).toBe('$0.00');
    }
    expect(formatUsd(4e-13, 'exact')).toBe('$0.00');
    expect(formatUsd(-4e-13, 'exact')).toBe('$0.00');
    expect(formatUsd(1e-30, 'report')).toBe('$0.00');
  });

  it('groups thousands of large amounts without exponents', () => {
    expect(formatUsd(1234567.891, 'report')).toBe('$1,234,567.89');
    expect(formatUsd(1234567.5, 'exact')).toBe('$1,234,567.50');
    expect(formatUsd(2500000, 'price')).toBe('$2,500,000.00');
    expect(formatUsd(1e21, 'exact')).toBe('$1,000,000,000,000,000,000,000.00');
    expect(formatUsd(1e21, 'report')).toBe('$1,000,000,000,000,000,000,000.00');
  });

  it('puts the minus sign before the dollar sign', () => {
    expect(formatUsd(-3.2, 'report')).toBe('-$3.20');
    expect(formatUsd(-0.000123, 'exact')).toBe('-$0.000123');
    expect(formatUsd(-2.5e-6, 'price')).toBe('-$0.0000025');
    expect(formatUsd(-1234.5, 'report')).toBe('-$1,234.50');
  });

  it('shows a missing or non-finite amount as -', () => {
    for (const style of STYLES) {
      for (const value of [null, undefined, Number.NaN, Infinity, -Infinity]) expect(formatUsd(value, style)).toBe('-');
    }
  });
});

describe('countOf', () => {
  it('says one thing in the singular, other counts in the plural, thousands separated', () => {
    expect([0, 1, 2, 3002].map((n) => countOf(n, 'observation'))).toEqual(['0 observations', '1 observation', '2 observations', '3,002 observations']);
    expect(countOf(1, 'entry', 'entries')).toBe('1 entry');
    expect(countOf(2, 'entry', 'entries')).toBe('2 entries');
  });
});

describe('formatDecimal', () => {
  // Formats by hand what Intl.NumberFormat prints (formatUsd's digits, without loading ICU at
  // start): compared with Intl itself.
  const intl = (value: number, decimals: number) => new Intl.NumberFormat('en-US', { minimumFractionDigits: Math.min(2, decimals), maximumFractionDigits: decimals }).format(value);
  const DECIMALS = [0, 1, 2, 3, 4, 6, 8, 12, 15, 20];
  it('prints what Intl.NumberFormat prints: ties of the shortest form, carries, tiny and huge amounts', () => {
    const values = [0, 1.005, 0.125, 0.995, 9.995, 999.995, 999_999.999, 0.5, 1.5, 2.5, 0.0000000000005, 1e21, 1.2345e22, 123456789.125, 5e-324, 1.7976931348623157e308, 0.1 + 0.2, 2.675, 1 / 3, 99.5, 0.00009999];
    for (const v of values) for (const d of DECIMALS) expect(formatDecimal(v, d), `${v} to ${d}`).toBe(intl(v, d));
    fc.assert(
      fc.property(fc.oneof(fc.double({ min: 0, max: 1e25, noNaN: true }), fc.integer({ min: 0, max: 10 ** 9 }).map((n) => n / 1000), fc.double({ min: 0, max: 1e-3, noNaN: true })), fc.constantFrom(...DECIMALS), (v, d) => {
        expect(formatDecimal(v, d)).toBe(intl(v, d));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('formatInteger', () => {
  it('prints what toLocaleString("en-US") prints, for whole numbers and the rest it leaves to it', () => {
    const values = [0, -0, 1, -1, 12, 123, 1234, -1234, 12345, 999_999, 1_000_000, -1_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 1e21, 1.5, -2.25, NaN, Infinity, -Infinity];
    for (const v of values) expect(formatInteger(v), String(v)).toBe(v.toLocaleString('en-US'));
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.integer({ min: -1000, max: 1000 })), (n) => {
        expect(formatInteger(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('prices for people', () => {
  it('formats dollars with at least two decimals and without float noise', () => {
    expect(formatUsd(0.0000025 * 1e6, 'price')).toBe('$2.50');
    expect(formatUsd(0.075, 'price')).toBe('$0.075');
    expect(formatUsd(10, 'price')).toBe('$10.00');
    expect(formatUsd(1.5e-7, 'price')).toBe('$0.00000015');
    expect(formatUsd(0, 'price')).toBe('$0.00');
  });
});

describe('amounts and bars', () => {
  it('read as people read money', () => {
    expect([1234.5, 12, 0.5, 0.04567, 0.0123, 0.000125, 0.0000012346, 0, -3.2].map(formatCost)).toEqual(['$1,234.50', '$12.00', '$0.50', '$0.0457', '$0.0123', '$0.000125', '$0.000001235', '$0.00', '-$3.20']);
    expect([0.5, 0.0004, 1.2, 0].map(formatShare)).toEqual(['50.0%', '<0.1%', '120.0%', '0.0%']);
    expect([0.25, 2.5, 75, null].map(formatSeconds)).toEqual(['250 ms', '2.50 s', '1 min 15 s', '']);
  });
});
