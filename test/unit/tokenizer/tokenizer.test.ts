/**
 * Counts and token ids compared with the reference implementations, computed in the same run,
 * over a generated corpus aimed at the known traps.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeRankTable } from '../../../src/tokenizer/rank-table.js';
import { classTable, LET } from '../../../src/tokenizer/scanner.js';
import { createTokenizer } from '../../../src/tokenizer/tokenizer.js';
import { corpus, pick, rng, SPECIAL_STRINGS, type Sample } from './support/corpus.js';
import { claudeCounter, claudeCountTokens, OPENAI_ENCODINGS, ours, withTiktoken, freeTiktokens, RANKS_DIR } from './support/reference.js';

afterAll(freeTiktokens);

const SAMPLES = corpus(20240611, 60);

/** Samples whose counts differ; reported whole so that a failure shows the text. */
function mismatches(samples: readonly Sample[], actual: (t: string) => number, expected: (t: string) => number) {
  const bad: { kind: string; text: string; ours: number; reference: number }[] = [];
  for (const { kind, text } of samples) {
    const a = actual(text);
    const e = expected(text);
    if (a !== e) bad.push({ kind, text, ours: a, reference: e });
  }
  return bad;
}

describe.each(OPENAI_ENCODINGS)('%s against WASM tiktoken', (name) => {
  const tokenizer = ours(name);

  it(`counts every sample of the corpus (${SAMPLES.length}) like encode(text, "all").length`, () => {
    const bad = withTiktoken(name, (enc) => mismatches(SAMPLES, (t) => tokenizer.count(t), (t) => enc.encode(t, 'all').length));
    expect(bad).toEqual([]);
  });

  it('produces the same token ids on every third sample', () => {
    const sample = SAMPLES.filter((_, i) => i % 3 === 0);
    withTiktoken(name, (enc) => {
      const bad = sample.filter(({ text }) => tokenizer.encode(text).join() !== Array.from(enc.encode(text, 'all')).join());
      expect(bad).toEqual([]);
    });
  });

  it('encodes each special token string of this encoding as that one token, and others as text', () => {
    withTiktoken(name, (enc) => {
      for (const special of SPECIAL_STRINGS) {
        const text = `x ${special}${special} y`;
        expect(tokenizer.encode(text)).toEqual(Array.from(enc.encode(text, 'all')));
      }
      // Sanity check of the check: at least one special token of this encoding is a single id.
      expect(enc.encode('<|endoftext|>', 'all').length).toBe(1);
      expect(tokenizer.count('<|endoftext|>')).toBe(1);
    });
  });
});

describe('claude against @anthropic-ai/tokenizer', () => {
  const tokenizer = ours('claude');

  it('counts like countTokens itself on a sample, and like its body on the whole corpus', () => {
    const reference = claudeCounter();
    try {
      const r = rng(7);
      const sample = Array.from({ length: 4 }, () => pick(r, SAMPLES));
      // countTokens is slow (it rebuilds its tokenizer per call), so it checks the faster
      // equivalent on a sample, which then checks us everywhere.
      expect(sample.map((s) => reference.count(s.text))).toEqual(sample.map((s) => claudeCountTokens(s.text)));
      expect(sample.map((s) => tokenizer.count(s.text))).toEqual(sample.map((s) => claudeCountTokens(s.text)));
      expect(mismatches(SAMPLES, (t) => tokenizer.count(t), (t) => reference.count(t))).toEqual([]);
    } finally {
      reference.free();
    }
  });

  it('normalises to NFKC before splitting and merging', () => {
    // Compatibility forms differ from their NFKC form in the raw text; the counts must follow NFKC.
    for (const text of ['ﬁnance ①②', 'Ｈｅｌｌｏ　ｗｏｒｌｄ', 'ｶﾞｷﾞ', 'e\u0301te\u0301']) {
      expect(tokenizer.count(text)).toBe(tokenizer.count(text.normalize('NFKC')));
      expect(tokenizer.count(text)).toBe(claudeCountTokens(text));
    }
  });
});

/**
 * The known traps, one by one, each checked against the reference in the same run. (The
 * generated corpus covers them too; these name them.)
 */

/** A code point that Node's Unicode calls a letter and the reference's older tables do not. */
function newerLetter(): string {
  const classes = classTable();
  for (let cp = 0x10000; cp < 0x110000; cp++) {
    const ch = String.fromCodePoint(cp);
    if (/\p{L}/u.test(ch) && (classes[cp]! & LET) === 0) return ch;
  }
  throw new Error('no letter newer than the reference tables');
}

const TRAPS: Record<string, string[]> = {
  'U+FEFF is not white space, U+0085 is': ['\ufeff\ufeffHello', 'a \ufeff b', 'x\u0085\u0085y', 'end\u0085', '\ufeff \ufeff\n'],
  'letters newer than the reference are not letters': [`a${newerLetter()}b`, ` ${newerLetter()}${newerLetter()} x`],
  'contractions are case-insensitive, long s included': ["DON'T", "He'S", "WE'LL", "they'Re", "it'\u017f", "'\u017fx", "I'M", "x'\u212a"],
  'lone surrogates become U+FFFD': ['\ud800abc', 'x\udc00', '\udc00\ud800', 'a\ud83d b', '\ufffd\ud800'],
  'special tokens are single tokens, partial ones are text': ['<|endoftext|>', '<|endoftext|', 'x<|endoftext|>y', '<|fim_prefix|><|endofprompt|>', '<<|endoftext|>>'],
  'white space before text gives one space to the word': ['', 'a   b', 'a   \n  b', '   ', 'x \t\n y', '\n\n\n', ' \u00a0 x'],
};

