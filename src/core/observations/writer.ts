// How observations are written: JSON Lines (one object per line), CSV (a header, then one row
// per observation), or one JSON array (one element per line, so that line-oriented tools and
// `cost recompute` still read it as it streams). Every piece is a string the caller writes as
// one unit, so what is on disk is always whole items.
import { csvField, csvRow } from '../csv.js';
import { groupColumns, project, valueAt, type FieldSelection } from './fields.js';
import { sentJson } from './sent-json.js';

export const FORMATS = ['jsonl', 'csv', 'json'] as const;
export type Format = (typeof FORMATS)[number];

export interface ItemWriter {
  readonly format: Format;
  /** Text before the first item. */
  header(): string;
  /** The items of one page; `before` is how many items were written before them. */
  items(items: readonly Record<string, unknown>[], before: number): string;
  /** Text after the last item; `count` items were written. */
  footer(count: number): string;
}

/** The format a file name implies, if any. */
export function formatOfFile(file: string): Format | undefined {
  if (/\.csv$/i.test(file)) return 'csv';
  if (/\.(jsonl|ndjson)$/i.test(file)) return 'jsonl';
  if (/\.json$/i.test(file)) return 'json';
  return undefined;
}

export function createWriter(format: Format, selection: FieldSelection): ItemWriter {
  const columns = selection.columns;
  // A whole item is written as the server sent it where that text is known (sent-json.ts).
  const json = (item: Record<string, unknown>) => (columns ? JSON.stringify(project(item, columns)) : (sentJson(item) ?? JSON.stringify(item)));
  switch (format) {
    case 'jsonl':
      return {
        format,
        header: () => '',
        items: (items) => {
          let text = '';
          for (const item of items) text += `${json(item)}\n`;
          return text;
        },
        footer: () => '',
      };
    case 'json':
      return {
        format,
        header: () => '[\n',
        items: (items, before) => {
          let text = '';
          items.forEach((item, i) => {
            text += `${before + i === 0 ? '' : ',\n'}${json(item)}`;
          });
          return text;
        },
        footer: (count) => (count === 0 ? ']\n' : '\n]\n'),
      };
    case 'csv': {
      const header = columns ?? groupColumns(selection.groups);
      return {
        format,
        header: () => csvRow(header),
        items: (items) => {
          let text = '';
          for (const item of items) {
            let line = '';
            for (let i = 0; i < header.length; i++) line += (i ? ',' : '') + csvField(valueAt(item, header[i]!));
            text += `${line}\n`;
          }
          return text;
        },
        footer: () => '',
      };
    }
  }
}
