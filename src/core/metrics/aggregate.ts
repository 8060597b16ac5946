// The aggregations of a metric over a group's values, typed as the service's query layer answers
// them: 64-bit integers (counts, and sums, maxima and minima of integer measures) as strings,
// decimals and averages as numbers, NULL values skipped.
import { MetricsQueryError } from './errors.js';
import { histogram } from './histogram.js';
import type { Aggregation } from './query.js';

/** ClickHouse's `quantile`: linear interpolation between the nearest ranks. */
function quantile(values: number[], level: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const position = level * (sorted.length - 1);
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low);
}

/**
 * One metric over a group's values; `bins` is the histogram's (the query's config.bins, 10 by
 * default). `nullable`: the service's column is Nullable, so its sum, minimum and maximum over
 * values that are all NULL are NULL, not zero.
 */
export function aggregate(values: ReadonlyArray<number | string | null>, aggregation: Aggregation, integer: boolean, bins = 10, nullable = false): unknown {
  const present = values.filter((v): v is number | string => v !== null);
  const numbers = present.map(Number);
  const int64 = (n: number) => String(Math.round(n));
  switch (aggregation) {
    case 'count':
      return String(present.length);
    case 'uniq':
      return String(new Set(present).size);
    case 'sum': {
      if (numbers.length === 0) return integer && !nullable ? '0' : null;
      const sum = numbers.reduce((a, b) => a + b, 0);
      return integer ? int64(sum) : sum;
    }
    case 'max':
    case 'min': {
      if (numbers.length === 0) return integer && !nullable ? '0' : null;
      // A loop: Math.max(...numbers) overflows the stack past some 150,000 values.
      let value = numbers[0]!;
      for (const n of numbers) if (aggregation === 'max' ? n > value || Number.isNaN(n) : n < value || Number.isNaN(n)) value = n;
      return integer ? int64(value) : value;
    }
    case 'avg':
      return numbers.length ? numbers.reduce((a, b) => a + b, 0) / numbers.length : null;
    case 'histogram': {
      // histogram(bins)(toFloat64(x)): NULLs skipped; a value that is not a finite number fails
      // the service's query.
      for (const n of numbers) if (!Number.isFinite(n)) throw new MetricsQueryError('The histogram aggregation takes numeric measures only');
      return histogram(numbers, bins);
    }
    default:
      return numbers.length ? quantile(numbers, Number(aggregation.slice(1)) / 100) : null;
  }
}

/** What a store that aggregates by itself knows of a group's non-null values. */
export interface ValueSummary {
  count?: number;
  distinct?: number;
  sum?: number | null;
  min?: number | null;
  max?: number | null;
}

/**
 * `aggregate` for count, uniq, sum, avg, min and max from a summary of the values rather than
 * the values: the same types and empty values (`nullable` as there).
 */
export function aggregateSummary(aggregation: Aggregation, integer: boolean, summary: ValueSummary, nullable = false): unknown {
  const count = summary.count ?? 0;
  const int64 = (n: number) => String(Math.round(n));
  const numeric = (value: number | null | undefined) => (count === 0 || value === null || value === undefined ? (integer && !nullable ? '0' : null) : integer ? int64(value) : value);
  switch (aggregation) {
    case 'count':
      return String(count);
    case 'uniq':
      return String(summary.distinct ?? 0);
    case 'sum':
      return numeric(summary.sum);
    case 'min':
      return numeric(summary.min);
    case 'max':
      return numeric(summary.max);
    case 'avg':
      return count && summary.sum !== null && summary.sum !== undefined ? summary.sum / count : null;
    default:
      throw new Error(`aggregateSummary: ${aggregation} needs the values`);
  }
}

/**
 * A metric over no rows at all, as ClickHouse answers an aggregate without GROUP BY over an
 * empty table (v2's one row): counts 0, averages and quantiles NaN (which its JSON prints as
 * null), histograms empty; sums, minima and maxima null over a Nullable column, else zero (a
 * 64-bit integer as a string, a decimal as a number).
 */
export function noRowsAggregate(aggregation: Aggregation, type: string, nullable: boolean): unknown {
  if (aggregation === 'count' || aggregation === 'uniq') return '0';
  if (aggregation === 'histogram') return [];
  if (aggregation === 'sum' || aggregation === 'min' || aggregation === 'max') return nullable ? null : type === 'integer' ? '0' : 0;
  return null;
}

/**
 * A metric's value in a time bucket without rows: WITH FILL's default of the column's type, so
 * NULL for an aggregate of a Nullable column (`nullable`), except counts and histograms.
 */
export function emptyAggregate(aggregation: Aggregation, integer: boolean, nullable = false): unknown {
  if (aggregation === 'histogram') return [];
  if (aggregation === 'count' || aggregation === 'uniq') return '0';
  if (nullable) return null;
  if (integer && (aggregation === 'sum' || aggregation === 'max' || aggregation === 'min')) return '0';
  return 0;
}
