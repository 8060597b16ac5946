// Estimates a chunk of JSONL lines and serialises the results: the work of `estimate --batch`
// that runs either on the main thread or in worker threads (see batch.ts). No I/O here.
import { createMatcher, estimate, type EstimateInput, type EstimateOptions, type EstimateResult, type ModelDefinition, ObservationRejectedError } from '../../core/index.js';
import { engineCounter } from '../../tokenizer/counter.js';

export interface ModelTotals {
  model: string;
  definition: string | null;
  generations: number;
  usage: Record<string, number>;
  totalCost: number;
  /** Neumaier compensation of `totalCost`. */
  compensation: number;
  withoutCost: number;
}

export interface ChunkResult {
  /** UTF-8 of one JSON result per line, each ending with a newline. */
  output: Buffer;
  lines: number;
  estimated: number;
  failed: number;
  skipped: number;
  totals: ModelTotals[];
  /** The first few failures, for stderr. */
  errors: Array<{ line: number; message: string }>;
}

export interface LineError {
  code: 'invalid_json' | 'invalid_line' | 'rejected' | 'failed';
  message: string;
}

const MAX_ERRORS_PER_CHUNK = 20;

/** The first of two spellings that is present (the ingestion API's, then snake_case). */
function either(a: unknown, b: unknown): unknown {
  return a !== undefined ? a : b;
}

export class BatchProcessor {
  private readonly options: EstimateOptions;
  // The model, its definition and tokenizer repeat on every line of a model: serialise them once.
  private readonly prefixes = new Map<string, Buffer>();

  constructor(definitions: readonly ModelDefinition[]) {
    this.options = { definitions, count: engineCounter, match: createMatcher(definitions) };
  }

  /**
   * `text` holds whole lines separated by newlines; a last line without a newline counts, an
   * empty remainder after the final newline does not. `firstLine` numbers the first one.
   */
  processChunk(text: string, firstLine: number): ChunkResult {
    const result: ChunkResult = { output: EMPTY, lines: 0, estimated: 0, failed: 0, skipped: 0, totals: [], errors: [] };
    const totals = new Map<string, ModelTotals>();
    const out = new ByteWriter(text.length * 6 + 1024);
    let start = 0;
    let line = firstLine;
    // A byte-order mark some editors put at the start of a file is not part of the first line.
    if (firstLine === 1 && text.charCodeAt(0) === 0xfeff) start = 1;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      this.processLine(text.slice(start, end), line, result, totals, out);
      result.lines++;
      line++;
      start = end + 1;
    }
    result.output = out.bytes();
    result.totals = [...totals.values()];
    return result;
  }

  private fail(result: ChunkResult, line: number, error: LineError, id: unknown, out: ByteWriter): void {
    result.failed++;
    if (result.errors.length < MAX_ERRORS_PER_CHUNK) result.errors.push({ line, message: error.message });
    out.text(`${JSON.stringify({ line, ...(id !== undefined ? { id } : {}), error })}\n`);
  }

  private processLine(raw: string, line: number, result: ChunkResult, totals: Map<string, ModelTotals>, out: ByteWriter): void {
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') {
      result.skipped++;
      out.text(`{"line":${line},"skipped":"empty line"}\n`);
      return;
    }
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (error) {
      return this.fail(result, line, { code: 'invalid_json', message: `not valid JSON (${(error as Error).message})` }, undefined, out);
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      return this.fail(result, line, { code: 'invalid_line', message: 'a line must be a JSON object' }, undefined, out);
    }
    const fields = record as Record<string, unknown>;
    const id = fields.id;
    if (typeof fields.model !== 'string') return this.fail(result, line, { code: 'invalid_line', message: '"model" must be a string' }, id, out);
    const input: EstimateInput = {
      model: fields.model,
      input: fields.input,
      output: fields.output,
      usage: fields.usage,
      usageDetails: either(fields.usageDetails, fields.usage_details),
      costDetails: either(fields.costDetails, fields.cost_details),
      modelParameters: either(fields.modelParameters, fields.model_parameters),
      metadata: fields.metadata,
      level: fields.level as EstimateInput['level'],
    };
    let estimated: EstimateResult;
    try {
      estimated = estimate(input, this.options);
    } catch (error) {
      if (error instanceof ObservationRejectedError) return this.fail(result, line, { code: 'rejected', message: error.message }, id, out);
      return this.fail(result, line, { code: 'failed', message: (error as Error).message }, id, out);
    }
    result.estimated++;
    let entry = totals.get(input.model);
    if (!entry) {
      entry = { model: input.model, definition: estimated.matchedModel?.modelName ?? null, generations: 0, usage: {}, totalCost: 0, compensation: 0, withoutCost: 0 };
      totals.set(input.model, entry);
    }
    entry.generations++;
    const usage = estimated.usageDetails;
    for (const key in usage) entry.usage[key] = (entry.usage[key] ?? 0) + usage[key]!;
    if (estimated.totalCost !== null) addCompensated(entry, estimated.totalCost);
    else entry.withoutCost++;
    this.resultLine(line, id, estimated, out);
  }

  // Keys keep the order of `resultJson`, so a batch line equals the single estimate's JSON. The
  // model, its definition and tokenizer repeat on every line of a model: their bytes are kept.
  private resultLine(line: number, id: unknown, result: EstimateResult, out: ByteWriter): void {
    let prefix = this.prefixes.get(result.model);
    if (prefix === undefined) {
      prefix = Buffer.from(`${JSON.stringify({ model: result.model, matchedModel: result.matchedModel, tokenizer: result.tokenizer }).slice(1, -1)},"usageDetails":`);
      if (this.prefixes.size >= 10_000) this.prefixes.clear();
      this.prefixes.set(result.model, prefix);
    }
    out.text(id === undefined ? `{"line":${line},` : `{"line":${line},"id":${JSON.stringify(id)},`);
    out.raw(prefix);
    out.text(numberMapJson(result.usageDetails));
    out.raw(COST_DETAILS);
    out.text(numberMapJson(result.costDetails));
    out.text(`,"totalCost":${JSON.stringify(result.totalCost)},"pricingTier":${JSON.stringify(result.pricingTier)},"warnings":`);
    out.text(result.warnings.length === 0 ? '[]}\n' : `${JSON.stringify(result.warnings)}}\n`);
  }
}

