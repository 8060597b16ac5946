// `llmobs estimate --batch FILE.jsonl`: one generation per line, one result per line, in order.
// Memory stays flat: the input is read as bytes and cut into chunks of whole lines, each chunk's
// results are written as UTF-8 before the next is read (waiting for a slow reader), and only
// per-model totals are kept. A bad line is reported and the rest go on.
import type { Context } from '../../context.js';
import { loadPatternEngine } from '../../core/models/engine.js';
import { loadDecimal, StoredCostSum } from '../../core/precision.js';
import { cannotRead, openInputStream } from '../../io/files.js';
import { lineChunks } from '../../io/line-chunks.js';
import { type DefinitionsMode, type DefinitionsOrigin, describeOrigin, loadDefinitions, REMOTE_CACHE_TTL_MS } from '../../model-definitions/index.js';
import { BatchProcessor, type ChunkResult, mergeTotals, type ModelTotals } from './batch-lines.js';
import { formatUsd } from '../../output/format.js';
import { formatInteger } from '../../core/thousands.js';
import { compareStrings } from '../../core/order.js';

const CHUNK = 1 << 18;
const MAX_REPORTED_ERRORS = 20;

export interface BatchOptions {
  file: string;
  modelsFile?: string | undefined;
  mode: DefinitionsMode;
}

export async function runBatch(ctx: Context, options: BatchOptions): Promise<void> {
  const loaded = await loadDefinitions(ctx, { mode: options.mode, modelsFile: options.modelsFile, maxAgeMs: REMOTE_CACHE_TTL_MS });
  const { stream, size } = await openInputStream(ctx, options.file, 1 << 16);
  // Many names: the patterns some of them need compiled are not known ahead.
  await Promise.all([loadPatternEngine(), loadDecimal()]);
  const processor = new BatchProcessor(loaded.definitions, loaded.unusable);

  const totals = new Map<string, ModelTotals>();
  const stats = { lines: 0, estimated: 0, failed: 0, skipped: 0 };
  const started = Date.now();
  const progress = ctx.out.progress();
  let reported = 0;
  let bytesRead = 0;
  let nextLine = 1;

  const consume = async (result: ChunkResult) => {
    await ctx.out.writeBytes(result.output);
    stats.lines += result.lines;
    stats.estimated += result.estimated;
    stats.failed += result.failed;
    stats.skipped += result.skipped;
    mergeTotals(totals, result.totals);
    for (const error of result.errors) {
      if (reported++ < MAX_REPORTED_ERRORS) ctx.out.warn(`line ${error.line}: ${error.message}`);
    }
    progress.update(() => progressText(stats.lines, bytesRead, size, started));
  };
  const submit = async (bytes: Buffer) => {
    const result = processor.processChunk(bytes.toString('utf8'), nextLine);
    nextLine += result.lines;
    await consume(result);
  };

  try {
    for await (const chunk of lineChunks(stream as AsyncIterable<unknown>, CHUNK)) {
      bytesRead += chunk.length;
      await submit(chunk);
    }
  } catch (error) {
    throw cannotRead(options.file, error);
  }

  const models = [...totals.values()].sort((a, b) => compareStrings(a.model, b.model));
  // Stored costs added exactly, as the server's reports add them: no float drift over many lines.
  const totalCost = models.reduce((sum, entry) => sum.addSum(entry.cost), new StoredCostSum()).value();
  progress.clear();
  if (ctx.globals.json) {
    await ctx.out.writeChunk(
      `${JSON.stringify({
        summary: {
          ...stats,
          totalCost,
          models: models.map(({ model, definition, generations, usage, cost, withoutCost }) => ({ model, definition, generations, usage, totalCost: cost.value(), withoutCost })),
          definitions: loaded.origin,
        },
      })}\n`,
    );
  } else {
    printSummary(ctx, models, stats, totalCost, Date.now() - started, loaded.origin);
  }
  if (stats.failed > 0) {
    if (stats.failed > MAX_REPORTED_ERRORS) ctx.out.warn(`${stats.failed - MAX_REPORTED_ERRORS} more lines failed (see their "error" results)`);
    ctx.exitCode = 2;
  }
}

function progressText(lines: number, bytes: number, size: number | undefined, started: number): string {
  const seconds = Math.max((Date.now() - started) / 1000, 0.001);
  const share = size ? ` ${Math.min(100, Math.floor((bytes / size) * 100))}%` : '';
  return `estimating: ${formatInteger(lines)} lines${share}, ${formatInteger(Math.round(lines / seconds))} lines/s`;
}

function printSummary(ctx: Context, models: ModelTotals[], stats: { lines: number; estimated: number; failed: number; skipped: number }, totalCost: number, elapsedMs: number, origin: DefinitionsOrigin): void {
  const { out } = ctx;
  const rate = Math.round(stats.lines / Math.max(elapsedMs / 1000, 0.001));
  out.info(`${stats.lines} lines: ${stats.estimated} estimated, ${stats.failed} failed, ${stats.skipped} skipped (empty lines, JSON array brackets, observations without a model); ${(elapsedMs / 1000).toFixed(2)} s, ${rate} lines/s`);
  out.info(`Definitions: ${describeOrigin(origin)}`);
  if (models.length === 0) return;
  out.info(['MODEL', 'DEFINITION', 'GENERATIONS', 'INPUT', 'OUTPUT', 'TOTAL COST'].join('\t'));
  for (const entry of models) {
    out.info([entry.model, entry.definition ?? '(no match)', entry.generations, entry.usage.input ?? 0, entry.usage.output ?? 0, formatUsd(entry.cost.value(), 'exact')].join('\t'));
  }
  out.info(`total cost\t${formatUsd(totalCost, 'exact')}\t(stored costs of the lines, added exactly)`);
}
