// A metrics query's filters over the rows of a view: a dimension (or, for a column ending in
// "Name" that the view does not know, which the service lets through, the `name` dimension), the
// time dimension, or metadata by key.
import type { SingleFilter } from '../filters.js';
import { metadataValueText } from '../metadata.js';
import type { MetricsView } from './declaration.js';
import { MetricsQueryError } from './errors.js';
import { filterDimension } from './query.js';

function stringPasses(text: string, operator: string, wanted: string): boolean {
  if (operator === '=') return text === wanted;
  if (operator === 'contains') return text.includes(wanted);
  if (operator === 'does not contain') return !text.includes(wanted);
  if (operator === 'starts with') return text.startsWith(wanted);
  if (operator === 'ends with') return text.endsWith(wanted);
  return false;
}

/** Whether a row passes one filter; throws MetricsQueryError for a filter type the view cannot apply. */
export function passes<Row>(view: MetricsView<Row>, row: Row, filter: SingleFilter): boolean {
  const op = filter.operator;
  const actual = () => (filter.column === view.timeDimension ? view.time(row) : filterDimension(view, filter.column)?.read(row));
  switch (filter.type) {
    case 'stringObject': {
      const metadata = view.metadata(row);
      if (!Object.hasOwn(metadata, filter.key)) return false;
      return stringPasses(metadataValueText(metadata[filter.key]), op, filter.value);
    }
    case 'datetime': {
      const a = String(actual() ?? '');
      const b = filter.value.toISOString();
      return op === '>' ? a > b : op === '<' ? a < b : op === '>=' ? a >= b : a <= b;
    }
    case 'null': {
      const value = actual();
      const empty = value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
      return op === 'is null' ? empty : !empty;
    }
    case 'string': {
      const value = actual();
      return stringPasses(value === null || value === undefined ? '' : String(value), op, filter.value);
    }
    case 'stringOptions':
    case 'arrayOptions': {
      const value = actual();
      const wanted = filter.value;
      const have = Array.isArray(value) ? value.map(String) : value === null || value === undefined ? [] : [String(value)];
      if (op === 'any of') return have.some((v) => wanted.includes(v));
      if (op === 'none of') return !have.some((v) => wanted.includes(v));
      return wanted.every((v) => have.includes(v));
    }
    case 'number': {
      // A comparison with NULL is not true in SQL.
      const value = actual();
      if (typeof value !== 'number') return false;
      return op === '=' ? value === filter.value : op === '>' ? value > filter.value : op === '<' ? value < filter.value : op === '>=' ? value >= filter.value : value <= filter.value;
    }
    case 'boolean': {
      const value = actual();
      if (typeof value !== 'boolean') return false;
      return op === '=' ? value === filter.value : value !== filter.value;
    }
  }
  throw new MetricsQueryError(`Filter type ${filter.type} is not supported by llmobs server on the ${view.name} view`);
}
