/**
 * Hand-written pre-tokenisers, one per pattern family, that split text exactly as the reference
 * regexes do (patterns.ts has the sources). A JavaScript regex with the same classes spelled out
 * gives the same pieces but took most of the counting time; the scanners are checked piece by
 * piece against the reference engine itself (test/unit/tokenizer/scanner.test.ts).
 *
 * Each scanner returns the end of the match that starts at `p`, reproducing the backtracking
 * engine's first successful path: alternatives in order, greedy quantifiers taking the longest
 * run first and giving back one code point at a time. Where the comments say "backtrack", the
 * result of that search is computed directly.
 *
 * Text must be well formed (no lone surrogates), which the tokenizer guarantees.
 */
import { CASE_FOLDS, CLASS_BITS, RUN_BITS, RUN_LENGTHS } from './unicode-classes.js';
import type { PatternFamily } from './patterns.js';

export const WS = CLASS_BITS.WHITE_SPACE;
export const LET = CLASS_BITS.LETTER;
export const NUM = CLASS_BITS.NUMBER;
/** [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] */
export const UP = CLASS_BITS.UPPERISH;
/** [\p{Ll}\p{Lm}\p{Lo}\p{M}] */
export const LOW = CLASS_BITS.LOWERISH;
export const MRK = CLASS_BITS.MARK;

let table: Uint8Array | undefined;
/** Code points below this have their bits in `table` already; the others read 0 until filled. */
let filledTo = 0;

/** The class table, with the bits of every code point below `end` filled in. */
function filledTable(end: number): Uint8Array {
  // Zeroed memory that is never written costs nothing: only the pages filled in are touched.
  const t = (table ??= new Uint8Array(0x110000));
  if (filledTo >= end) return t;
  let cp = 0;
  for (let i = 0; cp < end; i++) {
    const next = cp + RUN_LENGTHS[i]!;
    const bits = RUN_BITS.charCodeAt(i) - 48;
    if (bits !== 0 && next > filledTo) t.fill(bits, Math.max(cp, filledTo), Math.min(next, end));
    cp = next;
  }
  filledTo = end;
  return t;
}

/** Class bits of every code point, as the reference engine sees them. */
export function classTable(): Uint8Array {
  return filledTable(0x110000);
}

/**
 * The same table, of which only U+0000..U+007F need be filled in yet: enough for ASCII text,
 * which most short inputs are. That takes a few runs, where the whole of it walks some 3,200
 * runs over 1.1 M code points. {@link classTable} fills in the rest, in the same table.
 */
export function asciiClassTable(): Uint8Array {
  return filledTable(0x80);
}

export type Scanner = (text: string, p: number, n: number) => number;

const CR = 0x0d;
const LF = 0x0a;
const SPACE = 0x20;
const QUOTE = 0x27;
const SLASH = 0x2f;

/** Kinds of contraction letters: 's|'t|'m|'d end after one, r and v need an e, l another l. */
const ENDS = 1;
const R_OR_V = 2;
const E = 4;
const L = 8;

/** End of a contraction of `(?i:'s|'t|'re|'ve|'m|'ll|'d)` at p (text[p] is "'"), or -1. */
function makeContraction(caseInsensitive: boolean): (t: string, p: number, n: number) => number {
  const letters: [string, number][] = [['s', ENDS], ['t', ENDS], ['m', ENDS], ['d', ENDS], ['r', R_OR_V], ['v', R_OR_V], ['e', E], ['l', L]];
  const spellings = letters.map(([letter, kind]): [string, number] => [caseInsensitive ? (CASE_FOLDS[letter] ?? letter) : letter, kind]);
  let size = 0;
  for (const [spelled] of spellings) for (let i = 0; i < spelled.length; i++) size = Math.max(size, spelled.charCodeAt(i) + 1);
  // Kind bits by UTF-16 unit: a few hundred entries (U+017F, the long s, is the highest).
  const kinds = new Uint8Array(size);
  for (const [spelled, kind] of spellings) for (let i = 0; i < spelled.length; i++) kinds[spelled.charCodeAt(i)]! |= kind;
  const kindOf = (c: number): number => (c < size ? kinds[c]! : 0);
  return (t, p, n) => {
    if (p + 1 >= n) return -1;
    const a = kindOf(t.charCodeAt(p + 1));
    if (a & ENDS) return p + 2;
    if (p + 2 >= n) return -1;
    const b = kindOf(t.charCodeAt(p + 2));
    if (a & R_OR_V && b & E) return p + 3;
    if (a & L && b & L) return p + 3;
    return -1;
  };
}

