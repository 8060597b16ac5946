// One run of `llmobs export blob`: find where the last run stopped (the newest manifest in DEST),
// plan the windows up to now − 20 minutes, and write each window's files and then its manifest,
// the run's commit point. A window cut short by an error, Ctrl-C or a kill leaves no manifest, so
// the next run writes it again under the same keys.
import { Readable, PassThrough, pipeline } from 'node:stream';
import { createGzip } from 'node:zlib';
import { z } from 'zod';
import type { ApiClient } from '../../api/client.js';
import { FIRST_PAGE, fetchObservationPage, observationPages, retryOptions } from '../../api/observations.js';
import { getProjects } from '../../api/projects.js';
import type { Context } from '../../context.js';
import { buildManifest, dataKey, INTERVALS, exportSourceOf, fileKind, type FileType, type Interval, latestManifestKey, manifestKey, manifestPrefix, manifestText, type ManifestFile, planWindows, type Table, type Window } from '../../core/blob-export/layout.js';
import { exportColumns, exportRow } from '../../core/blob-export/rows.js';
import { SCORE_COLUMNS, SCORE_FIELDS, scoreRow } from '../../core/blob-export/scores.js';
import { SCORE_PAGE_LIMIT, SCORES_V3_ROUTE } from '../../api/scores-export.js';
import { type RowEncoder, textEncoder } from '../../core/blob-export/text.js';
import type { FieldSelection } from '../../core/observations/fields.js';
import { ApiError, CliError, FileError, UsageError } from '../../errors.js';
import type { BinaryEncoder, BlobTarget } from '../../io/blob/target.js';
import { countOf } from '../../output/format.js';
import { formatInteger } from '../../core/thousands.js';
import { watchInterruption } from '../observations/interrupt.js';
import { Meter } from '../observations/meter.js';

/** A manifest is a few kilobytes; a larger object at a manifest key is not one of ours or Langfuse's. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

// Only what continuing needs; other fields (Langfuse adds some without a version bump) are ignored.
const ManifestSchema = z.object({ version: z.number(), projectId: z.string(), maxTimestamp: z.iso.datetime({ offset: true }) });

export interface BlobExportOptions {
  /** The key prefix inside the target ('' or ending with '/'). */
  prefix: string;
  tables: Table[];
  type: FileType;
  gzip: boolean;
  interval: Interval;
  from: Date | undefined;
  selection: FieldSelection;
  dryRun: boolean;
  maxWindows: number | undefined;
  pageSize: number;
  /** `from` is where a first run starts, and is ignored once DEST holds a manifest (a schedule's start). */
  fromIfNew?: boolean | undefined;
  /** Says nothing when no window is due (a schedule asks every minute). */
  quiet?: boolean | undefined;
  /** Writes the parquet files (loaded only when asked for). */
  parquet?: ParquetFactory | undefined;
}

/** Makes one Parquet file's encoder for these columns. */
export type ParquetFactory = (columns: readonly string[]) => BinaryEncoder;


export interface WindowResult {
  minTimestamp: string;
  maxTimestamp: string;
  manifest: string;
  files: ManifestFile[];
}

export interface RunResult {
  projectId: string;
  /** Where the run started, and why there. */
  start: string | null;
  startedFrom: 'manifest' | 'from' | 'earliest' | 'empty';
  /** When the next window is due (one interval after the last manifest's end). */
  due?: string;
  windows: WindowResult[];
  dryRun: boolean;
}

