// Cost arithmetic at the server's precision. StoredCostSum: exact sums of stored (12-decimal) costs,
// as ClickHouse adds a Decimal64(12) column.
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { StoredCostSum, storedCost, costComponent, storedPrice, decimalCostComponent, decimalStoredCost, fastCostComponent } from '../../../src/core/precision.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { rng } from '../tokenizer/support/corpus.js';

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

describe('precision helpers', () => {
  it('multiplies with decimal arithmetic, not floats', () => {
    expect(0.0000025 * 3).not.toBe(0.0000075);
    expect(costComponent(0.0000025, 3)).toBe(0.0000075);
    expect(costComponent(0.1, 3)).toBe(0.3);
  });

  it('stores prices with 30 decimals like NUMERIC(65,30)', () => {
    expect(storedPrice(1e-31).toNumber()).toBe(0);
    expect(storedPrice(5e-31).toNumber()).toBe(1e-30);
    expect(storedPrice(0.0000025).toString()).toBe('0.0000025');
  });

  it('truncates stored costs toward zero at 12 decimals', () => {
    expect(storedCost(1.9999999999999)).toBe(1.999999999999);
    expect(storedCost(1e-13)).toBe(0);
    expect(storedCost(0.000000000001)).toBe(0.000000000001);
  });
});

// The fast paths of the cost arithmetic against decimal.js, which defines the right answer.
const catalogPrices = [...new Set(builtInDefinitions().flatMap((d) => d.pricingTiers.flatMap((t) => Object.values(t.prices))))];

describe('cost arithmetic fast paths', () => {
  it('agree with decimal.js for every catalogue price over many unit counts', () => {
    const random = rng(7);
    let fast = 0;
    for (const price of catalogPrices) {
      for (const units of [0, 1, 2, 3, 7, 10, 99, 1000, 123_457, 999_999, 1_000_000, 2 ** 31, Math.floor(random() * 1e9), Math.floor(random() * 1e12)]) {
        const expected = decimalCostComponent(price, units);
        expect(costComponent(price, units), `${price} × ${units}`).toBe(expected);
        if (fastCostComponent(price, units) !== undefined) fast++;
      }
    }
    // The fast path must actually carry the common cases, or it is not worth having.
    expect(fast).toBeGreaterThan(catalogPrices.length * 10);
  });

  it('agree with decimal.js for random prices, including awkward ones', () => {
    const random = rng(42);
    for (let i = 0; i < 20_000; i++) {
      const digits = 1 + Math.floor(random() * 15);
      const exponent = -1 - Math.floor(random() * 25);
      const price = Number(`${Math.floor(random() * 10 ** digits)}e${exponent}`);
      const units = random() < 0.1 ? random() * 1000 : Math.floor(random() * 10 ** (1 + Math.floor(random() * 12)));
      expect(costComponent(price, units), `${price} × ${units}`).toBe(decimalCostComponent(price, units));
    }
    for (const price of [0, 1, 0.1, 0.3, 1e-22, 1e-23, 1.5e-30, 1.23456789012345e-31, 123456789.123, Number.MAX_SAFE_INTEGER]) {
      for (const units of [0, 1, 3, 12_345_678, 2 ** 53 - 1]) expect(costComponent(price, units), `${price} × ${units}`).toBe(decimalCostComponent(price, units));
    }
  });

  it('truncate stored costs to 12 decimals exactly as decimal.js does', () => {
    const random = rng(3);
    const samples = [0, 1, 0.012325000000000001, 0.7999999999999999, 1e-6, 1e-7, 1.23456789012345e-7, 123456.123456789, 999999.9999999999, 1e21, 0.1 + 0.2];
    for (let i = 0; i < 50_000; i++) {
      samples.push(random() * 10 ** (Math.floor(random() * 14) - 8));
      samples.push(decimalCostComponent(random() * 1e-4, Math.floor(random() * 1e6)) + decimalCostComponent(random() * 1e-5, Math.floor(random() * 1e5)));
    }
    for (const value of samples) expect(storedCost(value), String(value)).toBe(decimalStoredCost(value));
  });
});

describe('component and stored value together', () => {
  it('agrees with computing and storing separately', async () => {
    const { costComponentStored } = await import('../../../src/core/precision.js');
    const random = rng(99);
    let exact = 0;
    const prices = [...catalogPrices];
    for (let i = 0; i < 5000; i++) prices.push(Number(`${Math.floor(random() * 10 ** (1 + Math.floor(random() * 15)))}e-${1 + Math.floor(random() * 20)}`));
    for (const price of prices) {
      for (const units of [0, 1, 17, 4096, Math.floor(random() * 1e7), Math.floor(random() * 1e13)]) {
        const cost = decimalCostComponent(price, units);
        const component = costComponentStored(price, units);
        expect({ cost: component.cost, stored: component.stored }, `${price} × ${units}`).toEqual({ cost, stored: decimalStoredCost(cost) });
        if (component.exact12 >= 0) {
          exact++;
          expect(new Decimal(storedPrice(price)).mul(units).mul(1e12).toFixed(), `${price} × ${units}`).toBe(String(component.exact12));
        }
      }
    }
    expect(exact).toBeGreaterThan(prices.length);
  });

  it('stores sums of components as decimal.js would, with or without float drift', async () => {
    const { costComponentStored, storedSum } = await import('../../../src/core/precision.js');
    const random = rng(5);
    let driftedUp = 0;
    let driftedDown = 0;
    let exactlyKnown = 0;
    for (let i = 0; i < 50_000; i++) {
      let sum = 0;
      let exact = 0;
      for (let k = 0; k < 1 + Math.floor(random() * 5); k++) {
        const price = random() < 0.7 ? catalogPrices[Math.floor(random() * catalogPrices.length)]! : Number(`${Math.floor(random() * 10 ** (1 + Math.floor(random() * 8)))}e-${1 + Math.floor(random() * 14)}`);
        const component = costComponentStored(price, Math.floor(random() * 10 ** (1 + Math.floor(random() * 7))));
        sum += component.cost;
        exact = exact >= 0 && component.exact12 >= 0 ? exact + component.exact12 : -1;
      }
      if (exact >= 0 && exact < 1e15) exactlyKnown++;
      if (exact >= 0 && exact < 1e12 && sum > exact / 1e12) driftedUp++;
      if (exact >= 0 && exact < 1e12 && sum < exact / 1e12) driftedDown++;
      expect(storedSum(sum, exact), String(sum)).toBe(decimalStoredCost(sum));
    }
    // Tens of thousands of components drift further than 10^-12: the text path must take over.
    for (const [price, count] of [[0.000024054311, 40_638], [0.000000137, 90_000], [0.0000031, 250_000]] as const) {
      let sum = 0;
      let exact = 0;
      for (let k = 0; k < count; k++) {
        const component = costComponentStored(price, 1);
        sum += component.cost;
        exact += component.exact12;
      }
      expect(storedSum(sum, exact), `${count} × ${price}`).toBe(decimalStoredCost(sum));
    }
    // Every branch must be exercised: sums known exactly, and sums whose floats drifted either way.
    expect(exactlyKnown).toBeGreaterThan(10_000);
    expect(driftedUp).toBeGreaterThan(1_000);
    expect(driftedDown).toBeGreaterThan(1_000);
  });
});
