import { describe, expect, it } from 'vitest';
import { computeCost } from '../../../src/core/cost.js';

describe('provided cost wins entirely', () => {
  it('{input:1, output:2} gives total 3', () => {
    const r = computeCost({ input: 1, output: 2 }, { input: 100 }, { input: 5 });
    expect(r).toMatchObject({ source: 'provided', costDetails: { input: 1, output: 2, total: 3 }, totalCost: 3, totalMethod: 'provided-input-output' });
  });

  it('{output:2, total:2} gives total 2', () => {
    expect(computeCost({ output: 2, total: 2 }, {}, null)).toMatchObject({ costDetails: { output: 2, total: 2 }, totalCost: 2, totalMethod: 'provided-total' });
  });

  it('{input:1} gives total 1', () => {
    expect(computeCost({ input: 1 }, {}, null)).toMatchObject({ costDetails: { input: 1, total: 1 }, totalCost: 1 });
  });

  it('stores no total when other keys are provided without one, and computes nothing else', () => {
    const r = computeCost({ input: 1, cache: 2 }, { input: 100, output: 10 }, { input: 1, output: 1 });
    expect(r).toMatchObject({ source: 'provided', costDetails: { input: 1, cache: 2 }, totalCost: null, totalMethod: 'provided-no-total', lines: [] });
  });
});

describe('computed cost', () => {
  it('a total price replaces the sum: prices 0.01/0.02/0.03 with usage 100/200/300 give total 9', () => {
    const r = computeCost({}, { input: 100, output: 200, total: 300 }, { input: 0.01, output: 0.02, total: 0.03 });
    expect(r.costDetails).toEqual({ input: 1, output: 4, total: 9 });
    expect(r.totalCost).toBe(9);
    expect(r.totalMethod).toBe('total-price');
  });

  it('adds the components as JS numbers, like the server: 0.0034 + 0.0085 + 0.000425', () => {
    const r = computeCost({}, { input: 34, output: 85, cached: 425 }, { input: 0.0001, output: 0.0001, cached: 0.000001 });
    expect(r.costDetails).toMatchObject({ input: 0.0034, output: 0.0085, cached: 0.000425 });
    expect(r.totalCost).toBe(0.012325000000000001);
    expect(r.totalMethod).toBe('sum');
    // Stored as Decimal64(12): what the API returns.
    expect(r.stored.totalCost).toBe(0.012325);
    expect(r.stored.costDetails['total']).toBe(0.012325);
  });

  it('sums in usage-key order', () => {
    const a = computeCost({}, { x: 1, y: 1, z: 1 }, { x: 0.1, y: 0.2, z: 0.3 });
    const b = computeCost({}, { z: 1, y: 1, x: 1 }, { x: 0.1, y: 0.2, z: 0.3 });
    expect(a.totalCost).toBe(0.1 + 0.2 + 0.3);
    expect(b.totalCost).toBe(0.3 + 0.2 + 0.1);
    expect(a.totalCost).not.toBe(b.totalCost);
  });

  it('truncates to 12 decimals on storage instead of rounding', () => {
    const r = computeCost({}, { a: 7, b: 1 }, { a: 0.1, b: 0.1 });
    expect(r.totalCost).toBe(0.7999999999999999);
    expect(r.stored.totalCost).toBe(0.799999999999);
    expect(r.stored.costDetails['a']).toBe(0.7);
  });

  it('matches price keys exactly and case-sensitively; unpriced keys are ignored', () => {
    const r = computeCost({}, { Input: 10, input: 5, total: 15 }, { input: 0.5 });
    expect(r.costDetails).toEqual({ input: 2.5, total: 2.5 });
    expect(r.unpriced).toEqual(['Input', 'total']);
  });

  it('zero usage costs zero', () => {
    expect(computeCost({}, { input: 0 }, { input: 3 }).costDetails).toEqual({ input: 0, total: 0 });
  });

  it('gives no cost when nothing is priced', () => {
    expect(computeCost({}, { input: 10 }, null)).toMatchObject({ source: 'none', costDetails: {}, totalCost: null });
    expect(computeCost({}, { input: 10 }, { output: 1 })).toMatchObject({ source: 'none', costDetails: {}, totalCost: null, unpriced: ['input'] });
  });

  it('does not take inherited keys for prices', () => {
    expect(computeCost({}, { constructor: 1, toString: 2 }, {})).toMatchObject({ source: 'none' });
  });

  it('reports values Decimal64(12) cannot hold', () => {
    expect(computeCost({}, { input: 2_000_000 }, { input: 1 }).outOfRange).toEqual(['input', 'total']);
  });
});
