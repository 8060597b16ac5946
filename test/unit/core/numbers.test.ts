// Numbers as the data commands read them from an answer: leniently, summed without drift.
import { describe, expect, it } from 'vitest';
import { CostSum, lenientNumber, lenientNumberMap, tokenSums } from '../../../src/core/numbers.js';

describe('lenient numbers', () => {
  it('reads numbers and numeric strings alike, and nothing else', () => {
    expect(lenientNumber(12)).toBe(12);
    expect(lenientNumber('12')).toBe(12);
    expect(lenientNumber('0.000125')).toBe(0.000125);
    expect(lenientNumber(' 1e-6 ')).toBe(0.000001);
    expect(lenientNumber('-3.5')).toBe(-3.5);
    for (const bad of ['', 'abc', '12abc', '0x1f', null, undefined, true, {}, [], Number.NaN, Number.POSITIVE_INFINITY, '1e999']) expect(lenientNumber(bad)).toBeNull();
  });

  it('keeps the readable values of a map', () => {
    expect(lenientNumberMap({ input: '100', output: 20, total: null, x: 'n/a' })).toEqual({ input: 100, output: 20 });
    expect(lenientNumberMap('nope')).toEqual({});
    expect(lenientNumberMap([1, 2])).toEqual({});
  });

  it('counts tokens as the Metrics API does: every key with input or output, total as given', () => {
    expect(tokenSums({ input: 100, input_cached_tokens: 20, output: 30, output_reasoning_tokens: 5, total: 155 })).toEqual({ input: 120, output: 35, total: 155 });
    expect(tokenSums({ input: 10, output: 2, total: 0 })).toEqual({ input: 10, output: 2, total: 0 });
  });

  it('without a total key, counts the total as ingestion does: the sum of every key', () => {
    expect(tokenSums({ INPUT_audio: 4 })).toEqual({ input: 4, output: 0, total: 4 });
    expect(tokenSums({ input: 10, output: 2, cache_read: 3 })).toEqual({ input: 10, output: 2, total: 15 });
    expect(tokenSums({})).toEqual({ input: 0, output: 0, total: 0 });
  });

  it('sums a million small costs without drift', () => {
    const sum = new CostSum();
    let naive = 0;
    for (let i = 0; i < 1_000_000; i++) {
      sum.add(0.000001);
      naive += 0.000001;
    }
    expect(sum.value).toBe(1);
    expect(naive).not.toBe(1);
    expect(sum.count).toBe(1_000_000);
  });
});
