import type { Decimal } from 'decimal.js';

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

// decimal.js computes only what the exact fast paths below cannot (a price of more than 22
// decimals, a fractional unit count, a cost under 10^-6...): it is loaded when first needed. The
// functions here stay synchronous; a slow path reached before it is loaded throws
// DecimalNotLoaded, and the caller loads it (`withDecimal`, `loadDecimal`) and computes again.
// Batches, re-pricing and the server load it up front.
type DecimalClass = typeof Decimal;
let Dec: DecimalClass | undefined;
// Wide enough for any double with 12 decimals: the slow path of sums is exact too.
let Wide: DecimalClass | undefined;

export class DecimalNotLoaded extends Error {
  constructor() {
    super('internal error: an exact decimal computation was needed before decimal.js was loaded (await loadDecimal first)');
  }
}

/** Sets the decimal.js to compute with (private clones, so configuration changed elsewhere never leaks in). */
export function useDecimal(decimal: DecimalClass): void {
  if (Dec !== undefined) return;
  Dec = decimal.clone({ precision: 20, rounding: decimal.ROUND_HALF_UP });
  Wide = decimal.clone({ precision: 400, rounding: decimal.ROUND_DOWN });
}

export async function loadDecimal(): Promise<void> {
  if (Dec === undefined) useDecimal((await import('decimal.js')).Decimal);
}

/** `compute()`, again after loading decimal.js if it needed it. `compute` must have no effects beyond its result. */
export async function withDecimal<T>(compute: () => T): Promise<T> {
  if (Dec === undefined) {
    try {
      return compute();
    } catch (error) {
      if (!(error instanceof DecimalNotLoaded)) throw error;
    }
    await loadDecimal();
  }
  return compute();
}

function dec(): DecimalClass {
  if (Dec === undefined) throw new DecimalNotLoaded();
  return Dec;
}

function wide(): DecimalClass {
  if (Wide === undefined) throw new DecimalNotLoaded();
  return Wide;
}

export function storedPrice(price: number): Decimal {
  const D = dec();
  return new D(price).toDecimalPlaces(30, D.ROUND_HALF_UP);
}

export function costComponent(price: number, units: number): number {
  return fastCostComponent(price, units) ?? decimalCostComponent(price, units);
}

/** A cost component, its stored value, and the component as an exact multiple of 10^-12. */
export interface StoredComponent {
  cost: number;
  stored: number;
  /** cost × 10^12 when that is an exact safe integer below 10^15, else -1. */
  exact12: number;
}

/**
 * A component and its stored value together. When the exact fast path applies with at most 12
 * decimals and 15 significant digits, the double's shortest representation is that decimal
 * itself (any decimal of up to 15 digits survives a round trip), so storage changes nothing.
 */
export function costComponentStored(price: number, units: number): StoredComponent {
  if (Number.isInteger(units) && units >= 0) {
    const scaled = scaledPrice(price);
    if (scaled !== null) {
      const product = scaled.mantissa * units;
      if (product < 1e15) {
        const cost = product / POWERS_OF_TEN[scaled.scale]!;
        if (scaled.scale > 12) return { cost, stored: storedCost(cost), exact12: -1 };
        const exact12 = product * POWERS_OF_TEN[12 - scaled.scale]!;
        return { cost, stored: cost, exact12: exact12 < 1e15 ? exact12 : -1 };
      }
    }
  }
  const cost = costComponent(price, units);
  return { cost, stored: storedCost(cost), exact12: -1 };
}

/**
 * The stored value of a sum of components, given the sum as JS numbers (`total`) and the exact
 * sum of their `exact12` values (-1 when unknown), without turning the number into text. When
 * the float sum is the double of the exact sum (no drift) and that sum has at most 15 digits,
 * storage keeps it as it is.
 */
export function storedSum(total: number, exact12: number): number {
  if (exact12 >= 0 && exact12 < 1e15) {
    const exact = exact12 / 1e12;
    if (total === exact) return total;
    // Below 1, and with a drift well under 10^-12 (checked: many thousands of additions could
    // drift further), the float sum's shortest representation lies above the exact sum and
    // below its upper 12-decimal neighbour when the drift went up, and at or above the lower
    // neighbour when it went down: truncation gives the exact sum, or the one below it.
    if (total < 1 && exact12 < 1e12 && Math.abs(total - exact) < 5e-13) return total > exact ? exact : (exact12 - 1) / 1e12;
  }
  return storedCost(total);
}

/** The reference computation; `fastCostComponent` must always agree with it. */
export function decimalCostComponent(price: number, units: number): number {
  const D = dec();
  return new D(storedPrice(price)).mul(units).toNumber();
}

// A price as an exact decimal: mantissa × 10^-scale, from its shortest decimal representation
// (the digits decimal.js parses too). Cached: a batch reuses the same few prices.
interface ScaledPrice {
  mantissa: number;
  scale: number;
}
const scaledPrices = new Map<number, ScaledPrice | null>();

function scaledPrice(price: number): ScaledPrice | null {
  let scaled = scaledPrices.get(price);
  if (scaled === undefined) {
    scaled = parseScaled(price);
    if (scaledPrices.size >= 10_000) scaledPrices.clear();
    scaledPrices.set(price, scaled);
  }
  return scaled;
}

