// `llmobs estimate --batch FILE.jsonl`: one generation per line, one result per line, in order.
// Memory stays flat: the input is streamed, results leave in bounded chunks (waiting for a slow
// reader), and only per-model totals are kept. A bad line is reported and the rest go on.
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { createMatcher, estimate, type EstimateInput, type EstimateOptions, type EstimateResult, ObservationRejectedError } from '../../core/index.js';
import { FileError } from '../../errors.js';
import { engineCounter } from '../../tokenizer/counter.js';
import { loadDefinitions } from './definitions.js';
import { formatUsd } from './render.js';

const FLUSH_AT = 1 << 18;
const MAX_REPORTED_ERRORS = 20;

interface ModelTotals {
  model: string;
  definition: string | null;
  generations: number;
  usage: Record<string, number>;
  totalCost: number;
  costCompensation: number;
  unpriced: number;
}

interface LineError {
  code: 'invalid_json' | 'invalid_line' | 'rejected' | 'failed';
  message: string;
}

// The line's fields, in the ingestion API's spelling or snake_case.
const FIELDS: Array<[keyof EstimateInput, string[]]> = [
  ['input', ['input']],
  ['output', ['output']],
  ['usage', ['usage']],
  ['usageDetails', ['usageDetails', 'usage_details']],
  ['costDetails', ['costDetails', 'cost_details']],
  ['modelParameters', ['modelParameters', 'model_parameters']],
  ['metadata', ['metadata']],
  ['level', ['level']],
];

export async function runBatch(ctx: Context, options: { file: string; modelsFile?: string | undefined; remote?: boolean }): Promise<void> {
  const { definitions } = await loadDefinitions(ctx, { modelsFile: options.modelsFile, remote: options.remote });
  const estimateOptions: EstimateOptions = { definitions, count: engineCounter, match: createMatcher(definitions) };
  const { stream, size } = await openInput(ctx, options.file);

  const totals = new Map<string, ModelTotals>();
  const stats = { lines: 0, estimated: 0, failed: 0, skipped: 0 };
  const started = Date.now();
  const progress = ctx.out.progress();
  let pending: string[] = [];
  let pendingLength = 0;
  let bytesRead = 0;

  const emit = (text: string) => {
    pending.push(text);
    pendingLength += text.length;
  };
  const flush = async () => {
    if (pending.length === 0) return;
    const chunk = pending.join('');
    pending = [];
    pendingLength = 0;
    await ctx.out.writeChunk(chunk);
  };
  const fail = (line: number, error: LineError, id: unknown) => {
    stats.failed++;
    emit(`${JSON.stringify({ line, ...(id !== undefined ? { id } : {}), error })}\n`);
    if (stats.failed <= MAX_REPORTED_ERRORS) ctx.out.warn(`line ${line}: ${error.message}`);
  };

  const processLine = (raw: string) => {
    const line = ++stats.lines;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') {
      stats.skipped++;
      emit(`${JSON.stringify({ line, skipped: 'empty line' })}\n`);
      return;
    }
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      fail(line, { code: 'invalid_json', message: `not valid JSON (${(error as Error).message})` }, undefined);
      return;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      fail(line, { code: 'invalid_line', message: 'a line must be a JSON object' }, undefined);
      return;
    }
    const fields = record as Record<string, unknown>;
    const id = fields.id;
    if (typeof fields.model !== 'string') {
      fail(line, { code: 'invalid_line', message: '"model" must be a string' }, id);
      return;
    }
    const input: EstimateInput = { model: fields.model };
    for (const [field, names] of FIELDS) {
      for (const name of names) {
        if (fields[name] !== undefined) {
          (input as unknown as Record<string, unknown>)[field] = fields[name];
          break;
        }
      }
    }
    let result;
    try {
      result = estimate(input, estimateOptions);
    } catch (error) {
      if (error instanceof ObservationRejectedError) fail(line, { code: 'rejected', message: error.message }, id);
      else fail(line, { code: 'failed', message: (error as Error).message }, id);
      return;
    }
    stats.estimated++;
    emit(resultLine(line, id, result));
    let entry = totals.get(input.model);
    if (!entry) {
      entry = { model: input.model, definition: result.matchedModel?.modelName ?? null, generations: 0, usage: {}, totalCost: 0, costCompensation: 0, unpriced: 0 };
      totals.set(input.model, entry);
    }
    entry.generations++;
    for (const key in result.usageDetails) entry.usage[key] = (entry.usage[key] ?? 0) + result.usageDetails[key]!;
    if (result.totalCost !== null) addCompensated(entry, result.totalCost);
    else entry.unpriced++;
  };

  let carry = '';
  try {
    for await (const chunk of stream) {
      const text = carry + (chunk as string);
      bytesRead += Buffer.byteLength(chunk as string);
      let start = 0;
      for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
        processLine(text.slice(start, newline));
        start = newline + 1;
      }
      carry = text.slice(start);
      if (pendingLength >= FLUSH_AT) await flush();
      progress.update(() => progressText(stats.lines, bytesRead, size, started));
    }
  } catch (error) {
    throw new FileError(`cannot read ${options.file}: ${(error as Error).message}`);
  }
  if (carry !== '') processLine(carry);

  const models = [...totals.values()].sort((a, b) => a.model.localeCompare(b.model));
  for (const entry of models) {
    entry.totalCost += entry.costCompensation;
    entry.costCompensation = 0;
  }
  const totalCost = models.reduce((sum, entry) => sum + entry.totalCost, 0);
  if (ctx.globals.json) {
    emit(
      `${JSON.stringify({
        summary: {
          ...stats,
          totalCost,
          models: models.map(({ model, definition, generations, usage, totalCost: cost, unpriced }) => ({ model, definition, generations, usage, totalCost: cost, withoutCost: unpriced })),
        },
      })}\n`,
    );
  }
  await flush();
  progress.clear();
  if (!ctx.globals.json) printSummary(ctx, models, stats, totalCost, Date.now() - started);
  if (stats.failed > 0) {
    if (stats.failed > MAX_REPORTED_ERRORS) ctx.out.warn(`${stats.failed - MAX_REPORTED_ERRORS} more lines failed (see their "error" results)`);
    ctx.exitCode = 2;
  }
}

