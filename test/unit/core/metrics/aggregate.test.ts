// The aggregations of a metric, typed as the service answers them, and the quantiles against a
// plain reference of ClickHouse's `quantile` (linear interpolation between nearest ranks).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregate } from '../../../../src/core/metrics/index.js';
import { emptyAggregate } from '../../../../src/core/metrics/aggregate.js';

describe('aggregate', () => {
  it('answers counts and integer sums, maxima and minima as 64-bit integer text, the rest as numbers; NULLs are skipped', () => {
    const values = [3, null, 1, 2];
    expect(aggregate(values, 'count', true)).toBe('3');
    expect(aggregate(values, 'sum', true)).toBe('6');
    expect(aggregate(values, 'sum', false)).toBe(6);
    expect(aggregate(values, 'max', true)).toBe('3');
    expect(aggregate(values, 'min', false)).toBe(1);
    expect(aggregate(values, 'avg', true)).toBe(2);
    expect(aggregate(['u1', 'u2', 'u1', null], 'uniq', true)).toBe('2');
  });

  it('answers an empty group as the service does: integer sums 0, decimal sums and averages null', () => {
    expect([aggregate([null], 'sum', true), aggregate([], 'sum', false), aggregate([], 'avg', true), aggregate([], 'p95', false), aggregate([], 'count', false)]).toEqual(['0', null, null, null, '0']);
    expect([emptyAggregate('sum', true), emptyAggregate('sum', false), emptyAggregate('count', false), emptyAggregate('histogram', false), emptyAggregate('p50', true)]).toEqual(['0', 0, '0', [], 0]);
  });

  it('gives the quantile of the nearest ranks, interpolated, whatever the order of the values', () => {
    const reference = (values: number[], level: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      const position = level * (sorted.length - 1);
      const low = sorted[Math.floor(position)]!;
      const high = sorted[Math.ceil(position)]!;
      return low + (high - low) * (position - Math.floor(position));
    };
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: 1, maxLength: 50 }), fc.constantFrom('p50', 'p75', 'p90', 'p95', 'p99'), (values, level) => {
        const p = Number(level.slice(1)) / 100;
        expect(aggregate(values, level, false)).toBeCloseTo(reference(values, p), 6);
        expect(aggregate([...values].reverse(), level, false)).toBe(aggregate(values, level, false));
        expect(aggregate(values, level, false)).toBeGreaterThanOrEqual(aggregate(values, 'min', false) as number);
        expect(aggregate(values, level, false)).toBeLessThanOrEqual(aggregate(values, 'max', false) as number);
      }),
    );
  });
});
