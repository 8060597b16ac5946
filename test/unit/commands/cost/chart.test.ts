// The bars of the cost report.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { barChart, bar } from '../../../../src/commands/cost/chart.js';
import { displayWidth } from '../../../../src/output/fit.js';

describe('amounts and bars', () => {

  it('draw bars in eighths, the largest one full width', () => {
    expect(bar(1, 1, 4)).toBe('████');
    expect(bar(0.5, 1, 3)).toBe('█▌');
    expect(bar(0, 1, 4)).toBe('');
    expect(bar(0.0001, 1, 4)).toBe('▏');
    const lines = barChart([{ label: 'gpt-4o', value: 2, text: '$2.00' }, { label: 'a-very-long-model-name-that-goes-on-and-on', value: 1, text: '$1.00' }], 60, new Chalk({ level: 0 }));
    expect(lines[0]).toMatch(/^gpt-4o {24}█+ {2}\$2\.00$/);
    expect(lines[1]).toMatch(/^a-very-long-model-name-that…  █+[▏▎▍▌▋▊▉]? +\$1\.00$/);
    expect(lines.every((l) => l.length <= 60)).toBe(true);
  });

  it('measure labels in terminal columns: wide characters count 2, the bars start at one column', () => {
    const items = [
      { label: 'サポート回答', value: 2, text: '$2.00' },
      { label: 'ascii-name', value: 1, text: '$1.00' },
      { label: '日本語のとても長いトレースの名前です', value: 1, text: '$1.00' },
    ];
    const lines = barChart(items, 60, new Chalk({ level: 0 }));
    expect(lines.every((l) => displayWidth(l) <= 60)).toBe(true);
    const barAt = lines.map((l) => displayWidth(l.slice(0, l.indexOf('█'))));
    expect(new Set(barAt).size).toBe(1);
    expect(lines[2]).toContain('…');
  });
});