const EMPTY = Buffer.alloc(0);
const COST_DETAILS = Buffer.from(',"costDetails":');

/** Appends UTF-8 to one growing buffer: no intermediate strings to join, little garbage. */
export class ByteWriter {
  private buffer: Buffer;
  private length = 0;

  constructor(capacity: number) {
    this.buffer = Buffer.allocUnsafe(Math.max(capacity, 64));
  }

  text(text: string): void {
    // A UTF-16 unit never takes more than 3 UTF-8 bytes.
    this.reserve(text.length * 3);
    this.length += this.buffer.write(text, this.length, 'utf8');
  }

  raw(bytes: Buffer): void {
    this.reserve(bytes.length);
    bytes.copy(this.buffer, this.length);
    this.length += bytes.length;
  }

  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private reserve(extra: number): void {
    if (this.length + extra <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + extra));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
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
export function addCompensated(entry: Pick<ModelTotals, 'totalCost' | 'compensation'>, value: number): void {
  const sum = entry.totalCost + value;
  entry.compensation += Math.abs(entry.totalCost) >= Math.abs(value) ? entry.totalCost - sum + value : value - sum + entry.totalCost;
  entry.totalCost = sum;
}

/** Adds a chunk's totals into the running ones. */
export function mergeTotals(into: Map<string, ModelTotals>, chunk: readonly ModelTotals[]): void {
  for (const part of chunk) {
    const entry = into.get(part.model);
    if (!entry) {
      into.set(part.model, { ...part, usage: { ...part.usage } });
      continue;
    }
    entry.generations += part.generations;
    entry.withoutCost += part.withoutCost;
    for (const key in part.usage) entry.usage[key] = (entry.usage[key] ?? 0) + part.usage[key]!;
    addCompensated(entry, part.totalCost);
    addCompensated(entry, part.compensation);
  }
}
