// Small pieces of the models commands: prices for people, price flags, default patterns.
import { describe, expect, it } from 'vitest';
import { testPattern } from '../../../src/core/models/pattern.js';
import { exactPattern, parsePrice, sameBody } from '../../../src/commands/models/draft-input.js';
import { priceText } from '../../../src/commands/models/render.js';
import { formatUsd } from '../../../src/output/format.js';
import { nameHash } from '../../../src/core/hashes.js';
import { remoteCachePath } from '../../../src/model-definitions/remote.js';

describe('prices for people', () => {
  it('formats dollars with at least two decimals and without float noise', () => {
    expect(formatUsd(0.0000025 * 1e6, 'price')).toBe('$2.50');
    expect(formatUsd(0.075, 'price')).toBe('$0.075');
    expect(formatUsd(10, 'price')).toBe('$10.00');
    expect(formatUsd(1.5e-7, 'price')).toBe('$0.00000015');
    expect(formatUsd(0, 'price')).toBe('$0.00');
  });

  it('shows token and character prices per million, other units per unit', () => {
    expect(priceText(0.0000025, 'TOKENS')).toBe('$2.50/1M');
    expect(priceText(0.00000125, null)).toBe('$1.25/1M');
    expect(priceText(0.000001, 'CHARACTERS')).toBe('$1.00/1M');
    expect(priceText(0.04, 'IMAGES')).toBe('$0.04/image');
    expect(priceText(0.01, 'REQUESTS')).toBe('$0.01/request');
  });
});

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

describe('remoteCachePath', () => {
  it('differs per server and per key, and is absent without credentials', () => {
    const env = { HOME: '/home/u' };
    const a = remoteCachePath(env, { baseUrl: 'https://cloud.langfuse.com', auth: { type: 'basic', publicKey: 'pk-1', secretKey: 's' } });
    const b = remoteCachePath(env, { baseUrl: 'https://cloud.langfuse.com', auth: { type: 'basic', publicKey: 'pk-2', secretKey: 's' } });
    const c = remoteCachePath(env, { baseUrl: 'https://us.cloud.langfuse.com', auth: { type: 'basic', publicKey: 'pk-1', secretKey: 's' } });
    expect(new Set([a, b, c]).size).toBe(3);
    expect(a).toMatch(/^\/home\/u\/\.cache\/llmobs\/models-[0-9a-f]{16}\.json$/);
    // An API key is a secret: the name is a digest of a digest of it.
    const bearer = remoteCachePath(env, { baseUrl: 'https://cloud.langfuse.com', auth: { type: 'bearer', apiKey: 'secret-api-key' } });
    expect(bearer).toMatch(/^\/home\/u\/\.cache\/llmobs\/models-[0-9a-f]{32}\.json$/);
    expect(bearer).not.toContain('secret');
    expect(remoteCachePath({ ...env, XDG_CACHE_HOME: '/c' }, { baseUrl: 'x', auth: { type: 'basic', publicKey: 'p', secretKey: 's' } })).toMatch(/^\/c\/llmobs\//);
    expect(remoteCachePath(env, { baseUrl: 'x', auth: { type: 'none' } })).toBeUndefined();
  });

  it('names files by a hash that tells apart every server and key of a set of 100,000', () => {
    const names = new Set<string>();
    for (let i = 0; i < 100_000; i++) names.add(nameHash(`https://host-${i % 317}.example\nbasic:pk-lf-${i}`));
    expect(names.size).toBe(100_000);
    expect(nameHash('same text')).toBe(nameHash('same text'));
    expect(nameHash('same text')).toMatch(/^[0-9a-f]{16}$/);
    // A one-character change changes both halves.
    const [x, y] = [nameHash('https://a\nbasic:pk-1'), nameHash('https://a\nbasic:pk-2')];
    expect(x.slice(0, 8)).not.toBe(y.slice(0, 8));
    expect(x.slice(8)).not.toBe(y.slice(8));
  });
});