/** One run; the caller has checked the target (target.check()). */
export async function runBlobExport(ctx: Context, client: ApiClient, target: BlobTarget, options: BlobExportOptions): Promise<RunResult> {
  const projectId = await projectOf(client);
  const last = await lastManifest(target, options.prefix, projectId);
  if (last && options.from && !options.fromIfNew) {
    throw new UsageError(`${target.shown} already holds this project's export up to ${last.toISOString()}; --from only sets where a first run starts`, {
      hint: 'Leave --from out to continue from there, or export to another destination or prefix to start over.',
    });
  }
  const from = last ? undefined : options.from;
  let start = last ?? from;
  let startedFrom: RunResult['startedFrom'] = last ? 'manifest' : from ? 'from' : 'earliest';
  if (!start) {
    start = await earliestStart(ctx, client, ctx.now());
    if (!start) startedFrom = 'empty';
  }
  const result: RunResult = { projectId, start: start?.toISOString() ?? null, startedFrom, windows: [], dryRun: options.dryRun };
  if (!start) {
    if (!options.quiet) ctx.out.info(`The project ${projectId} has no observations yet: nothing to export.`);
    return result;
  }
  // As Langfuse's schedule: once caught up, the next window is due one interval after the last.
  const due = last ? new Date(last.getTime() + INTERVALS[options.interval]) : start;
  result.due = due.toISOString();
  const windows = ctx.now() < due ? [] : planWindows(start, ctx.now(), options.interval, options.maxWindows);
  if (windows.length === 0) {
    if (options.quiet) return result;
    ctx.out.info(`Up to date: the export of ${projectId} reaches ${start.toISOString()}; the next window is due at ${result.due}.`);
    return result;
  }
  const kind = fileKind(options.type, options.gzip);
  if (options.dryRun) {
    for (const window of windows) {
      result.windows.push({
        minTimestamp: window.min.toISOString(),
        maxTimestamp: window.max.toISOString(),
        manifest: manifestKey(options.prefix, projectId, window.max),
        files: options.tables.map((table) => ({ key: dataKey(options.prefix, projectId, table, window.max, kind), table, fileType: kind.fileType, format: kind.format, compressed: kind.compressed, contentType: kind.contentType, sizeBytes: 0, rowCount: null })),
      });
    }
    return result;
  }

  const meter = new Meter(ctx, 0, 0);
  meter.announceRetries(client);
  const interruption = watchInterruption((name) => {
    meter.clear();
    ctx.out.info(`${name}: stopping once the page in flight is answered; this window gets no manifest and the next run writes it again (Ctrl-C again quits at once)`);
  });
  try {
    for (const [i, window] of windows.entries()) {
      const files: ManifestFile[] = [];
      for (const table of options.tables) {
        files.push(await writeTable(ctx, client, target, { ...options, projectId, table, window, meter, interruption }));
      }
      const manifest = buildManifest({ projectId, exportSource: exportSourceOf(options.tables), min: window.min, max: window.max, createdAt: ctx.now(), files });
      const key = manifestKey(options.prefix, projectId, window.max);
      await target.put(key, Readable.from([Buffer.from(manifestText(manifest))]), 'application/json');
      result.windows.push({ minTimestamp: manifest.window.minTimestamp, maxTimestamp: manifest.maxTimestamp, manifest: key, files });
      meter.clear();
      const rows = files.reduce((sum, f) => sum + (f.rowCount ?? 0), 0);
      ctx.out.info(`window ${i + 1} of ${windows.length}: ${window.min.toISOString()} to ${window.max.toISOString()}, ${countOf(rows, 'row')} in ${countOf(files.length, 'file')}, ${key}`);
    }
  } finally {
    interruption.dispose();
    meter.clear();
  }
  const total = result.windows.reduce((sum, w) => sum + w.files.reduce((s, f) => s + (f.rowCount ?? 0), 0), 0);
  meter.done(`Exported ${formatInteger(total)} observations in ${countOf(result.windows.length, 'window')} to ${target.shown}`);
  return result;
}

interface TableJob extends BlobExportOptions {
  projectId: string;
  table: Table;
  window: Window;
  meter: Meter;
  interruption: ReturnType<typeof watchInterruption>;
}

