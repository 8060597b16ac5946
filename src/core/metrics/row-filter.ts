// A metrics query's filters over the rows of the view: a dimension, the start time (the time
// dimension), metadata by key, or (a column ending in "Name" that the view does not know, which
// the service lets through) the observation's name.
import type { SingleFilter } from '../filters.js';
import { metadataValueText } from '../metadata.js';
import { MetricsQueryError } from './errors.js';
import { DIMENSIONS, type MetricsRow, TIME_DIMENSION } from './view.js';

function filterValue(row: MetricsRow, filter: SingleFilter): unknown {
  const read = DIMENSIONS[filter.column];
  if (read) return read(row);
  if (filter.column === TIME_DIMENSION) return row.observation.startTime;
  return row.observation.name;
}

function stringPasses(text: string, operator: string, wanted: string): boolean {
  if (operator === '=') return text === wanted;
  if (operator === 'contains') return text.includes(wanted);
  if (operator === 'does not contain') return !text.includes(wanted);
  if (operator === 'starts with') return text.startsWith(wanted);
  if (operator === 'ends with') return text.endsWith(wanted);
  return false;
}

/** Whether a row passes one filter; throws MetricsQueryError for a filter type the view cannot apply. */
export function passes(row: MetricsRow, filter: SingleFilter): boolean {
  const op = filter.operator;
  switch (filter.type) {
    case 'positionInTrace':
      return true;
    case 'stringObject': {
      const metadata = row.observation.metadata ?? {};
      if (!Object.hasOwn(metadata, filter.key)) return false;
      return stringPasses(metadataValueText(metadata[filter.key]), op, filter.value);
    }
    case 'datetime': {
      const a = String(filterValue(row, filter) ?? '');
      const b = filter.value.toISOString();
      return op === '>' ? a > b : op === '<' ? a < b : op === '>=' ? a >= b : a <= b;
    }
    case 'null': {
      const actual = filterValue(row, filter);
      const empty = actual === null || actual === undefined || actual === '' || (Array.isArray(actual) && actual.length === 0);
      return op === 'is null' ? empty : !empty;
    }
  }
  const actual = filterValue(row, filter);
  switch (filter.type) {
    case 'string':
      return stringPasses(actual === null || actual === undefined ? '' : String(actual), op, filter.value);
    case 'stringOptions':
    case 'arrayOptions': {
      const wanted = filter.value;
      const have = Array.isArray(actual) ? actual.map(String) : actual === null || actual === undefined ? [] : [String(actual)];
      if (op === 'any of') return have.some((v) => wanted.includes(v));
      if (op === 'none of') return !have.some((v) => wanted.includes(v));
      return wanted.every((v) => have.includes(v));
    }
  }
  throw new MetricsQueryError(`Filter type ${filter.type} is not supported by llmobs server on the observations view`);
}
