/**
 * Streaming counts. The text is cut into stretches that are counted on their own, and a cut is
 * only made where counting the two sides separately cannot differ from counting the whole:
 *
 * - at a special token (the reference splits the text there too);
 * - at a "safe boundary" c of ordinary text, where no match of the pattern that starts before c
 *   reads or consumes the character at c, and no match that starts at c depends on what came
 *   before (the patterns have no look-behind). Two kinds qualify, for all three pattern families:
 *     (a) text[c] is U+0020 and text[c-1] is not white space: every alternative that could take
 *         the space at c needs it at its start (` ?`, `[^\r\n\p{L}\p{N}]?`) or in a white-space
 *         run, which text[c-1] interrupts;
 *     (b) text[c-1] is a letter or number, text[c] is none of letter, mark, number or apostrophe:
 *         letter and number runs end at c, and so do contractions; punctuation runs and
 *         white-space runs cannot reach c across text[c-1];
 *     (c) text[c-1] is CR or LF, text[c] is neither white space nor "/". In cl100k_base and
 *         o200k_base a run of white space that holds a line break is matched by \s*[\r\n]+
 *         up to its last one; the line breaks (and slashes, in o200k_base) after punctuation end
 *         at c too, and no optional prefix takes CR or LF. The gpt2 patterns lack \s*[\r\n]+,
 *         and \s+(?!\S) gives the last character of a run back when more text follows, so
 *         there the line break must be a run of its own: text[c-2] is not white space.
 *   The character at c must be known, so the last character of the buffer is never a cut, and
 *   neither is anything from where a special token might be starting.
 *
 * For Claude, whose input is normalised to NFKC first, a first stage holds back the tail from the
 * last character before which normalisation cannot interact (see `isNormalizationBoundary`).
 *
 * Work is batched: a stage only looks at its buffer once the new input is at least as long as
 * what it carried over, so a tail that never finds a cut costs linear time in total.
 */
import { asciiClassTable, classTable, LET, MRK, NUM, WS } from './scanner.js';
import { SpecialFinder } from './special-finder.js';
import type { PatternFamily } from './patterns.js';
import { wellFormed } from './well-formed.js';

export interface StreamingCounter {
  /** Adds text. Chunks may split words, surrogate pairs and special tokens anywhere. */
  write(chunk: string): void;
  /** Counts what is left and returns the total. The counter cannot be used afterwards. */
  end(): number;
  /**
   * Characters written but not yet counted: a batch being gathered, plus the tail that later
   * text may still change the split of. Bounded by the longest stretch without a safe cut
   * (for ordinary text, a few words), not by the length of the input.
   */
  readonly pending: number;
}

/**
 * What a streaming counter uses of a tokenizer's engine (TokenizerCore in tokenizer.ts). Said
 * here, not imported from there, since tokenizer.ts makes its counters with this module.
 */
export interface CountingCore {
  readonly family: PatternFamily;
  readonly nfkc: boolean;
  readonly specials: ReadonlyMap<string, number>;
  readonly maxSpecialLength: number;
  /** Counts text that holds no special token. */
  countOrdinary(text: string): number;
  /** Makes the class table cover `text`. */
  coverClasses(text: string): void;
}

const MIN_BATCH = 16_384;

/** The code point that ends at index `end` (exclusive) of `s`. */
function codePointBefore(s: string, end: number): number {
  const lo = s.charCodeAt(end - 1);
  if (lo >= 0xdc00 && lo < 0xe000 && end >= 2) {
    const hi = s.charCodeAt(end - 2);
    if (hi >= 0xd800 && hi < 0xdc00) return 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
  }
  return lo;
}

/**
 * Whether ordinary text may be cut before index c (1 <= c < text.length); see the module comment.
 * `cls` is the class table, which must cover the characters of `text` (see `coverClasses`).
 */
export function isSafeCut(text: string, c: number, family: PatternFamily, cls: Uint8Array = classTable()): boolean {
  const at = text.charCodeAt(c);
  // White space is all in the BMP, so a surrogate before the space is not white space.
  if (at === 0x20) return (cls[text.charCodeAt(c - 1)]! & WS) === 0;
  const before = text.charCodeAt(c - 1);
  if ((before === 0x0a || before === 0x0d) && (cls[at]! & WS) === 0 && at !== 0x2f) {
    if (family !== 'gpt2' || (c >= 2 && (cls[text.charCodeAt(c - 2)]! & WS) === 0)) return true;
  }
  if (at === 0x27 || (at >= 0xd800 && at < 0xe000)) return false;
  if ((cls[at]! & (LET | MRK | NUM)) !== 0) return false;
  return (cls[codePointBefore(text, c)]! & (LET | NUM)) !== 0;
}

/** Batches chunks so that a stage rescans its carried-over tail only when the input has doubled. */
class Batcher {
  private parts: string[] = [];
  private fresh = 0;
  carry = '';

  constructor(private readonly minBatch: number) {}

  get size(): number {
    return this.carry.length + this.fresh;
  }

