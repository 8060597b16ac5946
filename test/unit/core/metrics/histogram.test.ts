// The metrics API's histogram aggregation against ClickHouse's histogram(bins)(x), whose algorithm
// it follows (src/core/metrics/histogram.ts).
import { describe, expect, it } from 'vitest';
import { histogram } from '../../../../src/core/metrics/histogram.js';

const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('histogram(bins)', () => {
  it('gives the bins of the example in ClickHouse’s documentation: histogram(5)(number + 1) over 20 rows', () => {
    // docs/en/sql-reference/aggregate-functions/parametric-functions.md, "histogram".
    expect(histogram(oneTo(20), 5)).toEqual([
      [1, 4.5, 4],
      [4.5, 8.5, 4],
      [8.5, 12.75, 4.125],
      [12.75, 17, 4.625],
      [17, 20, 3.25],
    ]);
  });

  it('does not depend on the order of fewer than 2 × bins values', () => {
    const values = [7, 3, 3.5, 100, 42, 8, 9, 1, 0.5];
    const expected = histogram([...values].sort((a, b) => a - b), 5);
    expect(histogram(values, 5)).toEqual(expected);
    expect(histogram([...values].reverse(), 5)).toEqual(expected);
  });

  it('keeps one bin per distinct value when there are fewer than bins, and merges equal ones', () => {
    expect(histogram([3, 1, 2], 10)).toEqual([
      [1, 1.5, 1],
      [1.5, 2.5, 1],
      [2.5, 3, 1],
    ]);
    expect(histogram([5, 5, 5], 10)).toEqual([[5, 5, 3]]);
    expect(histogram([], 10)).toEqual([]);
  });

  it('keeps at most `bins` bins and the whole weight, whatever the number of values', () => {
    const values = Array.from({ length: 10_000 }, (_, i) => (i * 7919) % 1000);
    const bins = histogram(values, 10);
    expect(bins.length).toBeLessThanOrEqual(10);
    expect(bins[0]![0]).toBe(0);
    expect(bins.at(-1)![1]).toBe(999);
    for (let i = 1; i < bins.length; i++) expect(bins[i]![0]).toBe(bins[i - 1]![1]);
  });
});
