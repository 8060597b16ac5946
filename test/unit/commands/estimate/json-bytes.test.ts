// The batch writer's JSON must be byte for byte what JSON.stringify writes.
import { describe, expect, it } from 'vitest';
import { JsonBytes } from '../../../../src/commands/estimate/json-bytes.js';
import { costComponentStored } from '../../../../src/core/precision.js';
import { builtInDefinitions } from '../../../../src/data/catalogue.js';
import { rng } from '../../tokenizer/support/corpus.js';

function written(write: (out: JsonBytes) => void, capacity = 8): string {
  const out = new JsonBytes(capacity);
  write(out);
  return out.bytes().toString('utf8');
}

const catalogPrices = [...new Set(builtInDefinitions().flatMap((d) => d.pricingTiers.flatMap((t) => Object.values(t.prices))))];

describe('JsonBytes', () => {
  it('writes numbers as JSON.stringify does', () => {
    const random = rng(11);
    const values = [0, -0, 1, 9, 10, 99, 100, 2 ** 31, 2 ** 53 - 1, 2 ** 53, 1e21, 1e-6, 1e-7, 9.99e-7, 0.1, 0.1 + 0.2, 0.7999999999999999, 0.012325, 999.999999999999, 999.9999999999999, 1000, 1000.5, -0.5, -3, 123456.123456789];
    values.push(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.MIN_VALUE, Number.MAX_VALUE);
    for (let i = 0; i < 100_000; i++) {
      values.push(random() * 10 ** (Math.floor(random() * 20) - 10));
      values.push(Math.floor(random() * 10 ** Math.floor(random() * 16)));
      values.push(Math.floor(random() * 1e15) / 10 ** Math.floor(random() * 16));
      // What the batch writes most: stored costs, and their sums.
      const price = catalogPrices[Math.floor(random() * catalogPrices.length)]!;
      const a = costComponentStored(price, Math.floor(random() * 10 ** (1 + Math.floor(random() * 7))));
      const b = costComponentStored(price, Math.floor(random() * 10 ** (1 + Math.floor(random() * 5))));
      values.push(a.stored, a.cost + b.cost);
    }
    const wrong = values.filter((value) => written((out) => out.number(value)) !== JSON.stringify(value));
    expect(wrong.map(String)).toEqual([]);
  });

  it('writes strings as JSON.stringify does, escaping what must be escaped', () => {
    const strings = ['', 'gen-1', 'plain ascii ~ text', 'with "quotes"', 'back\\slash', 'tab\there', 'line\nbreak', '\u0000', '\u007f', 'ünïcode', '日本語', '😀', '\ud800 lone', 'x'.repeat(300), `${'y'.repeat(255)}"`];
    for (const text of strings) expect(written((out) => out.string(text)), text).toBe(JSON.stringify(text));
  });

  it('writes maps of numbers and grows its buffer across writes', () => {
    const samples: Array<Record<string, number>> = [
      {},
      { input: 1, output: 0, total: 1 },
      { 'we"ird\\key': 1e-7, ünïcode: 0.1 + 0.2, '1': 5, 'line\nbreak': 123456789.123, big: 1e21, neg: -0.5 },
      { nan: Number.NaN, inf: Number.POSITIVE_INFINITY },
    ];
    const all = written((out) => {
      for (const sample of samples) {
        out.numberMap(sample);
        out.text('\n');
      }
    }, 1);
    expect(all).toBe(samples.map((sample) => `${JSON.stringify(sample)}\n`).join(''));
  });
});
