import { Decimal } from 'decimal.js';

/**
 * Where rounding happens between a price and the cost the server returns:
 *
 * 1. Prices live in Postgres NUMERIC(65,30): a price is rounded (half away from zero) to 30
 *    decimal places when stored. `storedPrice` applies that to prices given locally.
 * 2. Each component is `new Decimal(price).mul(units).toNumber()` in the worker, with decimal.js
 *    defaults (20 significant digits, ROUND_HALF_UP). `costComponent` does the same.
 * 3. Components are summed as plain JS numbers, in usage-key order
 *    (0.0034 + 0.0085 + 0.000425 = 0.012325000000000001). Done by the caller.
 * 4. ClickHouse stores costs as Decimal64(12). The worker sends JS numbers as JSON text and
 *    ClickHouse cuts extra fractional digits when it parses decimal text (it truncates; it does
 *    not round: ClickHouse issue #67831). The API then returns that decimal as a number.
 *    `storedCost` applies this, so 0.012325000000000001 is returned as 0.012325 and
 *    0.7999999999999999 as 0.799999999999.
 */

// A private clone so that configuration changed elsewhere can never leak in.
const Dec = Decimal.clone({ precision: 20, rounding: Decimal.ROUND_HALF_UP });

export function storedPrice(price: number): Decimal {
  return new Dec(price).toDecimalPlaces(30, Dec.ROUND_HALF_UP);
}

export function costComponent(price: number, units: number): number {
  return new Dec(storedPrice(price)).mul(units).toNumber();
}

/** The largest magnitude Decimal64(12) can hold (18 digits, 12 of them fractional). */
export const MAX_STORED_COST = 999999.999999999999;

export function storedCost(value: number): number {
  return new Dec(value).toDecimalPlaces(12, Dec.ROUND_DOWN).toNumber();
}

export function fitsStoredCost(value: number): boolean {
  return Math.abs(value) < 1e6;
}
