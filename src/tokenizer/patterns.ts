/**
 * The pre-tokenisation patterns of the reference (WASM `tiktoken`, which runs them with Rust
 * `fancy-regex` over `regex`), as the rank data spells them.
 *
 * They are not run as JavaScript regexes (scanner.ts splits text the same way, faster). A
 * verbatim copy would be wrong in JavaScript in three ways anyway:
 * - `\s` is White_Space in Rust; JavaScript's `\s` also has U+FEFF and lacks U+0085;
 * - `\p{...}` follows the Unicode version of the engine, which is not Node's ICU;
 * - `(?i:...)` is not JavaScript syntax, and its case folding must be Rust's (`'ſ` is a
 *   contraction there).
 */
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
