// CSV as RFC 4180 has it, for every CSV llmobs writes (tables with --csv, observation listings and
// exports, cost reports): comma-separated, LF line ends (as spreadsheets and csv libraries accept),
// a field quoted when it holds a comma, quote, line break or leading or trailing space, quotes
// doubled. Objects and arrays are written as compact JSON, null as an empty field.
//
// Cells are neutralised against CSV injection as OWASP recommends
// (https://owasp.org/www-community/attacks/CSV_Injection): a cell that starts with =, +, -, @,
// a tab or a carriage return is prefixed with a single quote, so that a spreadsheet shows it as
// text instead of running it as a formula (=HYPERLINK(...), a DDE call). A plain number (-1.5,
// +3e-4) is left as it is: a spreadsheet reads it as a number, never as a formula, and a cost or a
// difference must stay a number there. JSON and JSON Lines keep every value as it is.

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The text of a cell, with a single quote before one that a spreadsheet would run as a formula. */
export function neutralise(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = neutralise(value);
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = neutralise(String(value));
  else text = JSON.stringify(value) ?? '';
  if (/[",\r\n]|^\s|\s$/.test(text)) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function csvRow(values: readonly unknown[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    line += csvField(values[i]);
  }
  return `${line}\n`;
}
