// Checks shared by the blob export tests: rows a consumer read back against what
// `observations export` writes for the same observations.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect } from 'vitest';
import { llmobs } from './bin.js';
import { parquetReadObjects } from 'hyparquet';
import type { BlobStore, ParquetRows, ReadExport } from './blob-reader.js';

/** A Parquet reader for the consumer: hyparquet, which knows nothing of the writer. */
export const readParquet: ParquetRows = async (bytes) => (await parquetReadObjects({ file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer })) as Record<string, unknown>[];

/** The fake data server's project. */
export const PROJECT = 'project-data';

/** Langfuse's observations_v2 columns and the v2 API field each comes from (event-query-builder.ts). */
const COLUMNS: Array<[string, string]> = [
  ['id', 'id'], ['trace_id', 'traceId'], ['start_time', 'startTime'], ['end_time', 'endTime'], ['project_id', 'projectId'], ['parent_observation_id', 'parentObservationId'], ['type', 'type'],
  ['name', 'name'], ['level', 'level'], ['status_message', 'statusMessage'], ['version', 'version'], ['environment', 'environment'], ['bookmarked', 'bookmarked'], ['public', 'public'], ['user_id', 'userId'], ['session_id', 'sessionId'], ['is_root_observation', 'isRootObservation'],
  ['completion_start_time', 'completionStartTime'], ['created_at', 'createdAt'], ['updated_at', 'updatedAt'],
  ['input', 'input'], ['output', 'output'], ['metadata', 'metadata'],
  ['provided_model_name', 'providedModelName'], ['model_id', 'internalModelId'], ['model_parameters', 'modelParameters'],
  ['usage_details', 'usageDetails'], ['cost_details', 'costDetails'], ['total_cost', 'totalCost'], ['usage_pricing_tier_name', 'usagePricingTierName'],
  ['prompt_id', 'promptId'], ['prompt_name', 'promptName'], ['prompt_version', 'promptVersion'],
  ['latency', 'latency'], ['time_to_first_token', 'timeToFirstToken'],
  ['tags', 'tags'], ['release', 'release'], ['trace_name', 'traceName'],
  ['input_price', 'inputPrice'], ['output_price', 'outputPrice'], ['total_price', 'totalPrice'],
];
const PRICES = new Set(['input_price', 'output_price', 'total_price']);
const TIMES = new Set(['startTime', 'endTime', 'completionStartTime', 'createdAt', 'updatedAt']);

/** `2026-05-01 12:00:00.123000` (UTC) as epoch ms. */
function clickhouseMs(text: string): number {
  expect(text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
  return Date.parse(`${text.replace(' ', 'T').slice(0, 23)}Z`);
}

/**
 * Each exported row against the observation `observations export` wrote. `text`: CSV, every value
 * a string. `parquet`: typed values as a Parquet reader gives them (times as Date, integers as
 * bigint, JSON columns parsed), and no price columns, as in Langfuse's Parquet files.
 */
export function expectSameRows(rows: Map<string, Record<string, unknown>>, reference: Record<string, unknown>[], mode: 'json' | 'text' | 'parquet') {
  expect([...rows.keys()].sort()).toEqual(reference.map((o) => o.id as string).sort());
  for (const observation of reference) {
    const row = rows.get(observation.id as string)!;
    for (const [column, field] of COLUMNS) {
      const want = observation[field] ?? null;
      const got = row[column];
      const what = `${column} of ${observation.id}`;
      if (mode === 'parquet' && PRICES.has(column)) expect(row, what).not.toHaveProperty(column);
      else if (mode === 'parquet' && TIMES.has(field)) expect(got === null ? null : (got as Date).getTime(), what).toBe(want === null ? null : Date.parse(want as string));
      else if (TIMES.has(field) && want !== null) expect(clickhouseMs(got as string), what).toBe(Date.parse(want as string));
      else if (mode === 'text') expect(got, what).toBe(want === null ? '' : typeof want === 'object' ? JSON.stringify(want) : String(want));
      else expect(typeof got === 'bigint' ? Number(got) : (got ?? null), what).toEqual(want);
    }
  }
}

export async function reference(env: Record<string, string | undefined>, dir: string, to: string): Promise<Record<string, unknown>[]> {
  const file = join(dir, 'reference.jsonl');
  const result = await llmobs(['observations', 'export', '--output', file, '--to', to], { env });
  expect(result.exitCode, result.stderr).toBe(0);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
}


export function folderStore(root: string): BlobStore {
  const walk = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])) : []);
  return {
    list: async (prefix) => walk(root).map((p) => relative(root, p).split('\\').join('/')).filter((k) => k.startsWith(prefix)),
    get: async (key) => readFileSync(join(root, key)),
  };
}

/** A complete export under `prefix`: Langfuse's manifests, files as listed, windows without gap, no id twice. */
export function expectWholeExport(read: ReadExport, prefix = '') {
  expect(read.repeated.size).toBe(0);
  expect(read.unlisted.filter((k) => !k.endsWith('.llmobs-lock'))).toEqual([]);
  // Each manifest is Langfuse's version 1, its files as they are in the folder.
  for (const manifest of read.manifests) {
    expect(Object.keys(manifest)).toEqual(['version', 'projectId', 'exportSource', 'window', 'maxTimestamp', 'createdAt', 'tables', 'files']);
    expect(manifest).toMatchObject({ version: 1, projectId: PROJECT, exportSource: 'EVENTS', tables: ['observations_v2'] });
    const window = manifest.window as { minTimestamp: string; maxTimestamp: string };
    expect(window.maxTimestamp).toBe(manifest.maxTimestamp);
    for (const file of manifest.files as Array<{ key: string }>) {
      expect(file.key).toBe(`${prefix}${PROJECT}/observations_v2/${window.maxTimestamp.replace(/:/g, '-').slice(0, 19)}.${file.key.split('.').slice(1).join('.')}`);
    }
  }
  for (const file of read.files) {
    expect(file.bytes, file.key).toBe(file.sizeBytes);
    if (file.rowCount !== null) expect(file.rows, file.key).toBe(file.rowCount);
  }
  // The windows follow each other without a gap.
  const windows = read.manifests.map((m) => m.window as { minTimestamp: string; maxTimestamp: string });
  for (let i = 1; i < windows.length; i++) expect(windows[i]!.minTimestamp).toBe(windows[i - 1]!.maxTimestamp);
}