function parseScaled(price: number): ScaledPrice | null {
  const match = /^(\d+)(?:\.(\d+))?(?:e([-+]\d+))?$/.exec(String(price));
  if (!match) return null;
  const fraction = match[2] ?? '';
  const scale = fraction.length - Number(match[3] ?? 0);
  const mantissa = Number(match[1]! + fraction);
  // 10^scale must be exact (scale <= 22) and the price must already fit 30 decimal places.
  if (scale < 0 || scale > 22 || !Number.isSafeInteger(mantissa)) return null;
  return { mantissa, scale };
}

const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * price × units without decimal.js when the result is exact: mantissa × units is a safe integer
 * (so at most 16 significant digits, within decimal.js' 20) and 10^scale is an exact double. One
 * IEEE division then rounds the exact decimal value once, correctly, which is what decimal.js'
 * `toNumber()` (parsing its exact decimal string) gives. Returns undefined when it cannot decide.
 */
export function fastCostComponent(price: number, units: number): number | undefined {
  if (!Number.isInteger(units) || units < 0) return undefined;
  const scaled = scaledPrice(price);
  if (scaled === null) return undefined;
  const product = scaled.mantissa * units;
  if (!Number.isSafeInteger(product)) return undefined;
  return product / POWERS_OF_TEN[scaled.scale]!;
}

/** The largest magnitude Decimal64(12) can hold (18 digits, 12 of them fractional). */
export const MAX_STORED_COST = 999999.999999999999;

export function storedCost(value: number): number {
  // Fast path: in plain notation (|value| >= 1e-6) truncating the shortest representation at
  // 12 decimals cuts exactly the digits decimal.js would cut.
  const text = String(value);
  if (!text.includes('e')) {
    const dot = text.indexOf('.');
    if (dot < 0 || text.length - dot - 1 <= 12) return value;
    return Number(text.slice(0, dot + 13));
  }
  return decimalStoredCost(value);
}

/** The reference computation; `storedCost` must always agree with it. */
export function decimalStoredCost(value: number): number {
  const D = dec();
  return new D(value).toDecimalPlaces(12, D.ROUND_DOWN).toNumber();
}

export function fitsStoredCost(value: number): boolean {
  return Math.abs(value) < 1e6;
}

const UNITS_PER_DOLLAR = 1e12;
// Below this magnitude a stored cost times 10^12 rounds to its exact integer number of 10^-12
// (the double's error, scaled, stays far under 0.5).
const FAST_LIMIT = 8;
const EXACT_LIMIT = 2 ** 52;

/**
 * A number cut to 12 decimals (toward zero), in units of 10^-12, exactly. The number is read as
 * decimal.js reads it: its shortest decimal representation, which String() gives.
 */
function unitsOf(value: number): bigint {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([-+]\d+))?$/.exec(String(value));
  if (match === null) throw new Error(`not a finite number: ${value}`);
  const digits = match[2]! + (match[3] ?? '');
  // Digits after the decimal point; negative when the number ends in zeros not written.
  const decimals = (match[3] ?? '').length - Number(match[4] ?? 0);
  const shift = 12 - decimals;
  let units: bigint;
  if (shift >= 0) units = BigInt(digits) * 10n ** BigInt(shift);
  else units = digits.length + shift > 0 ? BigInt(digits.slice(0, digits.length + shift)) : 0n;
  return match[1] === '-' ? -units : units;
}

/**
 * The exact sum of stored costs (values of at most 12 decimals, as `storedCost` gives), the way
 * ClickHouse sums a Decimal64(12) column: no float drift, whatever the number of terms. A batch
 * summary adds up stored per-generation costs with it, and `--explain` adds up the components it
 * shows. Terms are expected to be stored costs already: below $8 a term is taken as the nearest
 * whole number of 10^-12 (the stored value it is, read without the double's error; a term with
 * more decimals would be rounded there, not cut); from $8 on, as decimal.js reads it, cut to 12
 * decimals.
 */
export class StoredCostSum {
  /** In units of 10^-12, while it stays an exact integer. */
  private units = 0;
  private big = 0n;
  private slow: Decimal | undefined;
  private count = 0;

  add(value: number): this {
    this.count++;
    if (Math.abs(value) < FAST_LIMIT) {
      this.units += Math.round(value * UNITS_PER_DOLLAR);
      if (Math.abs(this.units) >= EXACT_LIMIT) this.flush();
    } else if (Number.isFinite(value)) {
      this.big += unitsOf(value);
    } else {
      const W = wide();
      this.slow = (this.slow ?? new W(0)).plus(new W(value).toDecimalPlaces(12, W.ROUND_DOWN));
    }
    return this;
  }

  /** Adds another sum (e.g. a chunk's) exactly. */
  addSum(other: StoredCostSum): this {
    this.count += other.count;
    this.big += other.big + BigInt(other.units);
    this.flush();
    if (other.slow) this.slow = (this.slow ?? new (wide())(0)).plus(other.slow);
    return this;
  }

  get terms(): number {
    return this.count;
  }

  /** The sum as a decimal string with at most 12 decimals. */
  toString(): string {
    const total = this.big + BigInt(this.units);
    const negative = total < 0n;
    const digits = (negative ? -total : total).toString().padStart(13, '0');
    const whole = digits.slice(0, -12);
    const fraction = digits.slice(-12).replace(/0+$/, '');
    let text = `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
    if (this.slow) text = new (wide())(text).plus(this.slow).toFixed();
    return text;
  }

  /** The nearest number to the exact sum (the sum itself whenever it has at most 15 digits). */
  value(): number {
    return Number(this.toString());
  }

  private flush(): void {
    this.big += BigInt(this.units);
    this.units = 0;
  }
}
