// The work of `cost recompute --input FILE` between reading a chunk of lines and writing its
// results: each line is an observation as `observations export` wrote it (JSON Lines, or the
// JSON array layout with one element per line); it is re-priced and, with --output, becomes one
// result line. No I/O here.
import type { Repriced, Recomputer } from '../../core/spend/recompute.js';
import { JsonBytes } from '../estimate/json-bytes.js';

export interface LineFailure {
  line: number;
  message: string;
}

export interface ChunkOutcome {
  /** Result lines (UTF-8), or null without --output. */
  output: Buffer | null;
  lines: number;
  generations: number;
  failures: LineFailure[];
  failed: number;
}

const MAX_FAILURES_PER_CHUNK = 20;
const EMPTY = Buffer.alloc(0);

export class RecomputeLines {
  constructor(
    private readonly recomputer: Recomputer,
    private readonly withOutput: boolean,
  ) {}

  processChunk(text: string, firstLine: number): ChunkOutcome {
    const outcome: ChunkOutcome = { output: null, lines: 0, generations: 0, failures: [], failed: 0 };
    const out = this.withOutput ? new JsonBytes(Math.max(1024, text.length >> 1)) : null;
    let start = 0;
    let line = firstLine;
    if (firstLine === 1 && text.charCodeAt(0) === 0xfeff) start = 1;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      this.processLine(text, start, end, line, outcome, out);
      outcome.lines++;
      line++;
      start = end + 1;
    }
    outcome.output = out ? out.bytes() : this.withOutput ? EMPTY : null;
    return outcome;
  }

  private fail(outcome: ChunkOutcome, line: number, message: string): void {
    outcome.failed++;
    if (outcome.failures.length < MAX_FAILURES_PER_CHUNK) outcome.failures.push({ line, message });
  }

  private processLine(text: string, start: number, end: number, line: number, outcome: ChunkOutcome, out: JsonBytes | null): void {
    // Trim the line's ends without copying it first (CR, spaces, and the JSON array's commas).
    while (start < end && isSpace(text.charCodeAt(start))) start++;
    while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
    if (start === end) return;
    const first = text.charCodeAt(start);
    // The JSON array layout: "[" and "]" on their own lines, elements ending with a comma.
    if (end - start === 1 && (first === 0x5b || first === 0x5d)) return;
    if (text.charCodeAt(end - 1) === 0x2c) end--;
    if (first !== 0x7b) {
      this.fail(outcome, line, 'not a JSON object (cost recompute reads exports in JSON Lines or JSON format)');
      return;
    }
    let record: unknown;
    try {
      record = JSON.parse(text.slice(start, end));
    } catch (error) {
      this.fail(outcome, line, `not valid JSON (${(error as Error).message})`);
      return;
    }
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      this.fail(outcome, line, 'not a JSON object');
      return;
    }
    const result = this.recomputer.add(record as Record<string, unknown>);
    if (!result) return;
    outcome.generations++;
    if (result.error) this.fail(outcome, line, `${result.id ?? 'a generation'}: ${result.error}`);
    if (out) writeResult(out, result);
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

function nullableString(out: JsonBytes, value: string | null): void {
  if (value === null) out.null();
  else out.string(value);
}

function nullableNumber(out: JsonBytes, value: number | null): void {
  if (value === null) out.null();
  else out.number(value);
}

/** Costs are kept to 12 decimals (the server's Decimal64(12)): so is their difference. */
export function costDifference(stored: number | null, recomputed: number | null): number | null {
  if (stored === null || recomputed === null) return null;
  return Math.round((recomputed - stored) * 1e12) / 1e12;
}

const ID = Buffer.from('{"id":');
const TRACE = Buffer.from(',"traceId":');
const START = Buffer.from(',"startTime":');
const MODEL = Buffer.from(',"model":');
const DEFINITION = Buffer.from(',"definition":');
const STORED = Buffer.from(',"storedCost":');
const RECOMPUTED = Buffer.from(',"recomputedCost":');
const DIFFERENCE = Buffer.from(',"difference":');
const ERROR = Buffer.from(',"error":');
const END = Buffer.from('}\n');

/** One result line; the same bytes JSON.stringify would write for the object. */
export function writeResult(out: JsonBytes, r: Repriced): void {
  out.raw(ID);
  nullableString(out, r.id);
  out.raw(TRACE);
  nullableString(out, r.traceId);
  out.raw(START);
  nullableString(out, r.startTime);
  out.raw(MODEL);
  nullableString(out, r.model);
  out.raw(DEFINITION);
  nullableString(out, r.definition);
  out.raw(STORED);
  nullableNumber(out, r.storedCost);
  out.raw(RECOMPUTED);
  nullableNumber(out, r.recomputedCost);
  out.raw(DIFFERENCE);
  nullableNumber(out, costDifference(r.storedCost, r.recomputedCost));
  if (r.error !== null) {
    out.raw(ERROR);
    out.string(r.error);
  }
  out.raw(END);
}
