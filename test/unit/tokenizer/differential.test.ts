/**
 * Counts and token ids compared with the reference implementations, computed in the same run,
 * over a generated corpus aimed at the known traps.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { corpus, pick, rng, SPECIAL_STRINGS, type Sample } from './support/corpus.js';
import { claudeCounter, claudeCountTokens, OPENAI_ENCODINGS, ours, withTiktoken, freeTiktokens } from './support/reference.js';

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
