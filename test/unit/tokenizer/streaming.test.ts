/**
 * A streaming counter gives the count of the whole text, however the text is chunked.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { ENCODING_NAMES, type EncodingName } from '../../../src/tokenizer/encodings.js';
import { ENCODINGS } from '../../../src/tokenizer/encodings.js';
import { decodeRankTable } from '../../../src/tokenizer/rank-table.js';
import { createStreamingCounter, isNormalizationBoundary, isSafeCut } from '../../../src/tokenizer/streaming.js';
import { TokenizerCore } from '../../../src/tokenizer/tokenizer.js';
import { corpus, fuzzString, pick, rng, SPECIAL_STRINGS, type Rng } from './support/corpus.js';
import { ourPieces } from './support/pieces.js';
import { claudeCounter, ourCore, ours, withTiktoken, freeTiktokens, RANKS_DIR } from './support/reference.js';
import { growth } from './support/timing.js';

afterAll(freeTiktokens);

/** Splits text at random places, surrogate pairs and special tokens included. */
function chunk(r: Rng, text: string, maxChunk: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(r() * maxChunk);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}

function streamed(name: EncodingName, chunks: readonly string[], minBatch?: number): number {
  const counter = minBatch === undefined ? ours(name).counter() : createStreamingCounter(ourCore(name), minBatch);
  for (const c of chunks) counter.write(c);
  return counter.end();
}

const SAMPLES = corpus(31337, 25).map((s) => s.text);

/** Longer texts: concatenated samples, so that cuts happen between and inside them. */
function documents(r: Rng, count: number): string[] {
  return Array.from({ length: count }, () => Array.from({ length: 5 + Math.floor(r() * 25) }, () => pick(r, SAMPLES)).join(pick(r, ['', ' ', '\n'])));
}

describe.each(ENCODING_NAMES)('%s streaming counter', (name) => {
  const tokenizer = ours(name);

  it('equals count() of the whole text for random chunkings, cutting as soon as it can', () => {
    const r = rng(name.length * 131);
    const bad: { text: string; chunks: string[]; whole: number; streamed: number }[] = [];
    for (const text of [...SAMPLES, ...documents(r, 8)]) {
      const whole = tokenizer.count(text);
      for (const [maxChunk, minBatch] of [[1, 1], [40, 16]] as const) {
        const chunks = chunk(r, text, maxChunk);
        const total = streamed(name, chunks, minBatch);
        if (total !== whole) bad.push({ text, chunks, whole, streamed: total });
      }
    }
    expect(bad.slice(0, 3)).toEqual([]);
  });

  it('equals the reference on long documents written in chunks of any size', () => {
    const r = rng(name.length * 733);
    const texts = documents(r, 6).map((d) => d.repeat(3));
    const expected =
      name === 'claude'
        ? (() => {
            const ref = claudeCounter();
            try {
              return texts.map((t) => ref.count(t));
            } finally {
              ref.free();
            }
          })()
        : withTiktoken(name, (enc) => texts.map((t) => enc.encode(t, 'all').length));
    expect(texts.map((t) => streamed(name, chunk(r, t, 5000)))).toEqual(expected);
  });

  it('handles a special token split at every position', () => {
    for (const special of SPECIAL_STRINGS) {
      const text = `before ${special}after${special}`;
      for (let i = 1; i < text.length; i++) {
        expect(streamed(name, [text.slice(0, i), text.slice(i)], 1), `${special} split at ${i}`).toBe(tokenizer.count(text));
      }
    }
  });

  it('rejects writes after end', () => {
    const counter = tokenizer.counter();
    counter.write('hello');
    expect(counter.end()).toBe(1);
    expect(() => counter.write('x')).toThrow();
  });
});

// One encoding per pattern family, and Claude for its normalisation stage.
describe.each(['o200k_base', 'cl100k_base', 'r50k_base', 'claude'] as const)('%s streaming counter on long input', (name) => {
  const tokenizer = ours(name);

  it('keeps a bounded tail on long text', () => {
    const r = rng(5);
    const counter = tokenizer.counter();
    let written = '';
    let maxPending = 0;
    while (written.length < 500_000) {
      const piece = pick(r, SAMPLES) + ' ';
      counter.write(piece);
      written += piece;
      maxPending = Math.max(maxPending, counter.pending);
    }
    expect(counter.end()).toBe(tokenizer.count(written));
    // Gathering batches of 16 K characters, plus a tail that ends at the last safe cut.
    expect(maxPending).toBeLessThan(40_000);
  });

  it('counts one huge piece written in small chunks in linear time', () => {
    const run = (length: number): void => {
      const huge = tokenizer.counter();
      const chunk = 'a'.repeat(1000);
      for (let i = 0; i < length; i += 1000) huge.write(chunk);
      huge.end();
    };
    expect(growth(run, 50_000, 500_000)).toBeLessThan(25);
  });
});

