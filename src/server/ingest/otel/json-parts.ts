// An OTLP/JSON body parsed a part at a time, so that an export of many spans never holds the
// event loop for its whole parse. A scan over the bytes finds every scope's `spans` array (the
// value of `resourceSpans[i].scopeSpans[j].spans`); the rest of the body (resources, scopes,
// any other key) is parsed in one go with a number in place of each array's content, and each
// array's content is parsed about JSON_PART_BYTES at a time, cut between two spans. The generator
// yields between slices of the scan and between parts.
//
// The value and the failures are JSON.parse's over the whole body: a body is valid exactly when
// the rest and every part are (a part between two cuts must hold a span), keys are compared as
// JSON.parse reads them (escapes included), and a key given twice keeps its last value, the
// arrays under the earlier one parsed (so checked) and dropped. The scan also measures the
// nesting depth, as jsonDepth does, so the body is refused before any part is parsed.
import { MAX_JSON_DEPTH } from '../../http/body.js';

/** About how many bytes of spans one part parses. */
const JSON_PART_BYTES = 1024 * 1024;

/** The value; or a failure: nested too deeply (`depth`), more span objects than asked for (`spans`), or not JSON. */
export type JsonOutcome = { ok: true; value: unknown } | { ok: false; depth?: number; spans?: number };

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const OPEN_ARRAY = 91;
const CLOSE_ARRAY = 93;

// What a container at a depth of at most SPANS_DEPTH is: the path to a scope's spans.
const OTHER = 0;
const ROOT = 1;
const RESOURCE_LIST = 2;
const RESOURCE = 3;
const SCOPE_LIST = 4;
const SCOPE = 5;
const SPANS = 6;
const SPANS_DEPTH = 6;

/** The key under which an object of a role holds the next container of the path, and that container's role. */
const NEXT: Record<number, { key: string; role: number } | undefined> = {
  [ROOT]: { key: 'resourceSpans', role: RESOURCE_LIST },
  [RESOURCE]: { key: 'scopeSpans', role: SCOPE_LIST },
  [SCOPE]: { key: 'spans', role: SPANS },
};

/**
 * The body's value; yields between slices of work. With more than `maxSpans` objects in the
 * `spans` arrays, fails (`spans`) before parsing anything.
 */
export function* parseJsonInParts(body: Buffer, partBytes = JSON_PART_BYTES, maxSpans = Infinity): Generator<void, JsonOutcome, undefined> {
  const scan = new Scan(body, partBytes);
  // A slice of the scan reads four parts' worth of bytes: it costs less than one part's parse.
  while (!scan.step(4 * partBytes)) yield;
  if (scan.deepest > MAX_JSON_DEPTH) return { ok: false, depth: scan.deepest };
  // Brackets that do not pair up or a string that does not end: not JSON.
  if (scan.broken || scan.depth !== 0) return { ok: false };
  if (scan.spanObjects > maxSpans) return { ok: false, spans: scan.spanObjects };
  const { opens, closes, cuts } = scan;
  let rest = '';
  let from = 0;
  for (let k = 0; k < opens.length; k++) {
    rest += `${body.toString('utf8', from, opens[k]! + 1)}${k}`;
    from = closes[k]!;
  }
  rest += body.toString('utf8', from);
  let value: unknown;
  try {
    value = JSON.parse(rest);
  } catch {
    return { ok: false };
  }
  if (opens.length > 0) yield;
  const contents: unknown[][] = [];
  let work = 0;
  for (let k = 0; k < opens.length; k++) {
    const spans: unknown[] = [];
    const bounds = [opens[k]!, ...(cuts.get(k) ?? []), closes[k]!];
    for (let p = 1; p < bounds.length; p++) {
      let part: unknown[];
      try {
        part = JSON.parse(`[${body.toString('utf8', bounds[p - 1]! + 1, bounds[p])}]`) as unknown[];
      } catch {
        return { ok: false };
      }
      // "[ , {...}]" is not JSON though "[ ]" is.
      if (part.length === 0 && bounds.length > 2) return { ok: false };
      for (const span of part) spans.push(span);
      work += bounds[p]! - bounds[p - 1]!;
      if (work >= partBytes) {
        work = 0;
        yield;
      }
    }
    contents.push(spans);
  }
  if (opens.length > 0) fill(value, contents);
  return { ok: true, value };
}

/** Puts each array's spans where its number stands. */
function fill(value: unknown, contents: unknown[][]): void {
  const resources = (value as { resourceSpans?: unknown } | null)?.resourceSpans;
  if (!Array.isArray(resources)) return;
  for (const resource of resources) {
    const scopes = (resource as { scopeSpans?: unknown } | null)?.scopeSpans;
    if (!Array.isArray(scopes)) continue;
    for (const scope of scopes) {
      const holder = scope as { spans?: unknown } | null;
      const marker = Array.isArray(holder?.spans) ? (holder.spans as unknown[])[0] : undefined;
      if (typeof marker === 'number') holder!.spans = contents[marker];
    }
  }
}

