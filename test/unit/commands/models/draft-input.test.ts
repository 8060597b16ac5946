// The models commands' input: --price values, default patterns, and bodies compared.
import { describe, expect, it } from 'vitest';
import { testPattern } from '../../../../src/core/models/pattern.js';
import { exactPattern, parsePrice, sameBody } from '../../../../src/commands/models/draft-input.js';

describe('--price values', () => {
  it('takes USD per unit, or per thousand or million with /1K and /1M', () => {
    expect(parsePrice('0.0000025')).toBe(0.0000025);
    expect(parsePrice('2.5e-6')).toBe(0.0000025);
    expect(parsePrice('2.5/1M')).toBe(0.0000025);
    expect(parsePrice('2.5/M')).toBe(0.0000025);
    expect(parsePrice('0.3/1k')).toBe(0.0003);
    expect(parsePrice('-1')).toBe(-1);
  });

  it('leaves anything else as text, for the checks to refuse', () => {
    expect(parsePrice('')).toBe('');
    expect(parsePrice('cheap')).toBe('cheap');
    expect(parsePrice('2.5/1G')).toBe('2.5/1G');
  });
});

describe('exactPattern', () => {
  it('matches the name in any case and nothing else, with regex characters escaped', () => {
    for (const name of ['gpt-4.1', 'my(model)+v2', 'a[b]', 'openai/o3*']) {
      const pattern = exactPattern(name);
      expect(testPattern(pattern, name).status).toBe('match');
      expect(testPattern(pattern, name.toUpperCase()).status).toBe('match');
      expect(testPattern(pattern, `${name}x`).status).toBe('no-match');
    }
    expect(testPattern(exactPattern('gpt-4.1'), 'gpt-401').status).toBe('no-match');
  });
});

describe('sameBody', () => {
  it('ignores key order and how the start date is written', () => {
    expect(sameBody({ modelName: 'a', matchPattern: 'a', unit: 'TOKENS', startDate: '2025-01-01', inputPrice: 1 }, { inputPrice: 1, unit: 'TOKENS', matchPattern: 'a', modelName: 'a', startDate: '2025-01-01T00:00:00.000Z' })).toBe(true);
    expect(sameBody({ modelName: 'a', matchPattern: 'a', unit: 'TOKENS', inputPrice: 1 }, { modelName: 'a', matchPattern: 'a', unit: 'TOKENS', inputPrice: 2 })).toBe(false);
  });
});
