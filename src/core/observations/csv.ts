// CSV as RFC 4180 has it: comma-separated, CRLF-free (LF line ends, as spreadsheets and csv
// libraries accept), a field quoted when it holds a comma, quote, line break or leading or trailing
// space, quotes doubled. Objects and arrays are written as compact JSON, null as an empty field.

export function csvField(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
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
