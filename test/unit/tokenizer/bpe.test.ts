import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BytePairMerger } from '../../../src/tokenizer/bpe.js';
import { decodeRankTable } from '../../../src/tokenizer/rank-table.js';
import { corpus, rng } from './support/corpus.js';
import { ours, RANKS_DIR, withTiktoken, freeTiktokens } from './support/reference.js';
import { growth } from './support/timing.js';

afterAll(freeTiktokens);

const table = decodeRankTable(readFileSync(`${RANKS_DIR}o200k_base.bin`));
const merger = new BytePairMerger(table);

function merge(bytes: Uint8Array, small: number): number[] {
  const out: number[] = [];
  const n = merger.merge(bytes, bytes.length, out, small);
  expect(n).toBe(out.length);
  return out;
}

describe('byte-pair merging', () => {
  it('gives the same tokens with the array scan and with the merge queue', () => {
    const r = rng(11);
    const texts = [
      ...corpus(5, 10).map((s) => s.text),
      ...Array.from({ length: 300 }, () => String.fromCharCode(...Array.from({ length: 2 + Math.floor(r() * 80) }, () => 32 + Math.floor(r() * 95)))),
      'a'.repeat(1000),
      'ab'.repeat(700),
      ' '.repeat(999),
      '\u4e2d'.repeat(300),
    ];
    let compared = 0;
    for (const text of texts) {
      const bytes = new TextEncoder().encode(text);
      if (bytes.length < 2) continue;
      expect(merge(bytes, Infinity), text).toEqual(merge(bytes, 0));
      compared++;
    }
    // Random bytes, including invalid UTF-8.
    for (let k = 0; k < 300; k++) {
      const bytes = Uint8Array.from({ length: 2 + Math.floor(r() * 100) }, () => Math.floor(r() * 256));
      expect(merge(bytes, Infinity)).toEqual(merge(bytes, 0));
      compared++;
    }
    expect(compared).toBeGreaterThan(700);
  });

  it('matches WASM tiktoken on long single pieces', () => {
    const tokenizer = ours('o200k_base');
    withTiktoken('o200k_base', (enc) => {
      for (const text of ['a'.repeat(3001), 'abc'.repeat(1500), ' '.repeat(2500) + 'x', '!'.repeat(2000), '\u4e2d\u6587'.repeat(900), '\u{1f600}'.repeat(800), 'Z'.repeat(2222)]) {
        expect(tokenizer.encode(text), text.slice(0, 10)).toEqual(Array.from(enc.encode(text, 'all')));
      }
    });
  });

  it('takes about linear time on one long piece of a repeated character', () => {
    const tokenizer = ours('o200k_base');
    for (const ch of ['a', '\u4e2d']) {
      // n log n over a 10x larger input is about 12x; a quadratic merge would be 100x. (The
      // megabyte case of the requirement is in bench/README.md; half of it keeps the suite fast.)
      expect(growth((n) => tokenizer.count(ch.repeat(n)), 50_000, 500_000), JSON.stringify(ch)).toBeLessThan(25);
    }
  });
});
