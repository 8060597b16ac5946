// A consumer of Langfuse's blob-storage export, written from its documentation
// (export-to-blob-storage.mdx, "Manifest"): it lists {prefix}{projectId}/manifests/, reads only
// the files a manifest lists, parses each by its fileType (gunzipped when compressed), and keeps
// one row per id, since adjacent windows may share their boundary. It knows nothing of llmobs.
import { gunzipSync } from 'node:zlib';

export interface BlobStore {
  /** Every key under a prefix. */
  list(prefix: string): Promise<string[]>;
  get(key: string): Promise<Buffer>;
}

export interface ReadExport {
  manifests: Record<string, unknown>[];
  /** Rows by id, per table. */
  rows: Map<string, Map<string, Record<string, unknown>>>;
  /** Ids met in more than one window (with their count), per table. */
  repeated: Map<string, number>;
  /** Keys under the project that no manifest lists (left by a run that did not finish). */
  unlisted: string[];
  /** Each listed file: what its manifest says against what was read. */
  files: Array<{ key: string; sizeBytes: number; bytes: number; rowCount: number | null; rows: number }>;
}

/** RFC 4180: quoted fields with doubled quotes, LF or CRLF line ends. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length) row.push(field), rows.push(row);
  return rows;
}

export type ParquetRows = (bytes: Buffer) => Promise<Record<string, unknown>[]>;

export async function parseFile(bytes: Buffer, file: { fileType: string; compressed: boolean }, parquet?: ParquetRows): Promise<Record<string, unknown>[]> {
  const data = file.compressed ? gunzipSync(bytes) : bytes;
  switch (file.fileType) {
    case 'JSONL':
      return data.toString('utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
    case 'JSON':
      return JSON.parse(data.toString('utf8'));
    case 'CSV': {
      const [header, ...body] = parseCsv(data.toString('utf8'));
      return body.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]])));
    }
    case 'PARQUET':
      if (!parquet) throw new Error('no Parquet reader given');
      return parquet(data);
    default:
      throw new Error(`unknown fileType ${file.fileType}`);
  }
}

export async function readExport(store: BlobStore, prefix: string, projectId: string, parquet?: ParquetRows): Promise<ReadExport> {
  const manifestKeys = (await store.list(`${prefix}${projectId}/manifests/`)).filter((k) => k.endsWith('.json')).sort();
  const result: ReadExport = { manifests: [], rows: new Map(), repeated: new Map(), unlisted: [], files: [] };
  const listed = new Set<string>(manifestKeys);
  for (const key of manifestKeys) {
    const manifest = JSON.parse((await store.get(key)).toString('utf8'));
    result.manifests.push(manifest);
    for (const file of manifest.files as Array<{ key: string; table: string; fileType: string; compressed: boolean; sizeBytes: number; rowCount: number | null }>) {
      listed.add(file.key);
      const bytes = await store.get(file.key);
      const rows = await parseFile(bytes, file, parquet);
      result.files.push({ key: file.key, sizeBytes: file.sizeBytes, bytes: bytes.length, rowCount: file.rowCount, rows: rows.length });
      const table = result.rows.get(file.table) ?? new Map();
      result.rows.set(file.table, table);
      for (const row of rows) {
        const id = String(row.id);
        if (table.has(id)) result.repeated.set(id, (result.repeated.get(id) ?? 1) + 1);
        table.set(id, row);
      }
    }
  }
  result.unlisted = (await store.list(`${prefix}${projectId}/`)).filter((k) => !listed.has(k));
  return result;
}