/** One table of one window, streamed to its key. */
async function writeTable(ctx: Context, client: ApiClient, target: BlobTarget, job: TableJob): Promise<ManifestFile> {
  if (job.table !== 'observations_v2' && job.table !== 'scores') throw new UsageError(`the ${job.table} table cannot be exported yet`);
  const kind = fileKind(job.type, job.gzip);
  const key = dataKey(job.prefix, job.projectId, job.table, job.window.max, kind);
  const counted = { rows: 0 };
  const warn = (line: string) => {
    job.meter.clear();
    ctx.out.warn(line);
  };
  let names: string[];
  let toRow: (item: Record<string, unknown>) => Record<string, unknown>;
  let pages: ReturnType<typeof observationPages>;
  if (job.table === 'scores') {
    // Scores by their timestamp, in the same windows (the v3 API's from inclusive, to exclusive).
    names = [...SCORE_COLUMNS];
    toRow = scoreRow;
    const query = { fields: SCORE_FIELDS, fromTimestamp: job.window.min.toISOString(), toTimestamp: job.window.max.toISOString() };
    pages = observationPages(client, query, FIRST_PAGE, { ...retryOptions(ctx), warn, pageSize: SCORE_PAGE_LIMIT, route: SCORES_V3_ROUTE });
  } else {
    const columns = exportColumns(job.selection, job.type === 'parquet');
    names = columns.map((c) => c.name);
    toRow = (item) => exportRow(item, columns);
    const query = { fields: job.selection.groups.join(','), fromStartTime: job.window.min.toISOString(), toStartTime: job.window.max.toISOString() };
    pages = observationPages(client, query, FIRST_PAGE, { ...retryOptions(ctx), warn, pageSize: job.pageSize });
  }
  const interruption = job.interruption;
  async function* source(): AsyncGenerator<Buffer> {
    const parquet = job.type === 'parquet' ? job.parquet!(names) : undefined;
    const text: RowEncoder | undefined = job.type === 'parquet' ? undefined : textEncoder(job.type, names);
    if (text) yield Buffer.from(text.header());
    for await (const page of pages) {
      const rows = page.items.map(toRow);
      if (parquet) {
        const bytes = parquet.rows(rows);
        if (bytes?.length) yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      } else if (rows.length) {
        yield Buffer.from(text!.rows(rows, counted.rows));
      }
      counted.rows += rows.length;
      job.meter.page(rows.length);
      if (interruption.interrupted) {
        throw new CliError(`interrupted (${interruption.name}): the window ending ${job.window.max.toISOString()} was not finished and has no manifest`, 130, 'interrupted', { hint: 'Run the same command again: it writes that window again and continues.' });
      }
    }
    if (parquet) {
      const bytes = parquet.finish();
      yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } else {
      const footer = text!.footer(counted.rows);
      if (footer) yield Buffer.from(footer);
    }
  }
  const body = new PassThrough();
  const stages: NodeJS.ReadableStream[] = [Readable.from(source())];
  if (kind.compressed) stages.push(createGzip());
  let failure: unknown;
  pipeline([...stages, body] as unknown as [NodeJS.ReadableStream, NodeJS.WritableStream], (error) => {
    if (error) failure = error;
  });
  let sizeBytes: number;
  try {
    sizeBytes = await target.put(key, body, kind.contentType);
  } catch (error) {
    // The source's own error (the server's answer, Ctrl-C) says more than the stream it broke.
    throw failure instanceof CliError ? failure : error;
  }
  if (failure) throw failure;
  return { key, table: job.table, fileType: kind.fileType, format: kind.format, compressed: kind.compressed, contentType: kind.contentType, sizeBytes, rowCount: job.type === 'parquet' ? null : counted.rows };
}

async function projectOf(client: ApiClient): Promise<string> {
  const { projects } = await getProjects(client);
  const id = projects[0]?.id;
  if (!id) throw new ApiError('the server lists no project for these keys, so the export has no project id to write under', { status: 200, method: 'GET', path: '/api/public/projects' });
  return id;
}

/** Where the newest manifest in DEST ends, if there is one. */
async function lastManifest(target: BlobTarget, prefix: string, projectId: string): Promise<Date | undefined> {
  const key = latestManifestKey(await target.list(manifestPrefix(prefix, projectId)), prefix, projectId);
  if (!key) return undefined;
  const text = await target.read(key, MAX_MANIFEST_BYTES);
  if (text === undefined) return undefined;
  let parsed;
  try {
    parsed = ManifestSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success || parsed.data.projectId !== projectId) {
    throw new FileError(`${key} in ${target.shown} is not a manifest of this project's export`, { hint: 'Remove it, or export to another destination or prefix.' });
  }
  if (parsed.data.version !== 1) {
    throw new FileError(`${key} in ${target.shown} is a version ${parsed.data.version} manifest; llmobs writes and continues version 1`, { hint: 'Export to another destination or prefix.' });
  }
  return new Date(parsed.data.maxTimestamp);
}

/**
 * The second the project's first observation started in, found by halving: "is there one before
 * T?" is a one-row query any v2 server answers, where the earliest start time is not. Langfuse's
 * full-history export starts there too (its minimum start time, cut to the second).
 */
async function earliestStart(ctx: Context, client: ApiClient, now: Date): Promise<Date | undefined> {
  const options = retryOptions(ctx);
  const anyBefore = async (second: number) => (await fetchObservationPage(client, { fields: 'core', limit: 1, toStartTime: new Date(second * 1000).toISOString() }, null, options)).items.length > 0;
  let high = Math.floor(now.getTime() / 1000) + 1;
  if (!(await anyBefore(high))) return undefined;
  let low = 0;
  // Invariant: one starts before `high`, none before `low`.
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await anyBefore(mid)) high = mid;
    else low = mid;
  }
  return new Date(low * 1000);
}
