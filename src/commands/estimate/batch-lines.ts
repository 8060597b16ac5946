// Estimates a chunk of JSONL lines and serialises the results: the work of `estimate --batch`
// between reading a chunk and writing it (see batch.ts). No I/O here.
// From the modules, not the core/index.js barrel, which brings the zod schemas along.
import { estimate, type EstimateInput, type EstimateOptions, type EstimateResult } from '../../core/estimate.js';
import { JsonTooDeepError, jsonTextDepth, MAX_JSON_DEPTH } from '../../core/json-depth.js';
import { createMatcher } from '../../core/models/match.js';
import type { ModelDefinition } from '../../core/models/types.js';
import { StoredCostSum } from '../../core/precision.js';
import { ObservationRejectedError } from '../../core/usage.js';
import { generationInput } from '../../core/spend/recompute.js';
import { engineCounter } from '../../tokenizer/index.js';
import { JsonBytes } from './json-bytes.js';

export interface ModelTotals {
  model: string;
  definition: string | null;
  generations: number;
  usage: Record<string, number>;
  /** The exact sum of the generations' stored total costs (as the server's reports add them up). */
  cost: StoredCostSum;
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

/**
 * Per-line error codes (documented in docs/commands.md): `invalid_json`, `json_too_deep` (nested more
 * than MAX_JSON_DEPTH levels), `invalid_line`, `rejected` (the server would reject it),
 * `invalid_definition` (the model name matches a models-file definition that has errors),
 * `internal_error` (a fault in llmobs: please report it).
 */
export interface LineError {
  code: 'invalid_json' | 'json_too_deep' | 'invalid_line' | 'rejected' | 'invalid_definition' | 'internal_error';
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

  /** `unusable`: definitions a line must not be priced with (a models file's invalid ones), by id. */
  constructor(definitions: readonly ModelDefinition[], private readonly unusable: ReadonlyMap<string, string> = new Map()) {
    this.options = { definitions, count: engineCounter, match: createMatcher(definitions) };
  }

