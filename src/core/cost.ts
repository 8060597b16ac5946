import { costComponentStored, fitsStoredCost, storedCost, storedSum } from './precision.js';

/** Price × units for one usage type. `cost` is what the worker computes, `stored` what the API returns. */
export interface CostLine {
  usageType: string;
  units: number;
  price: number;
  cost: number;
  stored: number;
}

export type TotalMethod =
  /** Provided costs include `total`. */
  | 'provided-total'
  /** Provided costs are only input and/or output: total = (input ?? 0) + (output ?? 0). */
  | 'provided-input-output'
  /** Provided costs have other keys and no total: the server stores no total cost. */
  | 'provided-no-total'
  /** A price for usage type "total" applied: it replaces the sum of the components. */
  | 'total-price'
  /** Sum of the components, in usage-key order, as JS numbers. */
  | 'sum'
  | 'none';

export interface CostResult {
  source: 'provided' | 'computed' | 'none';
  /** As computed by the worker, before storage. */
  costDetails: Record<string, number>;
  totalCost: number | null;
  /** After Decimal64(12) storage: what the server returns. */
  stored: { costDetails: Record<string, number>; totalCost: number | null };
  lines: CostLine[];
  /** Usage keys with no price in the chosen tier (ignored by the server). */
  unpriced: string[];
  totalMethod: TotalMethod;
  /** Keys whose value does not fit Decimal64(12). */
  outOfRange: string[];
}

const has = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

function store(details: Record<string, number>, total: number | null): Pick<CostResult, 'stored' | 'outOfRange'> {
  const costDetails: Record<string, number> = {};
  const outOfRange: string[] = [];
  for (const k in details) {
    const v = details[k]!;
    costDetails[k] = storedCost(v);
    if (!fitsStoredCost(v)) outOfRange.push(k);
  }
  return { stored: { costDetails, totalCost: total === null ? null : storedCost(total) }, outOfRange };
}

/**
 * Cost of an observation. Provided costs win entirely; otherwise each usage key with a price in
 * `prices` (the chosen tier; exact, case-sensitive keys) costs price × units.
 */
export function computeCost(provided: Record<string, number>, usage: Record<string, number>, prices: Record<string, number> | null): CostResult {
  const providedKeys: string[] = [];
  for (const k in provided) if (provided[k] != null) providedKeys.push(k);
  if (providedKeys.length > 0) {
    const costDetails = { ...provided };
    let total: number | null = null;
    let totalMethod: TotalMethod = 'provided-no-total';
    if (provided['total'] != null) {
      total = provided['total'];
      totalMethod = 'provided-total';
    } else if (providedKeys.every((k) => k === 'input' || k === 'output')) {
      total = (provided['input'] ?? 0) + (provided['output'] ?? 0);
      totalMethod = 'provided-input-output';
    }
    if (!has(costDetails, 'total') && total !== null) costDetails['total'] = total;
    return { source: 'provided', costDetails, totalCost: total, lines: [], unpriced: [], totalMethod, ...store(costDetails, total) };
  }

  const lines: CostLine[] = [];
  const unpriced: string[] = [];
  const costDetails: Record<string, number> = {};
  const storedDetails: Record<string, number> = {};
  const outOfRange: string[] = [];
  // The worker's sum: JS numbers in usage-key order, from 0. And the same sum exactly, in 10^-12.
  let sum = 0;
  let exactSum = 0;
  let totalPrice = false;
  for (const usageType in usage) {
    const units = usage[usageType]!;
    if (units == null) continue;
    if (prices === null || !has(prices, usageType)) {
      unpriced.push(usageType);
      continue;
    }
    const price = prices[usageType]!;
    const component = costComponentStored(price, units);
    const cost = component.cost;
    lines.push({ usageType, units, price, cost, stored: component.stored });
    costDetails[usageType] = cost;
    storedDetails[usageType] = component.stored;
    if (!fitsStoredCost(cost)) outOfRange.push(usageType);
    if (usageType === 'total') totalPrice = true;
    sum += cost;
    exactSum = exactSum >= 0 && component.exact12 >= 0 ? exactSum + component.exact12 : -1;
  }
  if (lines.length === 0) {
    return { source: 'none', costDetails, totalCost: null, lines, unpriced, totalMethod: 'none', stored: { costDetails: storedDetails, totalCost: null }, outOfRange };
  }
  let total: number;
  let totalMethod: TotalMethod;
  let storedTotal: number;
  if (totalPrice) {
    total = costDetails['total']!;
    totalMethod = 'total-price';
    storedTotal = storedDetails['total']!;
  } else {
    total = sum;
    totalMethod = 'sum';
    // Components are already stored; only the summed total still needs it.
    storedTotal = storedSum(total, exactSum);
    costDetails['total'] = total;
    storedDetails['total'] = storedTotal;
    if (!fitsStoredCost(total)) outOfRange.push('total');
  }
  return { source: 'computed', costDetails, totalCost: total, lines, unpriced, totalMethod, stored: { costDetails: storedDetails, totalCost: storedTotal }, outOfRange };
}
