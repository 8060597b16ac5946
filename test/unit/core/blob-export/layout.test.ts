import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildManifest, dataKey, fileKind, INTERVALS, keyTimestamp, LAG_BUFFER_MS, latestManifestKey, manifestKey, manifestText, planWindows } from '../../../../src/core/blob-export/layout.js';

const T = (iso: string) => new Date(iso);

describe('keys', () => {
  it('names files and manifests as Langfuse\'s worker does: the window end, colons as dashes, to the second', () => {
    const max = T('2026-05-01T13:20:00.456Z');
    expect(keyTimestamp(max)).toBe('2026-05-01T13-20-00');
    expect(dataKey('exports/', 'p1', 'observations_v2', max, fileKind('jsonl', true))).toBe('exports/p1/observations_v2/2026-05-01T13-20-00.jsonl.gz');
    expect(dataKey('', 'p1', 'observations_v2', max, fileKind('csv', false))).toBe('p1/observations_v2/2026-05-01T13-20-00.csv');
    expect(dataKey('', 'p1', 'observations_v2', max, fileKind('parquet', true))).toBe('p1/observations_v2/2026-05-01T13-20-00.parquet');
    expect(manifestKey('exports/', 'p1', max)).toBe('exports/p1/manifests/2026-05-01T13-20-00.json');
  });

  it('declares each file as the worker does: fileType, format, compressed and content type', () => {
    expect(fileKind('jsonl', true)).toEqual({ extension: 'jsonl.gz', contentType: 'application/gzip', fileType: 'JSONL', format: 'jsonl-gzip', compressed: true });
    expect(fileKind('json', false)).toEqual({ extension: 'json', contentType: 'application/json; charset=utf-8', fileType: 'JSON', format: 'json-raw', compressed: false });
    expect(fileKind('csv', false).contentType).toBe('text/csv; charset=utf-8');
    expect(fileKind('parquet', true)).toEqual({ extension: 'parquet', contentType: 'application/vnd.apache.parquet', fileType: 'PARQUET', format: 'parquet', compressed: false });
  });

  it('finds the newest manifest by name, ignoring other keys', () => {
    const keys = ['p/manifests/2026-05-01T02-00-00.json', 'p/manifests/2026-05-01T10-00-00.json', 'p/manifests/2026-05-01T09-00-00.json', 'p/manifests/notes.json', 'p/manifests/2026-05-01T11-00-00.json.1.abc.tmp', 'q/manifests/2026-06-01T00-00-00.json'];
    expect(latestManifestKey(keys, '', 'p')).toBe('p/manifests/2026-05-01T10-00-00.json');
    expect(latestManifestKey([], '', 'p')).toBeUndefined();
  });
});

describe('the manifest', () => {
  it('is version 1 with the fields in the worker\'s order, tables from its files, indented with a final newline', () => {
    const file = { key: 'p/observations_v2/2026-05-01T01-00-00.jsonl.gz', table: 'observations_v2', fileType: 'JSONL', format: 'jsonl-gzip', compressed: true, contentType: 'application/gzip', sizeBytes: 10, rowCount: 2 };
    const manifest = buildManifest({ projectId: 'p', exportSource: 'EVENTS', min: T('2026-05-01T00:00:00Z'), max: T('2026-05-01T01:00:00Z'), createdAt: T('2026-05-02T00:00:00Z'), files: [file] });
    expect(Object.keys(manifest)).toEqual(['version', 'projectId', 'exportSource', 'window', 'maxTimestamp', 'createdAt', 'tables', 'files']);
    expect(manifest).toMatchObject({ version: 1, window: { minTimestamp: '2026-05-01T00:00:00.000Z', maxTimestamp: '2026-05-01T01:00:00.000Z' }, maxTimestamp: '2026-05-01T01:00:00.000Z', tables: ['observations_v2'] });
    expect(manifestText(manifest)).toBe(`${JSON.stringify(manifest, null, 2)}\n`);
  });
});

describe('windows', () => {
  const now = T('2026-05-01T12:00:30.750Z');

  it('go one interval at a time and stop at now - 20 minutes, cut to the second', () => {
    const windows = planWindows(T('2026-05-01T09:00:00Z'), now, 'hourly');
    expect(windows.map((w) => [w.min.toISOString(), w.max.toISOString()])).toEqual([
      ['2026-05-01T09:00:00.000Z', '2026-05-01T10:00:00.000Z'],
      ['2026-05-01T10:00:00.000Z', '2026-05-01T11:00:00.000Z'],
      ['2026-05-01T11:00:00.000Z', '2026-05-01T11:40:30.000Z'],
    ]);
    expect(planWindows(T('2026-05-01T09:00:00Z'), now, 'hourly', 2)).toHaveLength(2);
    expect(planWindows(T('2026-05-01T11:40:30Z'), now, 'hourly')).toEqual([]);
  });

  it('cover [start, bound) without gap or overlap, never longer than the interval, with distinct keys', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 * 86_400_000 }), fc.integer({ min: 0, max: 10 * 86_400_000 }), fc.constantFrom(...(Object.keys(INTERVALS) as Array<keyof typeof INTERVALS>)), (back, offset, interval) => {
        const nowMs = 1_780_000_000_000 + offset;
        const start = new Date(nowMs - back);
        const windows = planWindows(start, new Date(nowMs), interval);
        const bound = Math.floor((nowMs - LAG_BUFFER_MS) / 1000) * 1000;
        if (start.getTime() >= bound) return windows.length === 0;
        expect(windows[0]!.min.getTime()).toBe(start.getTime());
        expect(windows.at(-1)!.max.getTime()).toBe(bound);
        for (let i = 0; i < windows.length; i++) {
          const w = windows[i]!;
          expect(w.max.getTime()).toBeGreaterThan(w.min.getTime());
          expect(w.max.getTime() - w.min.getTime()).toBeLessThanOrEqual(INTERVALS[interval]);
          if (i > 0) expect(w.min.getTime()).toBe(windows[i - 1]!.max.getTime());
        }
        expect(new Set(windows.map((w) => keyTimestamp(w.max))).size).toBe(windows.length);
        return true;
      }),
      { numRuns: 100 },
    );
  });
});