  /** Adds a chunk; returns the text to process when a batch is due. */
  add(chunk: string): string | undefined {
    if (chunk.length === 0) return undefined;
    this.parts.push(chunk);
    this.fresh += chunk.length;
    if (this.fresh < this.minBatch || this.fresh < this.carry.length) return undefined;
    return this.take();
  }

  take(): string {
    const text = this.carry + this.parts.join('');
    this.parts = [];
    this.fresh = 0;
    this.carry = '';
    return text;
  }
}

class TokenStream implements StreamingCounter {
  private total = 0;
  private done = false;
  private readonly batch: Batcher;
  private readonly specials: SpecialFinder | undefined;
  private readonly specialNames: string[];

  constructor(
    private readonly core: CountingCore,
    minBatch: number,
  ) {
    this.batch = new Batcher(minBatch);
    this.specialNames = [...core.specials.keys()];
    this.specials = this.specialNames.length > 0 ? new SpecialFinder(this.specialNames) : undefined;
  }

  get pending(): number {
    return this.batch.size;
  }

  write(chunk: string): void {
    if (this.done) throw new Error('counter: write after end');
    const text = this.batch.add(chunk);
    if (text !== undefined) this.process(text, false);
  }

  end(): number {
    if (this.done) throw new Error('counter: end called twice');
    this.process(this.batch.take(), true);
    this.done = true;
    return this.total;
  }

  private process(text: string, final: boolean): void {
    let start = 0;
    const finder = this.specials;
    if (finder) {
      finder.reset(text);
      for (let at = finder.find(0); at >= 0; at = finder.find(start)) {
        if (at > start) this.total += this.core.countOrdinary(wellFormed(text.slice(start, at)));
        this.total += 1;
        start = at + finder.name.length;
      }
    }
    if (final) {
      if (start < text.length) this.total += this.core.countOrdinary(wellFormed(text.slice(start)));
      return;
    }
    const limit = this.specialStart(text, start);
    // The class table need only cover what this text holds (ASCII, for most input).
    this.core.coverClasses(text);
    const cls = asciiClassTable();
    let cut = -1;
    for (let c = limit - 1; c > start; c--) {
      if (isSafeCut(text, c, this.core.family, cls)) {
        cut = c;
        break;
      }
    }
    if (cut > start) {
      this.total += this.core.countOrdinary(wellFormed(text.slice(start, cut)));
      start = cut;
    }
    this.batch.carry = text.slice(start);
  }

  /** Where a special token may be starting at the end of `text` (text.length if nowhere). */
  private specialStart(text: string, from: number): number {
    const longest = Math.min(this.core.maxSpecialLength - 1, text.length - from);
    for (let k = longest; k > 0; k--) {
      const tail = text.slice(text.length - k);
      if (this.specialNames.some((s) => s.startsWith(tail))) return text.length - k;
    }
    return text.length;
  }
}

const HANGUL_JAMO = /[\u1100-\u11ff\u3130-\u318f\ua960-\ua97f\ud7b0-\ud7ff\uffa0-\uffdc]/;
/** \p{M} as Node sees it; made on first use (see well-formed.ts). */
let nodeMark: RegExp | undefined;

/**
 * Whether NFKC(a + b) = NFKC(a) + NFKC(b) for any a, when b starts with `ch` (one UTF-16 unit).
 * True when `ch` is a starter that normalises to itself and never combines with what precedes
 * it: not a mark, not a surrogate, and not a conjoining Hangul jamo (a vowel or final jamo
 * composes with the syllable before it). Normalisation uses Node's own Unicode data, on both
 * sides of the comparison, so the checks do too.
 */
export function isNormalizationBoundary(ch: string): boolean {
  const u = ch.charCodeAt(0);
  if (u < 0x80) return true;
  if (u >= 0xd800 && u < 0xe000) return false;
  return !(nodeMark ??= /\p{M}/u).test(ch) && !HANGUL_JAMO.test(ch) && ch.normalize('NFKC') === ch;
}

class NfkcStream implements StreamingCounter {
  private readonly batch: Batcher;
  private done = false;
  constructor(
    private readonly inner: StreamingCounter,
    minBatch: number,
  ) {
    this.batch = new Batcher(minBatch);
  }

  get pending(): number {
    return this.batch.size + this.inner.pending;
  }

  write(chunk: string): void {
    if (this.done) throw new Error('counter: write after end');
    const text = this.batch.add(chunk);
    if (text === undefined) return;
    let k = text.length - 1;
    while (k > 0 && !isNormalizationBoundary(text[k]!)) k--;
    if (k > 0) this.inner.write(text.slice(0, k).normalize('NFKC'));
    this.batch.carry = text.slice(Math.max(k, 0));
  }

  end(): number {
    if (this.done) throw new Error('counter: end called twice');
    this.done = true;
    this.inner.write(this.batch.take().normalize('NFKC'));
    return this.inner.end();
  }
}

/** `minBatch`: characters gathered before a stage looks for a cut (small values are for tests). */
export function createStreamingCounter(core: CountingCore, minBatch = MIN_BATCH): StreamingCounter {
  const counter = new TokenStream(core, minBatch);
  return core.nfkc ? new NfkcStream(counter, minBatch) : counter;
}
