/**
 * Merging a piece through a bounded window gives the tokens of merging it whole, on the worst
 * cases of the real vocabularies, on random vocabularies built to disagree, and against the
 * reference; and the window does not grow with the piece.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BytePairMerger } from '../../../src/tokenizer/bpe.js';
import type { EncodingName } from '../../../src/tokenizer/encodings.js';
import { LongPieceMerger, WINDOW_BYTES } from '../../../src/tokenizer/long-piece.js';
import { decodeRankTable, encodeRankTable, type RankTable } from '../../../src/tokenizer/rank-table.js';
import { corpus, pick, rng, type Rng } from './support/corpus.js';
import { freeTiktokens, RANKS_DIR, withTiktoken } from './support/reference.js';

afterAll(freeTiktokens);

const tables = new Map<string, RankTable>();
function table(name: EncodingName): RankTable {
  let t = tables.get(name);
  if (!t) tables.set(name, (t = decodeRankTable(readFileSync(`${RANKS_DIR}${name}.bin`))));
  return t;
}

/** The tokens of the whole text merged at once. */
function whole(merger: BytePairMerger, text: string): number[] {
  const bytes = new TextEncoder().encode(text);
  const out: number[] = [];
  merger.merge(bytes, bytes.length, out);
  return out;
}

/** The tokens of the text merged through a window of (at least) `window` bytes. */
function windowed(long: LongPieceMerger, text: string): number[] {
  const out: number[] = [];
  expect(long.merge(text, 0, text.length, out)).toBe(out.length);
  return out;
}

const letters = (r: Rng, n: number, alphabet: string): string => {
  const chars = [...alphabet];
  return Array.from({ length: n }, () => pick(r, chars)).join('');
};

/** The worst cases: runs of one character, and long runs that no pattern splits. */
function worstCases(r: Rng, bytes: number): Record<string, string> {
  const run = (ch: string): string => ch.repeat(Math.ceil(bytes / new TextEncoder().encode(ch).length));
  return {
    spaces: run(' '),
    letter: run('a'),
    digit: run('7'),
    newline: run('\n'),
    '中': run('中'),
    '😀': run('😀'),
    ab: run('ab'),
    'random letters': letters(r, bytes, 'abcdefghijklmnopqrstuvwxyz'),
    'random symbols': letters(r, bytes, '!"#$%&()*+,-./:;<=>?@[]^_`{|}~'),
    'random CJK': letters(r, bytes / 3, '中文字体漢字東京都大阪府日本語'),
    // Any text can be merged as one piece: ordinary text gives cuts of every kind.
    mixed: corpus(9, 200).map((s) => s.text).join('').slice(0, bytes),
  };
}

describe.each(['o200k_base', 'cl100k_base', 'r50k_base', 'claude'] as const)('%s: a piece merged through a window', (name) => {
  const merger = new BytePairMerger(table(name));

  it('gives the tokens of the whole piece on every worst case', () => {
    // The smallest window (4 times the longest token), so that each piece crosses many.
    const long = new LongPieceMerger(merger, table(name).maxTokenBytes(), 0);
    const r = rng(name.length);
    for (const [label, text] of Object.entries(worstCases(r, 24 * table(name).maxTokenBytes() * 4))) {
      expect(windowed(long, text), label).toEqual(whole(merger, text));
    }
  });
});

describe('a piece merged through a window, against WASM tiktoken', () => {
  it('gives the reference tokens on runs longer than the window', () => {
    const merger = new BytePairMerger(table('o200k_base'));
    const long = new LongPieceMerger(merger, table('o200k_base').maxTokenBytes(), 0);
    withTiktoken('o200k_base', (enc) => {
      for (const text of [' '.repeat(5000), 'a'.repeat(6001), '!'.repeat(4500), '\u4e2d'.repeat(2100), '\u{1f600}'.repeat(1600), 'xyz'.repeat(1800)]) {
        expect(windowed(long, text), JSON.stringify(text.slice(0, 2))).toEqual(Array.from(enc.encode(text, 'all')));
      }
    });
  });
});

