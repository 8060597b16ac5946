// Tables on a terminal fit its width (`models list`); piped output and --json keep everything.
import { describe, expect, it } from 'vitest';
import { displayWidth, fitTable, fitWidths, truncate } from '../../../src/output/fit.js';

describe('fitting columns', () => {
  it('leaves a table that fits alone', () => {
    expect(fitWidths([10, 20, 5], [4, 4, undefined], 80, 2)).toBeUndefined();
  });

  it('caps the shrinkable columns at one common width, widest first, never below their minimum', () => {
    // 100 + 30 + 25 + 2×2 gaps into 80: the fixed 25 stays, 51 is left for the other two.
    expect(fitWidths([100, 30, 25], [10, 10, undefined], 80, 2)).toEqual([25, 25, 25]);
    const widths = fitWidths([100, 30, 25], [10, 10, undefined], 80, 2)!;
    expect(widths[2]).toBe(25);
    expect(widths[0]! + widths[1]! + widths[2]! + 4).toBeLessThanOrEqual(80);
    expect(widths[0]).toBe(widths[1]);
    // A short shrinkable column keeps its text while a long one is cut.
    expect(fitWidths([100, 8, 25], [10, 4, undefined], 60, 2)).toEqual([23, 8, 25]);
    // Too narrow for everything: every shrinkable column at its minimum.
    expect(fitWidths([100, 30, 25], [10, 12, undefined], 20, 2)).toEqual([10, 12, 25]);
  });

  it('leaves out droppable columns, lowest first, when cut columns still do not fit', () => {
    const columns = [{ header: 'A', shrinkTo: 5 }, { header: 'B', shrinkTo: 5, dropOrder: 2 }, { header: 'C', dropOrder: 1 }, { header: 'D' }];
    const rows = [['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(20), 'd'.repeat(10)]];
    const fitted = fitTable(columns, rows, 30);
    expect(fitted.columns.map((c) => c.header)).toEqual(['A', 'B', 'D']);
    expect(fitted.rows[0]!.map((cell) => cell.length)).toEqual([8, 8, 10]);
    expect(fitted.cut).toBe(true);
    expect(fitTable(columns, rows, 200)).toEqual({ columns, rows, cut: false });
  });

  it('cuts text to a width with an ellipsis, counting wide characters twice', () => {
    expect(truncate('(?i)^(openai/)?(gpt-4o)$', 10)).toBe('(?i)^(ope…');
    expect(displayWidth(truncate('(?i)^(openai/)?(gpt-4o)$', 10))).toBe(10);
    expect(truncate('short', 10)).toBe('short');
    expect(displayWidth('模型名')).toBe(6);
    expect(truncate('模型名称', 5)).toBe('模型…');
  });
});