/**
 * The scanner of a pattern family. With `asciiFirst`, the class table may only cover ASCII when
 * the scanner is made: the caller gives it other text only after calling {@link classTable}.
 */
export function makeScanner(family: PatternFamily, asciiFirst = false): Scanner {
  // One table, in a constant: the compiler then reads it as a known array in the loops below.
  const cls = asciiFirst ? asciiClassTable() : classTable();

  /** Code point at i (a high surrogate at i is followed by its low half). */
  const cpAt = (t: string, i: number): number => {
    const c = t.charCodeAt(i);
    return c >= 0xd800 && c < 0xdc00 ? 0x10000 + ((c - 0xd800) << 10) + (t.charCodeAt(i + 1) - 0xdc00) : c;
  };
  /** End of the run of code points having one of the `bits`, from i. */
  const runOf = (t: string, i: number, n: number, bits: number): number => {
    while (i < n) {
      const c = t.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00) {
        if ((cls[0x10000 + ((c - 0xd800) << 10) + (t.charCodeAt(i + 1) - 0xdc00)]! & bits) === 0) break;
        i += 2;
      } else {
        if ((cls[c]! & bits) === 0) break;
        i++;
      }
    }
    return i;
  };
  /** End of the run of code points having none of the `bits` ([^\s\p{L}\p{N}]+ and the like). */
  const runOfNot = (t: string, i: number, n: number, bits: number): number => {
    while (i < n) {
      const c = t.charCodeAt(i);
      if (c >= 0xd800 && c < 0xdc00) {
        if ((cls[0x10000 + ((c - 0xd800) << 10) + (t.charCodeAt(i + 1) - 0xdc00)]! & bits) !== 0) break;
        i += 2;
      } else {
        if ((cls[c]! & bits) !== 0) break;
        i++;
      }
    }
    return i;
  };
  /** \s+(?!\S)|\s+ from p, where text[p] is white space (all of which is in the BMP). */
  const whiteSpace = (t: string, p: number, n: number): number => {
    const r = runOf(t, p, n, WS);
    // \s+(?!\S): the whole run if the text ends there, else give back the last one if that
    // leaves at least one; otherwise \s+ takes the single character.
    if (r === n || r - p < 2) return r;
    return r - 1;
  };
  /** \s*[\r\n]+ then the above, from p, where text[p] is white space. */
  const whiteSpaceNewline = (t: string, p: number, n: number): number => {
    const r = runOf(t, p, n, WS);
    // \s* backtracks to the last CR or LF of the run; [\r\n]+ then takes just that one.
    for (let k = r - 1; k >= p; k--) {
      const c = t.charCodeAt(k);
      if (c === LF || c === CR) return k + 1;
    }
    if (r === n || r - p < 2) return r;
    return r - 1;
  };

  if (family === 'gpt2') {
    const contraction = makeContraction(false);
    return (t, p, n) => {
      const c = t.charCodeAt(p);
      if (c === QUOTE) {
        const e = contraction(t, p, n);
        if (e >= 0) return e;
      }
      // ' ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+' with the space, then without it.
      if (c === SPACE && p + 1 < n) {
        const k = cls[cpAt(t, p + 1)]!;
        if (k & LET) return runOf(t, p + 1, n, LET);
        if (k & NUM) return runOf(t, p + 1, n, NUM);
        if ((k & WS) === 0) return runOfNot(t, p + 1, n, WS | LET | NUM);
      }
      const k = cls[cpAt(t, p)]!;
      if (k & LET) return runOf(t, p, n, LET);
      if (k & NUM) return runOf(t, p, n, NUM);
      if ((k & WS) === 0) return runOfNot(t, p, n, WS | LET | NUM);
      return whiteSpace(t, p, n);
    };
  }

  const contraction = makeContraction(true);
  const withContraction = (t: string, e: number, n: number): number => {
    if (e < n && t.charCodeAt(e) === QUOTE) {
      const c = contraction(t, e, n);
      if (c >= 0) return c;
    }
    return e;
  };
  /** ' ?[^\s\p{L}\p{N}]+' followed by a run of `tail` characters. */
  const punctuation = (t: string, p: number, n: number, slash: boolean): number => {
    let e = runOfNot(t, p, n, WS | LET | NUM);
    while (e < n) {
      const c = t.charCodeAt(e);
      if (c !== LF && c !== CR && !(slash && c === SLASH)) break;
      e++;
    }
    return e;
  };

  if (family === 'cl100k') {
    return (t, p, n) => {
      const c = t.charCodeAt(p);
      if (c === QUOTE) {
        const e = contraction(t, p, n);
        if (e >= 0) return e;
      }
      const c0 = cpAt(t, p);
      const k0 = cls[c0]!;
      // [^\r\n\p{L}\p{N}]?\p{L}+
      if (k0 & LET) return runOf(t, p, n, LET);
      const w0 = c0 > 0xffff ? 2 : 1;
      if (c0 !== CR && c0 !== LF && (k0 & NUM) === 0 && p + w0 < n && cls[cpAt(t, p + w0)]! & LET) {
        return runOf(t, p + w0, n, LET);
      }
      // \p{N}{1,3}
      if (k0 & NUM) {
        let e = p;
        for (let i = 0; i < 3 && e < n && cls[cpAt(t, e)]! & NUM; i++) e += t.charCodeAt(e) >= 0xd800 && t.charCodeAt(e) < 0xdc00 ? 2 : 1;
        return e;
      }
      //  ?[^\s\p{L}\p{N}]+[\r\n]*
      if (c === SPACE && p + 1 < n && (cls[cpAt(t, p + 1)]! & (WS | LET | NUM)) === 0) return punctuation(t, p + 1, n, false);
      if ((k0 & WS) === 0) return punctuation(t, p, n, false);
      return whiteSpaceNewline(t, p, n);
    };
  }

  // o200k
  /** [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+ from q, or -1. */
  const upperThenLower = (t: string, q: number, n: number): number => {
    const u = runOf(t, q, n, UP);
    if (u < n && cls[cpAt(t, u)]! & LOW) return runOf(t, u, n, LOW);
    // The upper run gives back characters until one of them can start the lower run; the lower
    // run then ends right after it, since nothing after it up to u is "lower".
    for (let k = u; k > q; ) {
      const c = t.charCodeAt(k - 1);
      const start = c >= 0xdc00 && c < 0xe000 ? k - 2 : k - 1;
      if (cls[cpAt(t, start)]! & LOW) return k;
      k = start;
    }
    return -1;
  };
  return (t, p, n) => {
    const c0 = cpAt(t, p);
    const k0 = cls[c0]!;
    const w0 = c0 > 0xffff ? 2 : 1;
    const prefix = c0 !== CR && c0 !== LF && (k0 & (LET | NUM)) === 0 && p + w0 < n;
    // [^\r\n\p{L}\p{N}]?[upper]*[lower]+(?i:'s|...)?, with the prefix character, then without.
    if (prefix) {
      const e = upperThenLower(t, p + w0, n);
      if (e >= 0) return withContraction(t, e, n);
    }
    let e = upperThenLower(t, p, n);
    if (e >= 0) return withContraction(t, e, n);
    // [^\r\n\p{L}\p{N}]?[upper]+[lower]*(?i:'s|...)?
    if (prefix && cls[cpAt(t, p + w0)]! & UP) return withContraction(t, runOf(t, runOf(t, p + w0, n, UP), n, LOW), n);
    if (k0 & UP) return withContraction(t, runOf(t, runOf(t, p, n, UP), n, LOW), n);
    // \p{N}{1,3}
    if (k0 & NUM) {
      e = p;
      for (let i = 0; i < 3 && e < n && cls[cpAt(t, e)]! & NUM; i++) e += t.charCodeAt(e) >= 0xd800 && t.charCodeAt(e) < 0xdc00 ? 2 : 1;
      return e;
    }
    //  ?[^\s\p{L}\p{N}]+[\r\n/]*
    if (t.charCodeAt(p) === SPACE && p + 1 < n && (cls[cpAt(t, p + 1)]! & (WS | LET | NUM)) === 0) return punctuation(t, p + 1, n, true);
    if ((k0 & WS) === 0) return punctuation(t, p, n, true);
    return whiteSpaceNewline(t, p, n);
  };
}
