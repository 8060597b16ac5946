// Small loops for the per-generation hot path: `Object.keys(o).length`, spreads and
// `Object.fromEntries` allocate on every call, and a batch makes millions of them.

export function isEmpty(object: object): boolean {
  for (const _ in object) return false;
  return true;
}

/** Sum of the values in key order, as `Object.values(o).reduce((a, v) => a + v, 0)` adds them. */
export function sumValues(object: Record<string, number>): number {
  let sum = 0;
  for (const key in object) sum += object[key]!;
  return sum;
}

/** `Object.assign(target, source)` for plain records, without the generic machinery. */
export function assignAll(target: Record<string, number>, source: Record<string, number> | undefined): Record<string, number> {
  if (source) for (const key in source) target[key] = source[key]!;
  return target;
}

/**
 * The largest of the values (-Infinity for none), as `Math.max(...values)` but for any length:
 * a spread passes every value as an argument, which overflows the stack past some 150,000 (a
 * server's list of versions can be that long).
 */
export function maxOf(values: Iterable<number>): number {
  let max = -Infinity;
  for (const value of values) if (value > max || Number.isNaN(value)) max = value;
  return max;
}