/** The scan: depth, strings, and the containers on the path to the spans. */
class Scan {
  i = 0;
  depth = 0;
  deepest = 0;
  /** Brackets closed below the top, or a string left open. */
  broken = false;
  /** Objects opened right inside a `spans` array. */
  spanObjects = 0;
  /** Each `spans` array's brackets, and the commas where its parts are cut (by the array's number). */
  readonly opens: number[] = [];
  readonly closes: number[] = [];
  readonly cuts = new Map<number, number[]>();
  private readonly roles: number[] = [];
  /** For the path's objects: whether the next string is a key, and the last key read. */
  private readonly keyNext: boolean[] = [];
  private readonly keys: string[] = [];
  private partStart = 0;

  constructor(
    private readonly body: Buffer,
    private readonly partBytes: number,
  ) {}

  /** Reads up to `bytes` more bytes; true once the body is read. */
  step(bytes: number): boolean {
    const body = this.body;
    const end = Math.min(body.length, this.i + bytes);
    let { i, depth, deepest } = this;
    for (; i < end; i++) {
      const c = body[i]!;
      if (c === QUOTE) {
        const start = i;
        i = closingQuote(body, i);
        if (i < 0) {
          this.broken = true;
          i = body.length;
          break;
        }
        if (depth >= 1 && depth < SPANS_DEPTH && this.keyNext[depth]) this.key(depth, start, i);
      } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
        if (++depth > deepest) deepest = depth;
        if (depth <= SPANS_DEPTH && !this.broken) this.open(depth, c, i);
        else if (depth === SPANS_DEPTH + 1 && c === OPEN_OBJECT && this.roles[SPANS_DEPTH] === SPANS) this.spanObjects++;
      } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
        if (depth === SPANS_DEPTH && this.roles[depth] === SPANS) this.closes[this.opens.length - 1] = i;
        if (--depth < 0) this.broken = true;
      } else if (c === COMMA && depth >= 1 && depth <= SPANS_DEPTH && !this.broken) this.comma(depth, i);
    }
    this.i = i;
    this.depth = depth;
    this.deepest = deepest;
    return i >= body.length;
  }

  private open(depth: number, c: number, at: number): void {
    const parent = depth === 1 ? OTHER : this.roles[depth - 1]!;
    let role = OTHER;
    if (depth === 1) role = c === OPEN_OBJECT ? ROOT : OTHER;
    else if (parent === RESOURCE_LIST || parent === SCOPE_LIST) role = c === OPEN_OBJECT ? parent + 1 : OTHER;
    else if (c === OPEN_ARRAY && !this.keyNext[depth - 1] && NEXT[parent]?.key === this.keys[depth - 1]) role = NEXT[parent]!.role;
    this.roles[depth] = role;
    this.keyNext[depth] = role === ROOT || role === RESOURCE || role === SCOPE;
    this.keys[depth] = '';
    if (role === SPANS) {
      this.opens.push(at);
      this.closes.push(-1);
      this.partStart = at + 1;
    }
  }

  private comma(depth: number, at: number): void {
    const role = this.roles[depth];
    if (role === ROOT || role === RESOURCE || role === SCOPE) this.keyNext[depth] = true;
    else if (role === SPANS && at - this.partStart >= this.partBytes) {
      const array = this.opens.length - 1;
      const cuts = this.cuts.get(array);
      if (cuts) cuts.push(at);
      else this.cuts.set(array, [at]);
      this.partStart = at + 1;
    }
  }

  /** The key between the quotes at `start` and `end`, as JSON.parse reads it. */
  private key(depth: number, start: number, end: number): void {
    this.keyNext[depth] = false;
    let key = '';
    // No key of the path is longer than this, even with every character escaped.
    if (end - start <= 6 * 'resourceSpans'.length + 1) {
      if (this.body.subarray(start, end).includes(BACKSLASH)) {
        try {
          key = JSON.parse(this.body.toString('utf8', start, end + 1)) as string;
        } catch {
          // A bad escape: the parse of the rest fails on it.
        }
      } else key = this.body.toString('latin1', start + 1, end);
    }
    this.keys[depth] = key;
  }
}

/** The offset of the quote that closes the string opened at `open`, or -1. */
function closingQuote(body: Buffer, open: number): number {
  let i = open;
  for (;;) {
    i = body.indexOf(QUOTE, i + 1);
    if (i === -1) return -1;
    let backslashes = 0;
    while (body[i - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return i;
  }
}
