/**
 * The hand-written scanners split text exactly where the reference engine does: checked piece by
 * piece against WASM tiktoken running the source patterns (see support/pieces.ts).
 */
import { describe, expect, it } from 'vitest';
import type { PatternFamily } from '../../../src/tokenizer/patterns.js';
import { corpus, fuzzString, randomCodePoint, rng } from './support/corpus.js';
import { makeScanner } from '../../../src/tokenizer/scanner.js';
import { pieceMismatches } from './support/pieces.js';
import { growth } from './support/timing.js';

const FAMILIES: PatternFamily[] = ['gpt2', 'cl100k', 'o200k'];

/** Characters that exercise every branch of a family's pattern. */
const ALPHABETS: Record<PatternFamily, string[]> = {
  gpt2: ["'", 's', 'l', 'e', 'X', '1', ' ', '\n', '\t', '!', '\u0301', '\u00a0', '\u0085'],
  cl100k: ["'", 's', 'S', '\u017f', 'l', 'e', '1', ' ', '\n', '\r', '!', '\t', '\u0301'],
  o200k: ["'", 's', 'A', 'a', '\u01c5', '\u02b0', '\u4e2d', '\u0301', '1', ' ', '\n', '/', '!'],
};

const WIDE = [
  ...new Set([...Object.values(ALPHABETS).flat(), 'L', 'D', 'r', 'v', 'm', 'd', 'T', 'E', '\u212a', '\ufeff', '\u3000', '\u2028', '\u000b', '\u000c', '\r', '\u{20000}', '\u{1d7d8}', '\u{1f600}', '\u{e0100}', '\u{1d400}', '\u{10400}', '\u{10428}', '\u0660', '\u00b2', '\u2160', '\ud800', '\udc00']),
];

function allStrings(alphabet: readonly string[], maxLength: number): string[] {
  const out: string[] = [];
  let layer = [''];
  for (let len = 1; len <= maxLength; len++) {
    layer = layer.flatMap((s) => alphabet.map((c) => s + c));
    out.push(...layer);
  }
  return out;
}

describe.each(FAMILIES)('%s scanner', (family) => {
  it('splits every string of up to 4 characters of its alphabet like the reference', () => {
    const texts = allStrings(ALPHABETS[family], 4);
    expect(texts.length).toBeGreaterThan(28_000);
    expect(pieceMismatches(family, texts)).toEqual([]);
  });

  it('splits random strings over a wide alphabet (astral letters and digits, lone surrogates) like the reference', () => {
    const r = rng(family.length * 7919);
    const texts = Array.from({ length: 4000 }, () => fuzzString(r, 1 + Math.floor(r() * 30), WIDE));
    expect(pieceMismatches(family, texts)).toEqual([]);
  });

  it('splits random code points from every plane like the reference', () => {
    const r = rng(family.length * 104729);
    const texts = Array.from({ length: 3000 }, () => Array.from({ length: 1 + Math.floor(r() * 12) }, () => randomCodePoint(r)).join(''));
    expect(pieceMismatches(family, texts)).toEqual([]);
  });

  it('splits the differential corpus like the reference', () => {
    expect(pieceMismatches(family, corpus(99, 40).map((s) => s.text))).toEqual([]);
  });

  it('splits long runs in linear time', () => {
    const scan = makeScanner(family);
    for (const ch of [' ', 'a', 'A', '!', '\u{1f600}', ' \n', '\u0301']) {
      const run = (length: number): void => {
        const text = ch.repeat(length / ch.length) + 'x';
        for (let p = 0; p < text.length; ) p = scan(text, p, text.length);
      };
      // Linear is 10x; a quadratic scan would be 100x.
      expect(growth(run, 100_000, 1_000_000), JSON.stringify(ch)).toBeLessThan(25);
    }
  });
});

describe('the piece oracle', () => {
  it('reports a split that differs from the reference (JavaScript \\s semantics)', () => {
    // A naive translation of the gpt2 pattern with JavaScript's own \s and \p{...}.
    const naive = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;
    const split = (_: PatternFamily, text: string): string[] => text.match(naive) ?? [];
    const texts = ['\ufeff\ufeffx', 'x\u0085\u0085y', 'hello world'];
    expect(pieceMismatches('gpt2', texts, split).map((m) => m.text)).toEqual(['\ufeff\ufeffx', 'x\u0085\u0085y']);
  });
});
