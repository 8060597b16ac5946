// Langfuse's blob-storage export layout (worker/src/features/blobstorage/manifest.ts and
// handleBlobStorageIntegrationProjectJob.ts): where each run's files and its manifest go, what the
// manifest says, and which window a run covers. Pure: no fs, no network.

/** Langfuse's exportFrequency values and the window each gives a run. */
export const INTERVALS = {
  every_20_minutes: 20 * 60_000,
  hourly: 60 * 60_000,
  daily: 24 * 60 * 60_000,
  weekly: 7 * 24 * 60 * 60_000,
} as const;

export type Interval = keyof typeof INTERVALS;

/** `--interval` spellings: Langfuse's names, and 20m for the shortest. */
export const INTERVAL_NAMES: Readonly<Record<string, Interval>> = {
  '20m': 'every_20_minutes',
  every_20_minutes: 'every_20_minutes',
  hourly: 'hourly',
  daily: 'daily',
  weekly: 'weekly',
};

/** A run never reads the last 20 minutes: data still arriving there would be missed (BLOB_STORAGE_LAG_BUFFER_MS). */
export const LAG_BUFFER_MS = 20 * 60_000;

export const TABLES = ['observations_v2', 'scores', 'traces', 'observations'] as const;
export type Table = (typeof TABLES)[number];

export const FILE_TYPES = ['parquet', 'jsonl', 'csv', 'json'] as const;
export type FileType = (typeof FILE_TYPES)[number];

const TEXT_TYPES = {
  json: { contentType: 'application/json; charset=utf-8', fileType: 'JSON' },
  csv: { contentType: 'text/csv; charset=utf-8', fileType: 'CSV' },
  jsonl: { contentType: 'application/x-ndjson; charset=utf-8', fileType: 'JSONL' },
} as const;

/** What a file of this type is called and declared as, in the key and in the manifest. */
export interface FileKind {
  extension: string;
  contentType: string;
  /** The manifest's fileType (Langfuse's enum: PARQUET, CSV, JSON, JSONL). */
  fileType: string;
  /** The manifest's format (json-gzip, csv-raw, parquet ...). */
  format: string;
  compressed: boolean;
}

/** Parquet compresses inside the file: no .gz and no gzip flag, whatever was asked. */
export function fileKind(type: FileType, gzip: boolean): FileKind {
  if (type === 'parquet') return { extension: 'parquet', contentType: 'application/vnd.apache.parquet', fileType: 'PARQUET', format: 'parquet', compressed: false };
  const text = TEXT_TYPES[type];
  return {
    extension: gzip ? `${type}.gz` : type,
    contentType: gzip ? 'application/gzip' : text.contentType,
    fileType: text.fileType,
    format: `${type}-${gzip ? 'gzip' : 'raw'}`,
    compressed: gzip,
  };
}

/** The stem of a run's keys: its window's end as ISO, `:` as `-`, cut to seconds (formatBlobExportTimestamp). */
export function keyTimestamp(date: Date): string {
  return date.toISOString().replace(/:/g, '-').substring(0, 19);
}

/** `prefix` is '' or ends with '/'. */
export function dataKey(prefix: string, projectId: string, table: Table, maxTimestamp: Date, kind: FileKind): string {
  return `${prefix}${projectId}/${table}/${keyTimestamp(maxTimestamp)}.${kind.extension}`;
}

export function manifestPrefix(prefix: string, projectId: string): string {
  return `${prefix}${projectId}/manifests/`;
}

export function manifestKey(prefix: string, projectId: string, maxTimestamp: Date): string {
  return `${manifestPrefix(prefix, projectId)}${keyTimestamp(maxTimestamp)}.json`;
}

export interface ManifestFile {
  key: string;
  table: string;
  fileType: string;
  format: string;
  compressed: boolean;
  contentType: string;
  /** After gzip, for compressed files. */
  sizeBytes: number;
  /** Null where not counted (Langfuse leaves Parquet uncounted). */
  rowCount: number | null;
}

export interface Manifest {
  version: 1;
  projectId: string;
  exportSource: string;
  window: { minTimestamp: string; maxTimestamp: string };
  maxTimestamp: string;
  createdAt: string;
  tables: string[];
  files: ManifestFile[];
}

/** The database name of the enriched-observations source (Langfuse's EVENTS), as its worker writes it. */
export function exportSourceOf(tables: readonly Table[]): string {
  const events = tables.includes('observations_v2');
  const legacy = tables.includes('traces') || tables.includes('observations');
  if (events && legacy) return 'TRACES_OBSERVATIONS_EVENTS';
  return legacy ? 'TRACES_OBSERVATIONS' : 'EVENTS';
}

export function buildManifest(params: { projectId: string; exportSource: string; min: Date; max: Date; createdAt: Date; files: ManifestFile[] }): Manifest {
  return {
    version: 1,
    projectId: params.projectId,
    exportSource: params.exportSource,
    window: { minTimestamp: params.min.toISOString(), maxTimestamp: params.max.toISOString() },
    maxTimestamp: params.max.toISOString(),
    createdAt: params.createdAt.toISOString(),
    tables: [...new Set(params.files.map((f) => f.table))],
    files: params.files,
  };
}

/** The manifest as Langfuse writes it: indented, one newline at the end. */
export function manifestText(manifest: Manifest): string {
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

export interface Window {
  min: Date;
  max: Date;
}

/**
 * The windows a run writes, in order: from `start` one interval at a time, each cut at
 * now − 20 minutes; the last may be shorter. None when `start` is already past that bound.
 * `limit` caps how many (a run that catches up stops there; the next continues).
 *
 * The bound is cut to a whole second: keys name a window by its end to the second, so a window
 * ending within the second the last one ended in would overwrite that run's files and manifest
 * (langfuse/langfuse#15617).
 */
export function planWindows(start: Date, now: Date, interval: Interval, limit = Number.POSITIVE_INFINITY): Window[] {
  const bound = Math.floor((now.getTime() - LAG_BUFFER_MS) / 1000) * 1000;
  const step = INTERVALS[interval];
  const windows: Window[] = [];
  let min = start.getTime();
  while (min < bound && windows.length < limit) {
    const max = Math.min(min + step, bound);
    windows.push({ min: new Date(min), max: new Date(max) });
    min = max;
  }
  return windows;
}

/** The newest manifest among keys under the manifests prefix: their names sort by time. */
export function latestManifestKey(keys: readonly string[], prefix: string, projectId: string): string | undefined {
  const under = manifestPrefix(prefix, projectId);
  const stem = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.json$/;
  let latest: string | undefined;
  for (const key of keys) {
    if (!key.startsWith(under) || !stem.test(key.slice(under.length))) continue;
    if (latest === undefined || key > latest) latest = key;
  }
  return latest;
}
