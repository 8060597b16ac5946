/**
 * Pre-tokenisation patterns, rebuilt in JavaScript with the semantics of the reference engine
 * (WASM `tiktoken`: Rust `fancy-regex` over `regex`).
 *
 * A verbatim copy of a source pattern would be wrong in JavaScript in three ways:
 * - `\s` is White_Space in Rust; JavaScript's `\s` also has U+FEFF and lacks U+0085;
 * - `\p{...}` follows the Unicode version of the engine, which is not Node's ICU;
 * - `(?i:...)` is not JavaScript syntax (and its case folding must match Rust's: `'ſ` is a
 *   contraction there).
 * So every class is spelled out from tables read back from the reference engine
 * (see unicode-classes.ts), and the case-insensitive group from its case folds.
 *
 * fancy-regex runs these patterns in a backtracking VM with leftmost-first alternation and greedy
 * quantifiers, the same matching rules as V8's irregexp, so the structure carries over unchanged.
 */
import { CASE_FOLDS, LETTER, LOWERISH, NUMBER, UPPERISH, WHITE_SPACE } from './unicode-classes.js';

export type PatternFamily = 'gpt2' | 'cl100k' | 'o200k';

/** The source patterns, exactly as the rank data spells them; anything else is rejected. */
export const SOURCE_PATTERNS: Readonly<Record<PatternFamily, string>> = {
  gpt2: "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+",
  cl100k:
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
  o200k:
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
};

/**
 * js-tiktoken ships cl100k_base and o200k_base with `(?i:...)` already expanded to
 * `('s|'S|'t|'T|...)`, which drops `'ſ`; the reference engine uses the `(?i:...)` form.
 */
export function familyOfPattern(source: string): PatternFamily | undefined {
  for (const [family, pattern] of Object.entries(SOURCE_PATTERNS) as [PatternFamily, string][]) {
    if (pattern === source) return family;
  }
  return undefined;
}

const hex = (cp: number): string => `\\u{${cp.toString(16)}}`;

/** The body of a character class (without brackets) for flattened inclusive ranges. */
export function classBody(ranges: readonly number[]): string {
  let out = '';
  for (let i = 0; i < ranges.length; i += 2) {
    const lo = ranges[i]!;
    const hi = ranges[i + 1]!;
    out += lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`;
  }
  return out;
}

let built: Readonly<Record<PatternFamily, string>> | undefined;

/** JavaScript sources (for the `u` flag) equivalent to {@link SOURCE_PATTERNS}. */
export function jsPatternSources(): Readonly<Record<PatternFamily, string>> {
  if (built) return built;
  const s = classBody(WHITE_SPACE);
  const l = classBody(LETTER);
  const n = classBody(NUMBER);
  const up = classBody(UPPERISH);
  const low = classBody(LOWERISH);
  const fold = (c: string): string => `[${[...(CASE_FOLDS[c] ?? c)].map((ch) => hex(ch.codePointAt(0)!)).join('')}]`;
  const contractionsCi = `'(?:${fold('s')}|${fold('t')}|${fold('r')}${fold('e')}|${fold('v')}${fold('e')}|${fold('m')}|${fold('l')}${fold('l')}|${fold('d')})`;
  const ws = `[${s}]`;
  const notWs = `[^${s}]`;
  const other = `[^${s}${l}${n}]`;
  const prefix = `[^\\r\\n${l}${n}]`;
  built = {
    gpt2: `'s|'t|'re|'ve|'m|'ll|'d| ?[${l}]+| ?[${n}]+| ?${other}+|${ws}+(?!${notWs})|${ws}+`,
    cl100k: `${contractionsCi}|${prefix}?[${l}]+|[${n}]{1,3}| ?${other}+[\\r\\n]*|${ws}*[\\r\\n]+|${ws}+(?!${notWs})|${ws}+`,
    o200k:
      `${prefix}?[${up}]*[${low}]+(?:${contractionsCi})?|${prefix}?[${up}]+[${low}]*(?:${contractionsCi})?|` +
      `[${n}]{1,3}| ?${other}+[\\r\\n/]*|${ws}*[\\r\\n]+|${ws}+(?!${notWs})|${ws}+`,
  };
  return built;
}