  /**
   * `text` holds whole lines separated by newlines; a last line without a newline counts, an
   * empty remainder after the final newline does not. `firstLine` numbers the first one.
   */
  processChunk(text: string, firstLine: number): ChunkResult {
    const result: ChunkResult = { output: EMPTY, lines: 0, estimated: 0, failed: 0, skipped: 0, totals: [], errors: [] };
    const totals = new Map<string, ModelTotals>();
    const out = new JsonBytes(text.length * 4 + 1024);
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

  private fail(result: ChunkResult, line: number, error: LineError, id: unknown, out: JsonBytes): void {
    result.failed++;
    if (result.errors.length < MAX_ERRORS_PER_CHUNK) result.errors.push({ line, message: error.message });
    out.text(`${JSON.stringify({ line, ...(id !== undefined ? { id } : {}), error })}\n`);
  }

  private processLine(raw: string, line: number, result: ChunkResult, totals: Map<string, ModelTotals>, out: JsonBytes): void {
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const trimmed = text.trim();
    if (trimmed === '') {
      result.skipped++;
      out.text(`{"line":${line},"skipped":"empty line"}\n`);
      return;
    }
    // `observations export --format json` writes "[" and "]" on their own lines and one element
    // per line ending with a comma: read as it is, like JSON Lines.
    if (trimmed === '[' || trimmed === ']') {
      result.skipped++;
      out.text(`{"line":${line},"skipped":"JSON array bracket"}\n`);
      return;
    }
    if (trimmed.startsWith('{') && trimmed.endsWith(',')) text = trimmed.slice(0, -1);
    if (jsonTextDepth(text, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      return this.fail(result, line, { code: 'json_too_deep', message: new JsonTooDeepError('the line').message }, undefined, out);
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
    let input: EstimateInput;
    if (fields.model === undefined && 'providedModelName' in fields) {
      // An observation as `observations export` wrote it: what the server stored is read as what
      // the client sent (usage as provided usage); its stored costs are results, not inputs.
      if (typeof fields.providedModelName !== 'string') {
        result.skipped++;
        out.text(`${JSON.stringify({ line, ...(id !== undefined ? { id } : {}), skipped: 'no model name (providedModelName is null)' })}\n`);
        return;
      }
      input = generationInput(fields, fields.providedModelName);
    } else {
      if (typeof fields.model !== 'string') return this.fail(result, line, { code: 'invalid_line', message: '"model" must be a string' }, id, out);
      input = {
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
    }
    let estimated: EstimateResult;
    try {
      estimated = estimate(input, this.options);
    } catch (error) {
      if (error instanceof ObservationRejectedError) return this.fail(result, line, { code: 'rejected', message: error.message }, id, out);
      if (error instanceof JsonTooDeepError) return this.fail(result, line, { code: 'json_too_deep', message: error.message }, id, out);
      return this.fail(result, line, { code: 'internal_error', message: `llmobs failed on this line (${(error as Error).message}); please report it` }, id, out);
    }
    const unusable = estimated.matchedModel && this.unusable.size > 0 ? this.unusable.get(estimated.matchedModel.id) : undefined;
    if (unusable !== undefined) return this.fail(result, line, { code: 'invalid_definition', message: `"${input.model}" matches ${unusable}` }, id, out);
    result.estimated++;
    let entry = totals.get(input.model);
    if (!entry) {
      entry = { model: input.model, definition: estimated.matchedModel?.modelName ?? null, generations: 0, usage: {}, cost: new StoredCostSum(), withoutCost: 0 };
      totals.set(input.model, entry);
    }
    entry.generations++;
    const usage = estimated.usageDetails;
    for (const key in usage) entry.usage[key] = (entry.usage[key] ?? 0) + usage[key]!;
    if (estimated.totalCost !== null) entry.cost.add(estimated.totalCost);
    else entry.withoutCost++;
    this.resultLine(line, id, estimated, out);
  }

  // Keys keep the order of `resultJson`, so a batch line equals the single estimate's JSON. The
  // model, its definition and tokenizer repeat on every line of a model: their bytes are kept.
  private resultLine(line: number, id: unknown, result: EstimateResult, out: JsonBytes): void {
    let prefix = this.prefixes.get(result.model);
    if (prefix === undefined) {
      prefix = Buffer.from(`${JSON.stringify({ model: result.model, matchedModel: result.matchedModel, tokenizer: result.tokenizer }).slice(1, -1)},"usageDetails":`);
      if (this.prefixes.size >= 10_000) this.prefixes.clear();
      this.prefixes.set(result.model, prefix);
    }
    out.raw(LINE);
    out.number(line);
    if (id !== undefined) {
      out.raw(ID);
      if (typeof id === 'string') out.string(id);
      else out.text(JSON.stringify(id) ?? 'null');
    }
    out.comma();
    out.raw(prefix);
    out.numberMap(result.usageDetails);
    out.raw(COST_DETAILS);
    out.numberMap(result.costDetails);
    out.raw(TOTAL_COST);
    if (result.totalCost === null) out.null();
    else out.number(result.totalCost);
    out.raw(PRICING_TIER);
    if (result.pricingTier === null) out.null();
    else out.string(result.pricingTier);
    if (result.warnings.length === 0) out.raw(NO_WARNINGS);
    else {
      out.raw(WARNINGS);
      out.text(JSON.stringify(result.warnings));
      out.raw(END);
    }
  }
}

const EMPTY = Buffer.alloc(0);
const LINE = Buffer.from('{"line":');
const ID = Buffer.from(',"id":');
const COST_DETAILS = Buffer.from(',"costDetails":');
const TOTAL_COST = Buffer.from(',"totalCost":');
const PRICING_TIER = Buffer.from(',"pricingTier":');
const WARNINGS = Buffer.from(',"warnings":');
const NO_WARNINGS = Buffer.from(',"warnings":[]}\n');
const END = Buffer.from('}\n');

/** Adds a chunk's totals into the running ones. */
export function mergeTotals(into: Map<string, ModelTotals>, chunk: readonly ModelTotals[]): void {
  for (const part of chunk) {
    const entry = into.get(part.model);
    if (!entry) {
      into.set(part.model, { ...part, usage: { ...part.usage }, cost: new StoredCostSum().addSum(part.cost) });
      continue;
    }
    entry.generations += part.generations;
    entry.withoutCost += part.withoutCost;
    for (const key in part.usage) entry.usage[key] = (entry.usage[key] ?? 0) + part.usage[key]!;
    entry.cost.addSum(part.cost);
  }
}
