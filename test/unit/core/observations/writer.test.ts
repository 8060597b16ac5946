// Writers of observations: JSON Lines, JSON and CSV, from the output file's name.
import { describe, expect, it } from 'vitest';
import { createWriter, formatOfFile } from '../../../../src/core/observations/writer.js';

const items = [{ id: 'a', usageDetails: { input: 1 }, name: 'x,"y"' }, { id: 'b', usageDetails: {}, name: null }];

describe('writers', () => {
  it('write pages that join into valid JSON Lines, JSON and CSV, whatever the page cut', () => {
    const selection = { groups: ['core' as const, 'usage' as const], columns: null };
    for (const cut of [0, 1, 2]) {
      const json = createWriter('json', selection);
      const text = json.header() + json.items(items.slice(0, cut), 0) + json.items(items.slice(cut), cut) + json.footer(2);
      expect(JSON.parse(text)).toEqual(items);
      // One element per line: line-oriented readers can stream it.
      expect(text.split('\n')).toHaveLength(5);
    }
    const empty = createWriter('json', selection);
    expect(JSON.parse(empty.header() + empty.footer(0))).toEqual([]);
    const jsonl = createWriter('jsonl', { groups: ['core'], columns: ['id', 'usageDetails.input'] });
    expect(jsonl.items(items, 0)).toBe('{"id":"a","usageDetails.input":1}\n{"id":"b","usageDetails.input":null}\n');
    const csv = createWriter('csv', { groups: ['core'], columns: ['id', 'name', 'usageDetails'] });
    expect(csv.header() + csv.items(items, 0)).toBe('id,name,usageDetails\na,"x,""y""","{""input"":1}"\nb,,{}\n');
  });

  it('neutralise CSV cells a spreadsheet would run as formulas, and keep the raw value in JSON and JSON Lines', () => {
    const hostile = [{ id: '=HYPERLINK("http://evil.test")', name: '@cmd', totalCost: -0.5, usageDetails: { input: -1 } }];
    const selection = { groups: ['core' as const], columns: ['id', 'name', 'totalCost', 'usageDetails.input'] };
    const csv = createWriter('csv', selection);
    expect(csv.items(hostile, 0)).toBe(`"'=HYPERLINK(""http://evil.test"")",'@cmd,-0.5,-1\n`);
    expect(JSON.parse(createWriter('jsonl', selection).items(hostile, 0))).toEqual({ id: '=HYPERLINK("http://evil.test")', name: '@cmd', totalCost: -0.5, 'usageDetails.input': -1 });
    const json = createWriter('json', selection);
    expect(JSON.parse(json.header() + json.items(hostile, 0) + json.footer(1))[0].id).toBe('=HYPERLINK("http://evil.test")');
  });

  it('take the format from the file name', () => {
    expect(['a.csv', 'b.JSONL', 'c.ndjson', 'd.json', 'e.txt'].map(formatOfFile)).toEqual(['csv', 'jsonl', 'jsonl', 'json', undefined]);
  });
});
