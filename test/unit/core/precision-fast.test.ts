// The fast paths of the cost arithmetic against decimal.js, which defines the right answer.
import { describe, expect, it } from 'vitest';
import { Decimal } from 'decimal.js';
import { costComponent, decimalCostComponent, decimalStoredCost, fastCostComponent, storedCost, storedPrice } from '../../../src/core/precision.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { rng } from '../tokenizer/support/corpus.js';


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
