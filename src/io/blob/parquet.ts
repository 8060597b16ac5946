// Parquet files of a blob export, written with hyparquet-writer as pages arrive: rows are held
// until a row group is full (by rows or by bytes, whichever comes first), then encoded and handed
// on, so memory holds one row group. Snappy-compressed, as Parquet readers all take. Column types
// follow what ClickHouse writes for Langfuse's export where the v2 API allows: times as
// TIMESTAMP(MICROS, UTC), flags as BOOLEAN, costs and durations as DOUBLE, objects as JSON text.
import { ByteWriter, ParquetWriter } from 'hyparquet-writer';
import { columnKind } from '../../core/blob-export/rows.js';
import type { BinaryEncoder } from './target.js';

const ROW_GROUP_ROWS = 10_000;
/** Roughly: the text held before a row group is written. */
const ROW_GROUP_BYTES = 32 * 1024 * 1024;

type SchemaElement = ConstructorParameters<typeof ParquetWriter>[0]['schema'][number];

function elementOf(name: string): SchemaElement {
  switch (columnKind(name)) {
    case 'time':
      return { name, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' }, repetition_type: 'OPTIONAL' };
    case 'boolean':
      return { name, type: 'BOOLEAN', repetition_type: 'OPTIONAL' };
    case 'double':
      return { name, type: 'DOUBLE', repetition_type: 'OPTIONAL' };
    case 'integer':
      return { name, type: 'INT64', repetition_type: 'OPTIONAL' };
    case 'json':
      return { name, type: 'BYTE_ARRAY', converted_type: 'JSON', repetition_type: 'OPTIONAL' };
    default:
      return { name, type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' };
  }
}

const CLICKHOUSE_TIME = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})\.(\d{6})$/;

/** A column's value as its Parquet type takes it; what does not fit the type is null. */
function valueFor(kind: ReturnType<typeof columnKind>, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (kind) {
    case 'time': {
      const match = typeof value === 'string' ? CLICKHOUSE_TIME.exec(value) : null;
      if (!match) return null;
      const ms = Date.parse(`${match[1]}T${match[2]}Z`);
      return Number.isNaN(ms) ? null : BigInt(ms) * 1000n + BigInt(Number(match[3]));
    }
    case 'boolean':
      return typeof value === 'boolean' ? value : null;
    case 'double': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
      return Number.isFinite(n) ? n : null;
    }
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
      return Number.isSafeInteger(n) ? BigInt(n) : null;
    }
    case 'json':
      return value;
    default:
      return typeof value === 'string' ? value : JSON.stringify(value);
  }
}

function sizeOf(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value !== null && typeof value === 'object') return 64;
  return 8;
}

/** An encoder for one file with these columns. */
export function parquetEncoder(columns: readonly string[]): BinaryEncoder {
  const kinds = columns.map(columnKind);
  const writer = new ByteWriter();
  const parquet = new ParquetWriter({ writer, schema: [{ name: 'root', num_children: columns.length }, ...columns.map(elementOf)], codec: 'SNAPPY', statistics: false, createdBy: 'llmobs' });
  let held: Record<string, unknown>[] = [];
  let heldBytes = 0;

  const drain = (): Uint8Array => {
    const bytes = writer.getBytes().slice();
    writer.index = 0;
    return bytes;
  };
  const writeGroup = () => {
    if (held.length === 0) return;
    const columnData = columns.map((name, i) => ({ name, data: held.map((row) => valueFor(kinds[i]!, row[name])) }));
    void parquet.write({ columnData, rowGroupSize: held.length });
    held = [];
    heldBytes = 0;
  };
  return {
    rows(rows) {
      for (const row of rows) {
        held.push(row);
        for (const name of columns) heldBytes += sizeOf(row[name]);
        if (held.length >= ROW_GROUP_ROWS || heldBytes >= ROW_GROUP_BYTES) writeGroup();
      }
      return writer.index > 0 ? drain() : undefined;
    },
    finish() {
      writeGroup();
      parquet.finish();
      return drain();
    },
  };
}