describe.each(OPENAI_ENCODINGS)('%s', (name) => {
  const tokenizer = ours(name);
  it.each(Object.entries(TRAPS))('%s', (_, texts) => {
    withTiktoken(name, (enc) => {
      for (const text of texts) expect(tokenizer.encode(text), JSON.stringify(text)).toEqual(Array.from(enc.encode(text, 'all')));
    });
  });
});

describe('claude', () => {
  it('normalises, then counts special tokens that NFKC produced', () => {
    const tokenizer = ours('claude');
    for (const text of ['\uff1cEOT\uff1e', '<META_START>\ufb01', '\ufeff<SOS>', "DON'T \ud800"]) {
      expect(tokenizer.count(text), JSON.stringify(text)).toBe(claudeCountTokens(text));
    }
  });
});

describe('the piece cache', () => {
  it('does not change any count', () => {
    const plain = createTokenizer('o200k_base', decodeRankTable(readFileSync(`${RANKS_DIR}o200k_base.bin`)), { cacheSize: 0 });
    const cached = ours('o200k_base');
    const texts = corpus(8, 20).map((s) => s.text);
    // Twice: the second round is answered from the caches.
    for (let round = 0; round < 2; round++) {
      expect(texts.map((t) => cached.count(t))).toEqual(texts.map((t) => plain.count(t)));
    }
    expect(texts.map((t) => cached.count(t))).toEqual(texts.map((t) => cached.encode(t).length));
  });

  it('keeps a piece that starts with a byte-order mark apart from the same piece without it', () => {
    const plain = createTokenizer('o200k_base', decodeRankTable(readFileSync(`${RANKS_DIR}o200k_base.bin`)), { cacheSize: 0 });
    const cached = createTokenizer('o200k_base', decodeRankTable(readFileSync(`${RANKS_DIR}o200k_base.bin`)));
    // Pieces of 13 units or more, of several tokens, each also counted in a longer text.
    for (const piece of ['\ufeffxylophonequartzwaltz', 'xylophonequartzwaltz', '\ufeff\ufeffxylophonequartzwaltz']) {
      for (const text of [piece, `${piece} and more`]) expect(cached.count(text), JSON.stringify(text)).toBe(plain.count(text));
    }
  });
});

/**
 * The inputs that cost the most: one character repeated, long runs that no pattern splits, long
 * digit runs, mixed scripts without spaces. With the smallest window, their pieces are merged
 * through windows (see long-piece.ts) at sizes the reference merges quickly.
 */
function worstCases(): Record<string, string> {
  const r = rng(77);
  const letters = (n: number, alphabet: readonly string[]): string => Array.from({ length: n }, () => pick(r, alphabet)).join('');
  const scripts = ['abc', 'ÄÖÜ', 'Ωμέγα', 'Привет', '中文字', 'カタカナ', '한국어', 'عربي', '٣٤٥', '123', 'é', '😀', 'ﬁ'];
  return {
    spaces: ' '.repeat(5000),
    tabs: '\t'.repeat(4100),
    newlines: '\n'.repeat(4500),
    'spaces then a word': `${' '.repeat(4400)}word`,
    'a letter': 'a'.repeat(6001),
    'a capital': 'A'.repeat(4200),
    'a digit': '7'.repeat(5000),
    '中': '中'.repeat(2100),
    '😀': '😀'.repeat(1600),
    '!': '!'.repeat(4500),
    'random letters': letters(6000, [...'abcdefghijklmnopqrstuvwxyz']),
    'random capitals and small letters': letters(5000, [...'aAbBcCdDeE']),
    'random symbols': letters(5000, [...'!"#$%&()*+,-./:;<=>?@[]^_`{|}~']),
    'random digits': letters(6000, [...'0123456789']),
    'mixed scripts without spaces': letters(1500, scripts),
    'mixed scripts, digits and symbols': letters(1500, [...scripts, '٣', '!', '-', '/', '\n']),
  };
}

describe.each(['o200k_base', 'cl100k_base', 'r50k_base'] as const)('%s on worst cases, merged through small windows', (name) => {
  const windowed = createTokenizer(name, decodeRankTable(readFileSync(`${RANKS_DIR}${name}.bin`)), { window: 0 });
  it.each(Object.entries(worstCases()))('%s', (_, text) => {
    withTiktoken(name, (enc) => {
      const expected = Array.from(enc.encode(text, 'all'));
      expect(windowed.encode(text)).toEqual(expected);
      expect(windowed.count(text)).toBe(expected.length);
      expect(ours(name).count(text)).toBe(expected.length);
    });
  });
});

describe('claude on worst cases, merged through small windows', () => {
  it('counts like the reference', () => {
    const windowed = createTokenizer('claude', decodeRankTable(readFileSync(`${RANKS_DIR}claude.bin`)), { window: 0 });
    const ref = claudeCounter();
    try {
      for (const [label, text] of Object.entries(worstCases())) expect(windowed.count(text), label).toBe(ref.count(text));
    } finally {
      ref.free();
    }
  });
});