describe.each(['o200k_base', 'cl100k_base', 'r50k_base', 'claude'] as const)('%s streaming counter on lines of punctuation', (name) => {
  const tokenizer = ours(name);

  it('keeps a bounded tail on lines without spaces or words', () => {
    const counter = tokenizer.counter();
    let maxPending = 0;
    for (let i = 0; i < 20_000; i++) {
      counter.write('}\n');
      counter.write(i % 2 ? '!!\r\n' : '--\n');
      maxPending = Math.max(maxPending, counter.pending);
    }
    expect(counter.end()).toBe(tokenizer.count('}\n--\n}\n!!\r\n'.repeat(10_000)));
    expect(maxPending).toBeLessThan(40_000);
  });
});

describe('safe cuts', () => {
  it('never fall inside a piece of any pattern family', () => {
    const r = rng(99);
    for (const family of ['gpt2', 'cl100k', 'o200k'] as const) {
      let cuts = 0;
      for (let k = 0; k < 3000; k++) {
        const text = fuzzString(r, 2 + Math.floor(r() * 30));
        const whole = ourPieces(family, text).join('\u0000');
        for (let c = 1; c < text.length; c++) {
          if (!isSafeCut(text, c, family)) continue;
          cuts++;
          expect([...ourPieces(family, text.slice(0, c)), ...ourPieces(family, text.slice(c))].join('\u0000'), JSON.stringify([text, c])).toBe(whole);
        }
      }
      expect(cuts).toBeGreaterThan(1000);
    }
  });
});

describe('NFKC across chunks (claude)', () => {
  it('normalises sequences split between chunks as a whole', () => {
    expect(ENCODINGS.claude.nfkc).toBe(true);
    const tokenizer = ours('claude');
    for (const text of ['ｶﾞｷﾞｸﾞ', 'e\u0301e\u0301', '\u1100\u1161\u11a8', 'ㄱㅏㄱ', 'ﬁﬁ', 'A\u030a\u0323', '\u0958\u093c', 'x\u0338=']) {
      const padded = `abc ${text} def`;
      for (let i = 1; i < padded.length; i++) {
        expect(streamed('claude', [padded.slice(0, i), padded.slice(i)], 1), JSON.stringify([padded, i])).toBe(tokenizer.count(padded));
      }
    }
  });

  it('treats as boundaries only characters that cannot join what precedes them', () => {
    for (const ch of ['a', ' ', '中', '가', 'ア']) expect(isNormalizationBoundary(ch), ch).toBe(true);
    for (const ch of ['\u0301', 'ﾞ', '\u1161', 'ㅏ', '\u11a8', '\ud800', '\udc00']) expect(isNormalizationBoundary(ch), ch).toBe(false);
    // Property: NFKC(a + b) = NFKC(a) + NFKC(b) when b starts with a boundary character.
    const r = rng(3);
    const alphabet = ['a', 'e', 'A', ' ', '\u0301', '\u0323', '\u0338', 'ｶ', 'ﾞ', 'ﾟ', 'ᄀ', '\u1161', '\u11a8', '가', 'ㄱ', 'ㅏ', 'ﬁ', '①', '\u0b47', '\u0b3e', '\u09c7', '\u09be', 'Å', '\u212b', 'ſ', '\u1e9b'];
    for (let k = 0; k < 20_000; k++) {
      const a = fuzzString(r, 1 + Math.floor(r() * 6), alphabet);
      const b = fuzzString(r, 1 + Math.floor(r() * 6), alphabet);
      if (isNormalizationBoundary(b[0]!)) expect(a.normalize('NFKC') + b.normalize('NFKC'), JSON.stringify([a, b])).toBe((a + b).normalize('NFKC'));
    }
  });
});

/**
 * A text whose pieces are long and of every kind (runs of one character, runs without spaces,
 * digits, mixed scripts, special tokens), with pieces longer than a window of 512 bytes (the
 * smallest for the OpenAI encodings: four times their longest token).
 */
function trickyText(): string {
  const r = rng(11);
  const scripts = ['abc', 'Ωμέγα', '中文字', 'カタカナ', '한국어', '٣٤٥', '123', '😀', "'ll", '!', '\n'];
  return [
    'Hi  \n\n  ',
    ' '.repeat(700),
    'x',
    'a'.repeat(800),
    ' 1234567 ',
    Array.from({ length: 60 }, () => pick(r, scripts)).join(''),
    '<|endoftext|>',
    '!'.repeat(700),
    '\n \n',
    '7'.repeat(40),
  ].join('');
}

describe.each(['o200k_base', 'cl100k_base', 'r50k_base', 'claude'] as const)('%s streaming counter, a text cut at every position', (name) => {
  it('counts a piece split across the cut as if whole', () => {
    const core = new TokenizerCore(name, decodeRankTable(readFileSync(`${RANKS_DIR}${name}.bin`)), { window: 512 });
    const text = trickyText();
    const expected =
      name === 'claude'
        ? (() => {
            const ref = claudeCounter();
            try {
              return ref.count(text);
            } finally {
              ref.free();
            }
          })()
        : withTiktoken(name, (enc) => enc.encode(text, 'all').length);
    const bad: number[] = [];
    for (let i = 1; i < text.length; i++) {
      const counter = createStreamingCounter(core, 1);
      counter.write(text.slice(0, i));
      counter.write(text.slice(i));
      if (counter.end() !== expected) bad.push(i);
    }
    expect(bad).toEqual([]);
  }, 300_000);
});
