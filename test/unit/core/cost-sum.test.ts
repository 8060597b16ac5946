// StoredCostSum: exact sums of stored (12-decimal) costs, as ClickHouse adds a Decimal64(12) column.
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { StoredCostSum, storedCost } from '../../../src/core/precision.js';

const Wide = Decimal.clone({ precision: 100 });
const exact = (values: number[]) => values.reduce((sum, v) => sum.plus(new Wide(v).toDecimalPlaces(12, Wide.ROUND_DOWN)), new Wide(0));

describe('StoredCostSum', () => {
  it('adds without float drift', () => {
    expect(new StoredCostSum().add(0.1).add(0.2).value()).toBe(0.3);
    expect(new StoredCostSum().add(0.000375).add(0.00025).toString()).toBe('0.000625');
    expect(new StoredCostSum().toString()).toBe('0');
  });

  it('agrees with decimal arithmetic on many stored costs of every size, split and merged in any way', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const values: number[] = [];
    for (let i = 0; i < 20_000; i++) {
      const magnitude = 10 ** (Math.floor(random() * 16) - 12);
      values.push(storedCost(random() * magnitude * (i % 97 === 0 ? 1e6 : 1)));
    }
    values.push(0, 7.999999999999, 8, 12345.678901234567, 999999.999999999999, 5e15);
    const whole = new StoredCostSum();
    for (const v of values) whole.add(v);
    expect(whole.toString()).toBe(exact(values).toFixed());
    expect(whole.terms).toBe(values.length);
    const parts = [new StoredCostSum(), new StoredCostSum(), new StoredCostSum()];
    values.forEach((v, i) => parts[i % 3]!.add(v));
    const merged = parts.reduce((sum, part) => sum.addSum(part), new StoredCostSum());
    expect(merged.toString()).toBe(whole.toString());
  });

  it('stays exact past 2^53 units of 10^-12 (thousands of dollars) and with negative costs', () => {
    const sum = new StoredCostSum();
    for (let i = 0; i < 10_000; i++) sum.add(7.123456789012);
    expect(sum.toString()).toBe('71234.56789012');
    expect(new StoredCostSum().add(0.5).add(-0.75).toString()).toBe('-0.25');
  });

  it('adds amounts of $8 and more exactly without decimal.js, in plain or exponent notation', () => {
    const values = [8, 8.5, 9.999999999999, 123456.123456789012, 1e21, 1.2345678901234567e25, -3e22, 4.5e-7, 17.000000000000004, 2 ** 60, 999999.999999999999];
    const sum = new StoredCostSum();
    for (const v of values) sum.add(v);
    expect(sum.toString()).toBe(exact(values).toFixed());
    for (const v of values) expect(new StoredCostSum().add(v).toString(), String(v)).toBe(exact([v]).toFixed());
  });
});
