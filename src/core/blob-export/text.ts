// The text formats of a blob export, row by row: JSON Lines, one JSON array (one element per
// line) and CSV with a header (core/csv.ts: RFC 4180, cells neutralised against formulas as in
// every CSV llmobs writes). Each piece is a string the caller writes, or gzips, as it comes.
import { csvField, csvRow } from '../csv.js';

export type TextType = 'jsonl' | 'csv' | 'json';

export interface RowEncoder {
  header(): string;
  /** Rows of one page; `before` rows were encoded before them. */
  rows(rows: readonly Record<string, unknown>[], before: number): string;
  footer(count: number): string;
}

export function textEncoder(type: TextType, columns: readonly string[]): RowEncoder {
  switch (type) {
    case 'jsonl':
      return {
        header: () => '',
        rows: (rows) => rows.map((row) => `${JSON.stringify(row)}\n`).join(''),
        footer: () => '',
      };
    case 'json':
      return {
        header: () => '[\n',
        rows: (rows, before) => rows.map((row, i) => `${before + i === 0 ? '' : ',\n'}${JSON.stringify(row)}`).join(''),
        footer: (count) => (count === 0 ? ']\n' : '\n]\n'),
      };
    case 'csv':
      return {
        header: () => csvRow(columns),
        rows: (rows) => {
          let text = '';
          for (const row of rows) {
            let line = '';
            for (let i = 0; i < columns.length; i++) line += (i ? ',' : '') + csvField(row[columns[i]!]);
            text += `${line}\n`;
          }
          return text;
        },
        footer: () => '',
      };
  }
}
