// Units and cost per usage type (input, output, cached …), and the price per 1M units when known.
import { formatCost, formatNumber, formatPrice } from '../format.js';

interface Props {
  usage: Record<string, number>;
  cost: Record<string, number>;
  /** With a "Price per 1M" column, from `prices` (per unit, by usage type; empty cells until known). */
  withPrices?: boolean;
  prices?: Record<string, number> | undefined;
}

/** The usage types of `usage` and `cost`, each once, usage's first. */
export const usageTypes = (usage: object, cost: object) => [...new Set([...Object.keys(usage), ...Object.keys(cost)])];

export function UsageTable({ usage, cost, prices, withPrices = false }: Props) {
  return (
    <table class="grid">
      <thead>
        <tr>
          <th>Usage type</th>
          <th class="num">Units</th>
          {withPrices ? <th class="num">Price per 1M</th> : null}
          <th class="num">Cost</th>
        </tr>
      </thead>
      <tbody>
        {usageTypes(usage, cost).map((key) => (
          <tr>
            <td>{key}</td>
            <td class="num">{formatNumber(usage[key])}</td>
            {withPrices ? <td class="num">{formatPrice(prices?.[key], 1_000_000)}</td> : null}
            <td class="num">{formatCost(cost[key])}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
