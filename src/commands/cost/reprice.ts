// The work of cost recompute: the definitions to price with, then every generation of an export
// file (read in chunks of lines, see recompute-lines.ts) or of the observations API (v2, or v1
// where the server has no v2; page by page), re-priced, each result a line of --output, which
// appears only when every one was read.
import { performance } from 'node:perf_hooks';
import type { Query } from '../../api/client.js';
import { routedObservationPages } from '../../api/observation-routes.js';
import { FIRST_PAGE, OBSERVATION_PAGE_LIMIT, retryOptions } from '../../api/observations.js';
import type { Context } from '../../context.js';
import { loadPatternEngine } from '../../core/models/engine.js';
import { loadDecimal } from '../../core/precision.js';
import { Recomputer } from '../../core/spend/recompute.js';
import { formatInteger } from '../../core/thousands.js';
import { FileError, UsageError } from '../../errors.js';
import type { AtomicStream } from '../../io/atomic.js';
import { cannotRead, openInputStream, openOutputFile } from '../../io/files.js';
import { LineTooLongError, lineChunks } from '../../io/line-chunks.js';
import { definitionsMode, describeOrigin, loadDefinitions, REMOTE_CACHE_TTL_MS } from '../../model-definitions/index.js';
import { engineCounter } from '../../tokenizer/index.js';
import { JsonBytes } from '../estimate/json-bytes.js';
import { Meter } from '../observations/meter.js';
import { RecomputeLines, writeResult } from './recompute-lines.js';

/** Bytes of an input file handed to the re-pricing at a time. */
const CHUNK = 1 << 18;
/** Failures said one by one; the rest are counted. */
const MAX_REPORTED = 20;
/** What a generation needs to be priced again: its model, usage, input and output, time, level, tier attributes. */
const API_FIELDS = 'core,basic,time,io,metadata,model,usage';

export interface RepriceStats {
  /** Lines of the input file (0 from the API). */
  lines: number;
  generations: number;
  failed: number;
  /** Failures not said one by one. */
  unreported: number;
  /** Observations without a model or cost, left out. */
  skipped: number;
  seconds: number;
}

/** Where the generations come from: an export file (- for stdin), or the API with a query. */
export type RepriceSource = { file: string } | { query: Query; limit: number | undefined };

/** The definitions --offline, --remote and --models-file name (said on stderr), ready to price with. */
export async function loadRecomputer(ctx: Context, opts: { offline: boolean; remote: boolean; modelsFile?: string | undefined; ignoreStartDates: boolean }): Promise<Recomputer> {
  const loaded = await loadDefinitions(ctx, { mode: definitionsMode(opts), modelsFile: opts.modelsFile, maxAgeMs: REMOTE_CACHE_TTL_MS });
  ctx.out.info(`Prices from ${describeOrigin(loaded.origin)}.`);
  await Promise.all([loadPatternEngine(), loadDecimal()]);
  return new Recomputer({ definitions: loaded.definitions, unusable: loaded.unusable, count: engineCounter, datedMatching: !opts.ignoreStartDates });
}

/** The query of the generations the API flags select: GENERATION unless --type says otherwise. */
export function apiQuery(filters: Query, type: string | undefined): Query {
  return { ...filters, type: type ?? 'GENERATION', fields: API_FIELDS };
}

/** Re-prices every generation of `source`; with `output`, writes that file (whole, or not at all). */
export async function reprice(ctx: Context, source: RepriceSource, recomputer: Recomputer, output: string | undefined): Promise<RepriceStats> {
  const sink = output === undefined ? undefined : await openOutputFile(ctx, output);
  const started = performance.now();
  let counts: { lines: number; generations: number; failed: number };
  try {
    counts = 'file' in source ? await fromFile(ctx, source.file, recomputer, sink) : await fromApi(ctx, source.query, source.limit, recomputer, sink);
    await sink?.commit();
  } catch (error) {
    await sink?.discard();
    throw error;
  }
  const seconds = (performance.now() - started) / 1000;
  return { ...counts, unreported: Math.max(0, counts.failed - MAX_REPORTED), skipped: recomputer.skipped, seconds };
}

async function fromFile(ctx: Context, file: string, recomputer: Recomputer, sink: AtomicStream | undefined) {
  const { stream, size } = await openInputStream(ctx, file, 1 << 20);
  const lines = new RecomputeLines(recomputer, sink !== undefined);
  const progress = ctx.out.progress();
  const started = performance.now();
  const stats = { lines: 0, generations: 0, failed: 0 };
  let reported = 0;
  let bytes = 0;
  try {
    for await (const chunk of lineChunks(stream as AsyncIterable<unknown>, CHUNK)) {
      bytes += chunk.length;
      const outcome = lines.processChunk(chunk.toString('utf8'), stats.lines + 1);
      stats.lines += outcome.lines;
      stats.generations += outcome.generations;
      stats.failed += outcome.failed;
      for (const failure of outcome.failures) if (reported++ < MAX_REPORTED) ctx.out.warn(`line ${failure.line}: ${failure.message}`);
      if (outcome.output && sink) await sink.write(outcome.output);
      progress.update(() => {
        const rate = Math.round(stats.generations / Math.max((performance.now() - started) / 1000, 0.001));
        return `re-pricing: ${formatInteger(stats.generations)} generations${size ? ` ${Math.min(100, Math.floor((bytes / size) * 100))}%` : ''}, ${formatInteger(rate)}/s`;
      });
    }
  } catch (error) {
    if (error instanceof LineTooLongError) throw cannotRead(file, error);
    // The file system's errors while reading (the output's are file errors already).
    if (error instanceof Error && 'code' in error && typeof (error as NodeJS.ErrnoException).code === 'string' && !(error instanceof FileError)) throw cannotRead(file, error);
    throw error;
  } finally {
    progress.clear();
  }
  if (stats.generations === 0 && stats.failed > 0) {
    throw new UsageError(`${file} holds no observation llmobs can read (${stats.failed} lines failed)`, { hint: 'cost recompute reads what observations export writes as JSON Lines (--format jsonl) or JSON; CSV cannot carry usage maps whole.' });
  }
  return stats;
}

async function fromApi(ctx: Context, query: Query, limit: number | undefined, recomputer: Recomputer, sink: AtomicStream | undefined) {
  const client = await ctx.api();
  const meter = new Meter(ctx, 0, 0, 'generations');
  meter.announceRetries(client);
  const stats = { lines: 0, generations: 0, failed: 0 };
  let reported = 0;
  try {
    const pages = routedObservationPages(ctx, client, query, FIRST_PAGE, {
      ...retryOptions(ctx),
      warn: (line) => {
        meter.clear();
        ctx.out.warn(line);
      },
      max: limit,
      pageSize: OBSERVATION_PAGE_LIMIT,
      maxPages: ctx.globals.maxPages,
    });
    for await (const page of pages) {
      const out = sink ? new JsonBytes(page.items.length * 200 + 1024) : null;
      for (const item of page.items) {
        const result = recomputer.add(item);
        if (!result) continue;
        stats.generations++;
        if (result.error) {
          stats.failed++;
          if (reported++ < MAX_REPORTED) ctx.out.warn(`${result.id ?? 'a generation'}: ${result.error}`);
        }
        if (out) writeResult(out, result);
      }
      if (out && sink) await sink.write(out.bytes());
      meter.page(page.items.length);
    }
  } finally {
    meter.clear();
  }
  return stats;
}
