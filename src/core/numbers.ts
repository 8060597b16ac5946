// Numbers as servers send them. Langfuse answers with JSON numbers in most places, but ClickHouse
// sends 64-bit integers and decimals as strings ("12", "0.000125") in some versions and views,
// and v2 observations send prices as decimal strings on purpose. Every reader of response
// numbers goes through here, so a string and a number mean the same.

const DECIMAL = /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/;

/** A finite number from a number or a numeric string; `null` for anything else. */
export function lenientNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && DECIMAL.test(value)) {
    const n = Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return null;
}

/** A map of numbers (usage or cost details) with each value read leniently; others are dropped. */
export function lenientNumberMap(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return out;
  for (const key in value as Record<string, unknown>) {
    const n = lenientNumber((value as Record<string, unknown>)[key]);
    if (n !== null) out[key] = n;
  }
  return out;
}

/**
 * Token counts of a usage map as Langfuse's metrics count them: input is the sum of every key
 * that contains "input" (any case), output of every key with "output", total the `total` key
 * (without one, the sum of every key, as ingestion computes it).
 */
export function tokenSums(usage: Record<string, number>): { input: number; output: number; total: number } {
  let input = 0;
  let output = 0;
  let sum = 0;
  for (const key in usage) {
    const lower = key.toLowerCase();
    if (lower.includes('input')) input += usage[key]!;
    if (lower.includes('output')) output += usage[key]!;
    sum += usage[key]!;
  }
  // Ingestion adds `total` as the sum of every key when a client sends none; servers that skip
  // that step (or answers without it) would otherwise read as 0 tokens beside non-zero counts.
  return { input, output, total: usage.total ?? sum };
}

/** Neumaier summation: many small costs add up without visible float drift. */
export class CostSum {
  private sum = 0;
  private compensation = 0;
  count = 0;

  add(value: number): void {
    const t = this.sum + value;
    this.compensation += Math.abs(this.sum) >= Math.abs(value) ? this.sum - t + value : value - t + this.sum;
    this.sum = t;
    this.count++;
  }

  get value(): number {
    return this.sum + this.compensation;
  }
}
