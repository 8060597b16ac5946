// Horizontal bars drawn with block characters, eighths of a cell wide, for a terminal.
import type { ChalkInstance } from 'chalk';
import { displayWidth, truncate } from '../../output/fit.js';

const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

export function bar(value: number, max: number, cells: number): string {
  if (!(max > 0) || !(value > 0) || cells <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * cells * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8];
}

export interface BarItem {
  label: string;
  value: number;
  text: string;
}

/** One line per item: label, bar, value; the bars share the width that is left. */
export function barChart(items: readonly BarItem[], width: number, c: ChalkInstance): string[] {
  if (items.length === 0) return [];
  // Terminal columns, not string length: names in wide scripts take two columns a character.
  const labelWidth = Math.min(28, Math.max(...items.map((i) => displayWidth(i.label))));
  const textWidth = Math.max(...items.map((i) => i.text.length));
  const cells = Math.max(10, width - labelWidth - textWidth - 4);
  const max = Math.max(...items.map((i) => i.value));
  return items.map((item) => {
    const cut = truncate(item.label, labelWidth);
    const label = `${cut}${' '.repeat(Math.max(0, labelWidth - displayWidth(cut)))}`;
    const drawn = bar(item.value, max, cells);
    return `${label}  ${c.cyan(drawn)}${' '.repeat(cells - [...drawn].length)}  ${item.text.padStart(textWidth)}`.trimEnd();
  });
}
