// The cost chart's y axis: round ticks that reach the highest bar, labelled so each reads apart.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { costAxis, tickLabel } from '../../../../../../src/server/ui/app/cost/axis.js';

describe('the cost axis', () => {
  it('picks round steps and labels them in dollars', () => {
    expect(costAxis(3.7)).toEqual({ top: 4, ticks: [0, 1, 2, 3, 4], step: 1 });
    expect(costAxis(0.042).ticks).toEqual([0, 0.02, 0.04, 0.06]);
    expect(costAxis(1234).ticks).toEqual([0, 500, 1000, 1500]);
    expect(costAxis(0).ticks).toEqual([0, 1]);
    expect(costAxis(0.042).ticks.map((t) => tickLabel(t, 0.02))).toEqual(['$0.00', '$0.02', '$0.04', '$0.06']);
    expect(tickLabel(1500, 500)).toBe('$1,500.00');
    expect(costAxis(0.00037).ticks.map((t) => tickLabel(t, 0.0001))).toEqual(['$0.0000', '$0.0001', '$0.0002', '$0.0003', '$0.0004']);
  });

  it('reaches the highest bar in 2 to 10 steps of 1, 2 or 5 times a power of ten, each label distinct', () => {
    fc.assert(
      fc.property(fc.double({ min: 1e-9, max: 1e9, noNaN: true }), (highest) => {
        const { top, ticks, step } = costAxis(highest);
        expect(top).toBeGreaterThanOrEqual(highest * (1 - 1e-9));
        expect(top - step).toBeLessThan(highest);
        expect(ticks.length - 1).toBeGreaterThanOrEqual(1);
        expect(ticks.length - 1).toBeLessThanOrEqual(10);
        const mantissa = step / 10 ** Math.floor(Math.log10(step) + 1e-9);
        expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-6)).toBe(true);
        const labels = ticks.map((t) => tickLabel(t, step));
        expect(new Set(labels).size).toBe(labels.length);
      }),
    );
  });
});
