// Fitting a terminal table into the terminal's width: columns that may shrink are capped at one
// common width (the widest are cut first, short ones keep their text), cut text ends with "…".
// Piped output and --json are never cut: they carry the full data.

/** How wide a text is on a terminal, in columns (wide East Asian characters count 2). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += isWide(char.codePointAt(0)!) ? 2 : 1;
  return width;
}

function isWide(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/** Cuts a text to at most `width` columns, marking the cut with "…". */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  if (width <= 1) return '…'.slice(0, Math.max(0, width));
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = isWide(char.codePointAt(0)!) ? 2 : 1;
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/**
 * The widths to cut the columns to so that a row fits `total` columns with `gap` between columns,
 * or undefined when nothing needs cutting. `min[i]` is undefined for a column that must not be cut.
 */
export function fitWidths(natural: readonly number[], min: ReadonlyArray<number | undefined>, total: number, gap: number): number[] | undefined {
  const available = total - gap * (natural.length - 1);
  const sum = natural.reduce((a, b) => a + b, 0);
  if (sum <= available) return undefined;
  const widthAt = (cap: number) => natural.map((width, i) => (min[i] === undefined ? width : Math.min(width, Math.max(cap, min[i]!))));
  const sumAt = (cap: number) => widthAt(cap).reduce((a, b) => a + b, 0);
  // The largest common cap that fits; at worst every shrinkable column at its minimum.
  let low = 0;
  let high = Math.max(...natural);
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sumAt(mid) <= available) low = mid;
    else high = mid - 1;
  }
  return widthAt(low);
}

interface FitColumn {
  header: string;
  shrinkTo?: number | undefined;
  dropOrder?: number | undefined;
}

/**
 * Cuts the shrinkable columns of a table to fit `width`; when even their minimum widths do not
 * fit, leaves out droppable columns (lowest `dropOrder` first) and tries again.
 */
export function fitTable<C extends FitColumn>(columns: C[], rows: string[][], width: number): { columns: C[]; rows: string[][]; cut: boolean } {
  let keep = columns.map((_, i) => i);
  for (;;) {
    const cols = keep.map((i) => columns[i]!);
    const cells = rows.map((row) => keep.map((i) => row[i] ?? ''));
    const natural = cols.map((col, i) => Math.max(displayWidth(col.header), ...cells.map((row) => displayWidth(row[i]!))));
    const min = cols.map((col) => (col.shrinkTo === undefined ? undefined : Math.max(col.shrinkTo, displayWidth(col.header))));
    const fitted = fitWidths(natural, min, width, 2);
    const needed = (fitted ?? natural).reduce((a, b) => a + b, 0) + 2 * (cols.length - 1);
    const droppable = keep.filter((i) => columns[i]!.dropOrder !== undefined).sort((a, b) => columns[a]!.dropOrder! - columns[b]!.dropOrder!);
    if (needed > width && droppable.length > 0) {
      keep = keep.filter((i) => i !== droppable[0]);
      continue;
    }
    let cut = keep.length < columns.length;
    const out = fitted ? cells.map((row) => row.map((cell, i) => (displayWidth(cell) > fitted[i]! ? ((cut = true), truncate(cell, fitted[i]!)) : cell))) : cells;
    return { columns: cols, rows: out, cut };
  }
}