/**
 * A vocabulary over a few letters: every letter, then random strings of them with random ranks.
 * Nothing like a trained vocabulary, which is the point: the cuts must not rely on one.
 */
function randomVocabulary(r: Rng, alphabet: string, wanted: number, longest: number): RankTable {
  // No more tokens than there are strings of 2 to `longest` letters.
  let possible = alphabet.length;
  for (let n = 2; n <= longest; n++) possible += alphabet.length ** n;
  const size = Math.min(wanted, possible);
  const tokens = new Set<string>([...alphabet]);
  while (tokens.size < size) tokens.add(letters(r, 2 + Math.floor(r() * (longest - 1)), alphabet));
  const ordered = [...tokens];
  // Letters first, then a random order.
  const rest = ordered.slice(alphabet.length).sort(() => r() - 0.5);
  const all = [...ordered.slice(0, alphabet.length), ...rest].map((t) => new TextEncoder().encode(t));
  return decodeRankTable(encodeRankTable({ name: 'test', pattern: '', specials: {}, source: 'test' }, all));
}

describe('a piece merged through a window, on random vocabularies', () => {
  it('gives the tokens of the whole piece', () => {
    const r = rng(2025);
    let pieces = 0;
    for (let v = 0; v < 60; v++) {
      const alphabet = 'abcd'.slice(0, 2 + (v % 3));
      const vocabulary = randomVocabulary(r, alphabet, 8 + Math.floor(r() * 40), 2 + (v % 5));
      const merger = new BytePairMerger(vocabulary);
      const long = new LongPieceMerger(merger, vocabulary.maxTokenBytes(), 0);
      for (let k = 0; k < 10; k++) {
        const text = k % 3 === 0 ? letters(r, 1, alphabet).repeat(300 + Math.floor(r() * 3000)) : letters(r, 300 + Math.floor(r() * 3000), alphabet);
        expect(windowed(long, text), `vocabulary ${v}, text ${k}`).toEqual(whole(merger, text));
        pieces++;
      }
    }
    expect(pieces).toBe(600);
  });

  it('grows the window when the merges at its start depend on text past its end', () => {
    // Bytes 0, 1, 2... in a row, where the pair (i, i + 1) is a token whose rank falls as i
    // rises: the last pair merges first, then every second one from the right, so the tokens at
    // the start depend on whether the text is of even or odd length.
    const single = Array.from({ length: 128 }, (_, b) => Uint8Array.of(b));
    const pairs = Array.from({ length: 127 }, (_, k) => Uint8Array.of(126 - k, 127 - k));
    const vocabulary = decodeRankTable(encodeRankTable({ name: 'test', pattern: '', specials: {}, source: 'test' }, [...single, ...pairs]));
    const merger = new BytePairMerger(vocabulary);
    for (const length of [127, 128]) {
      const text = String.fromCharCode(...Array.from({ length }, (_, i) => i));
      const long = new LongPieceMerger(merger, vocabulary.maxTokenBytes(), 0);
      expect(windowed(long, text), `${length} bytes`).toEqual(whole(merger, text));
      expect(long.peakWindow).toBeGreaterThanOrEqual(length);
    }
  });
});

describe('the window of a long piece', () => {
  it('does not grow with the piece', () => {
    const merger = new BytePairMerger(table('o200k_base'));
    for (const [label, text] of Object.entries(worstCases(rng(1), 1 << 20))) {
      if (label === 'mixed') continue;
      const long = new LongPieceMerger(merger, table('o200k_base').maxTokenBytes());
      long.merge(text, 0, text.length);
      // Sixteen windows or more.
      expect(long.pieceBytes, label).toBeGreaterThanOrEqual((1 << 20) - 3);
      expect(long.peakWindow, label).toBeLessThanOrEqual(WINDOW_BYTES);
    }
  });
});
