import { parquetMetadata, parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { parquetEncoder } from '../../../../src/io/blob/parquet.js';

const COLUMNS = ['id', 'start_time', 'bookmarked', 'total_cost', 'prompt_version', 'metadata', 'usage_details.input', 'input'];

function row(i: number): Record<string, unknown> {
  return {
    id: `o-${i}`,
    start_time: `2026-05-01 12:00:${String(i % 60).padStart(2, '0')}.123456`,
    bookmarked: i % 2 === 0,
    total_cost: i % 3 === 0 ? '0.5' : i / 1000,
    prompt_version: i % 4 === 0 ? null : 3,
    metadata: { n: String(i) },
    'usage_details.input': i,
    input: i % 5 === 0 ? { role: 'user' } : `text ${i}`,
  };
}

async function encode(rows: Record<string, unknown>[], pageSize: number) {
  const encoder = parquetEncoder(COLUMNS);
  const chunks: Uint8Array[] = [];
  let early = 0;
  for (let i = 0; i < rows.length; i += pageSize) {
    const bytes = encoder.rows(rows.slice(i, i + pageSize));
    if (bytes) {
      chunks.push(bytes);
      if (i + pageSize < rows.length) early++;
    }
  }
  chunks.push(encoder.finish());
  const whole = Buffer.concat(chunks);
  return { file: whole.buffer.slice(whole.byteOffset, whole.byteOffset + whole.byteLength) as ArrayBuffer, early };
}

describe('parquetEncoder', () => {
  it('hands on each row group as it is written, and the file reads back whole with its types', async () => {
    const rows = Array.from({ length: 25_000 }, (_, i) => row(i));
    const { file, early } = await encode(rows, 1000);
    expect(early).toBeGreaterThanOrEqual(2);
    const meta = parquetMetadata(file);
    expect(meta.row_groups.length).toBe(3);
    expect(Number(meta.num_rows)).toBe(25_000);
    const back = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    expect(back).toHaveLength(25_000);
    for (const i of [0, 1, 3, 4, 5, 24_999]) {
      const got = back[i]!;
      expect(got.id).toBe(`o-${i}`);
      // Microseconds are kept: the reader gives milliseconds as a Date, the rest is in the file.
      expect((got.start_time as Date).toISOString()).toBe(`2026-05-01T12:00:${String(i % 60).padStart(2, '0')}.123Z`);
      expect(got.bookmarked).toBe(i % 2 === 0);
      expect(got.total_cost).toBe(i % 3 === 0 ? 0.5 : i / 1000);
      expect(got.prompt_version).toBe(i % 4 === 0 ? null : 3n);
      expect(got.metadata).toEqual({ n: String(i) });
      expect(got['usage_details.input']).toBe(i);
      expect(got.input).toBe(i % 5 === 0 ? '{"role":"user"}' : `text ${i}`);
    }
    const time = meta.schema.find((e) => e.name === 'start_time')!;
    expect(time.logical_type).toEqual({ type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' });
  });

  it('writes a valid file with no rows', async () => {
    const { file } = await encode([], 1000);
    expect(Number(parquetMetadata(file).num_rows)).toBe(0);
    expect(await parquetReadObjects({ file })).toEqual([]);
  });

  it('gives a value that does not fit its column\'s type as null', async () => {
    const { file } = await encode([{ id: 'x', start_time: 'yesterday', bookmarked: 'yes', total_cost: 'cheap', prompt_version: 1.5 }], 10);
    expect((await parquetReadObjects({ file }))[0]).toMatchObject({ id: 'x', start_time: null, bookmarked: null, total_cost: null, prompt_version: null });
  });
});