// The model, its definition and tokenizer repeat on every line of a model: serialise them once.
// Keys keep the order of `resultJson`, so a batch line equals the single estimate's JSON.
const prefixes = new Map<string, string>();

function resultLine(line: number, id: unknown, result: EstimateResult): string {
  let prefix = prefixes.get(result.model);
  if (prefix === undefined) {
    prefix = JSON.stringify({ model: result.model, matchedModel: result.matchedModel, tokenizer: result.tokenizer }).slice(1, -1);
    if (prefixes.size >= 10_000) prefixes.clear();
    prefixes.set(result.model, prefix);
  }
  const head = id === undefined ? `{"line":${line},` : `{"line":${line},"id":${JSON.stringify(id)},`;
  return `${head}${prefix},"usageDetails":${numberMapJson(result.usageDetails)},"costDetails":${numberMapJson(result.costDetails)},"totalCost":${JSON.stringify(result.totalCost)},"pricingTier":${JSON.stringify(result.pricingTier)},"warnings":${JSON.stringify(result.warnings)}}\n`;
}

// Usage and cost maps hold only finite numbers, so their JSON is keys and numbers; writing it by
// hand, with each key's JSON remembered, is what JSON.stringify would produce, only faster.
const keyJson = new Map<string, string>();

export function numberMapJson(map: Record<string, number>): string {
  let json = '{';
  for (const key in map) {
    let quoted = keyJson.get(key);
    if (quoted === undefined) {
      quoted = `${JSON.stringify(key)}:`;
      if (keyJson.size < 10_000) keyJson.set(key, quoted);
    }
    const value = map[key]!;
    json += `${json.length > 1 ? ',' : ''}${quoted}${Number.isFinite(value) ? value : 'null'}`;
  }
  return `${json}}`;
}

/** Neumaier summation: a million small costs add up without visible float drift. */
function addCompensated(entry: ModelTotals, value: number): void {
  const sum = entry.totalCost + value;
  entry.costCompensation += Math.abs(entry.totalCost) >= Math.abs(value) ? entry.totalCost - sum + value : value - sum + entry.totalCost;
  entry.totalCost = sum;
}

async function openInput(ctx: Context, file: string): Promise<{ stream: AsyncIterable<unknown> & NodeJS.ReadableStream; size: number | undefined }> {
  if (file === '-') {
    ctx.io.stdin.setEncoding('utf8');
    return { stream: ctx.io.stdin, size: undefined };
  }
  try {
    const handle = await open(resolve(ctx.cwd, file), 'r');
    const { size } = await handle.stat();
    const stream = handle.createReadStream({ highWaterMark: 1 << 16, encoding: 'utf8' });
    return { stream, size };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FileError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message}`);
  }
}

function progressText(lines: number, bytes: number, size: number | undefined, started: number): string {
  const seconds = Math.max((Date.now() - started) / 1000, 0.001);
  const share = size ? ` ${Math.min(100, Math.floor((bytes / size) * 100))}%` : '';
  return `estimating: ${lines.toLocaleString('en-US')} lines${share}, ${Math.round(lines / seconds).toLocaleString('en-US')} lines/s`;
}

function printSummary(ctx: Context, models: ModelTotals[], stats: { lines: number; estimated: number; failed: number; skipped: number }, totalCost: number, elapsedMs: number): void {
  const { out } = ctx;
  const rate = Math.round(stats.lines / Math.max(elapsedMs / 1000, 0.001));
  out.info(`${stats.lines} lines: ${stats.estimated} estimated, ${stats.failed} failed, ${stats.skipped} empty (${(elapsedMs / 1000).toFixed(2)} s, ${rate} lines/s)`);
  if (models.length === 0) return;
  const rows = models.map((entry) => [entry.model, entry.definition ?? '(no match)', entry.generations, entry.usage.input ?? 0, entry.usage.output ?? 0, formatUsd(entry.totalCost)]);
  out.info(['MODEL', 'DEFINITION', 'GENERATIONS', 'INPUT', 'OUTPUT', 'TOTAL COST'].join('\t'));
  for (const row of rows) out.info(row.join('\t'));
  out.info(`total cost\t${formatUsd(totalCost)}`);
}
