/**
 * The known traps, one by one, each checked against the reference in the same run. (The
 * generated corpus covers them too; these name them.)
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeRankTable } from '../../../src/tokenizer/rank-table.js';
import { classTable, LET } from '../../../src/tokenizer/scanner.js';
import { createTokenizer } from '../../../src/tokenizer/tokenizer.js';
import { corpus } from './support/corpus.js';
import { claudeCountTokens, OPENAI_ENCODINGS, ours, RANKS_DIR, withTiktoken, freeTiktokens } from './support/reference.js';

afterAll(freeTiktokens);

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
});
