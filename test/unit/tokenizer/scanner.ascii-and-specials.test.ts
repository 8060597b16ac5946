/**
 * The paths that keep a short count cheap: the scanner over ASCII text (with a class table that
 * covers ASCII only, until a text holds anything else) and the search for special tokens with
 * indexOf.
 * Both must give what the reference gives, whatever order texts come in.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiClassTable, classTable, makeScanner } from '../../../src/tokenizer/scanner.js';
import { RUN_BITS, RUN_LENGTHS } from '../../../src/tokenizer/unicode-classes.js';
import type { PatternFamily } from '../../../src/tokenizer/patterns.js';
import { decodeRankTable } from '../../../src/tokenizer/rank-table.js';
import { createTokenizer, type Tokenizer } from '../../../src/tokenizer/tokenizer.js';
import type { EncodingName } from '../../../src/tokenizer/encodings.js';
import { fuzzString, rng, SPECIAL_STRINGS } from './support/corpus.js';
import { pieceMismatches } from './support/pieces.js';
import { freeTiktokens, RANKS_DIR, withTiktoken } from './support/reference.js';

afterAll(freeTiktokens);

const FAMILIES: PatternFamily[] = ['gpt2', 'cl100k', 'o200k'];

/** A tokenizer of its own (the shared ones may have left the ASCII path already). */
function freshTokenizer(name: EncodingName): Tokenizer {
  return createTokenizer(name, decodeRankTable(readFileSync(`${RANKS_DIR}${name}.bin`)));
}

const ASCII_ALPHABET = ["'", 's', 'S', 'l', 'L', 'e', 'x', 'X', '1', ' ', '\n', '\r', '\t', '/', '!', '\u000b'];
const ASCII_ALL = Array.from({ length: 128 }, (_, i) => String.fromCharCode(i));

// These run first in this file, while the class table covers ASCII only (as does the first
// tokenizer test below, until its first text that is not ASCII).
describe.each(FAMILIES)('%s scanner made before the class table is complete', (family) => {
  const scan = makeScanner(family, true);
  const split = (_: PatternFamily, text: string): string[] => {
    const pieces: string[] = [];
    for (let p = 0; p < text.length; ) {
      const e = scan(text, p, text.length);
      pieces.push(text.slice(p, e));
      p = e;
    }
    return pieces;
  };

  it('has only ASCII to go by yet', () => {
    const partial = asciiClassTable();
    expect(partial.subarray(0x80).every((bits) => bits === 0)).toBe(true);
    expect(partial[0x61]).not.toBe(0);
  });

  it('splits every ASCII string of up to 3 characters of a branch-covering alphabet like the reference', () => {
    const texts: string[] = [];
    let layer = [''];
    for (let len = 1; len <= 3; len++) {
      layer = layer.flatMap((s) => ASCII_ALPHABET.map((c) => s + c));
      texts.push(...layer);
    }
    expect(pieceMismatches(family, texts, split)).toEqual([]);
  });

  it('splits random strings of all 128 ASCII characters like the reference', () => {
    const r = rng(family.length * 31);
    const texts = Array.from({ length: 3000 }, () => fuzzString(r, 1 + Math.floor(r() * 24), ASCII_ALL));
    expect(pieceMismatches(family, texts, split)).toEqual([]);
  });
});

describe.each(['o200k_base', 'cl100k_base', 'gpt2'] as const)('%s', (name) => {
  it('streams ASCII, then other text, then special tokens, like the reference', () => {
    const tokenizer = freshTokenizer(name);
    const r = rng(name.length * 17);
    const ascii = fuzzString(r, 40_000, ASCII_ALPHABET);
    // After the ASCII, letters and white space that are not ASCII, where cuts need the classes.
    const other = Array.from({ length: 4000 }, (_, i) => ['日\u3000  ', 'ż\u00a0  ', 'é\u2028  '][i % 3]).join('');
    const text = `${ascii}${other}<|endoftext|>${ascii.slice(0, 20_000)}<|endoftext|>`;
    const counter = tokenizer.counter();
    for (let at = 0; at < text.length; at += 997) counter.write(text.slice(at, at + 997));
    withTiktoken(name, (enc) => {
      expect(counter.end()).toBe(enc.encode(text, 'all').length);
    });
  });

  it('counts ASCII texts, then others, then ASCII again like the reference', () => {
    const tokenizer = freshTokenizer(name);
    const texts = ["hello world, it's 2024!", 'x'.repeat(100), 'héllo wörld', 'Straße 日本語 😀 \u0301x', "don't STOP\r\n  now", 'naïve café'];
    withTiktoken(name, (enc) => {
      for (const text of texts) expect(tokenizer.count(text), text).toBe(enc.encode(text, 'all').length);
    });
  });

  it('counts like the reference after more ASCII than the check covers', () => {
    const tokenizer = freshTokenizer(name);
    const r = rng(5);
    const long = fuzzString(r, 70_000, ASCII_ALPHABET);
    withTiktoken(name, (enc) => {
      expect(tokenizer.count(long)).toBe(enc.encode(long, 'all').length);
      expect(tokenizer.count('ǅungla über')).toBe(enc.encode('ǅungla über', 'all').length);
    });
  });

  it('finds special tokens wherever they are, adjacent, repeated and cut short, like the reference', () => {
    const tokenizer = freshTokenizer(name);
    const r = rng(name.length * 13);
    const parts = [...SPECIAL_STRINGS, '<|', '|>', '<|endoftext', 'endoftext|>', ' ', 'a', 'é', '\n'];
    withTiktoken(name, (enc) => {
      for (let i = 0; i < 300; i++) {
        const text = Array.from({ length: 1 + Math.floor(r() * 8) }, () => parts[Math.floor(r() * parts.length)]).join('');
        const reference = Array.from(enc.encode(text, 'all'));
        expect(tokenizer.encode(text), text).toEqual(reference);
        expect(tokenizer.count(text), text).toBe(reference.length);
      }
    });
  });
});

describe('class table filled in two steps', () => {
  it('is the table a single walk over the runs gives, in the same array', () => {
    const partial = asciiClassTable();
    const ascii = [...partial.subarray(0, 0x80)];
    const full = classTable();
    expect(full).toBe(partial);
    expect([...full.subarray(0, 0x80)]).toEqual(ascii);
    // Every code point, against the runs expanded directly.
    const expected = new Uint8Array(0x110000);
    let cp = 0;
    RUN_LENGTHS.forEach((length, i) => {
      expected.fill(RUN_BITS.charCodeAt(i) - 48, cp, cp + length);
      cp += length;
    });
    expect(Buffer.compare(full, expected)).toBe(0);
  });
});
