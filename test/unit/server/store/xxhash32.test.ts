import { describe, expect, it } from 'vitest';
import { xxHash32 } from '../../../../src/server/store/xxhash32.js';

describe('xxHash32', () => {
  it('gives the published values (seed 0), and ClickHouse’s documented xxHash32(\'Hello, world!\')', () => {
    expect(xxHash32('')).toBe(0x02cc5d05);
    expect(xxHash32('a')).toBe(0x550d7456);
    expect(xxHash32('abc')).toBe(0x32d153ff);
    expect(xxHash32('Nobody inspects the spammish repetition')).toBe(0xe2293b2f);
    expect(xxHash32('Hello, world!')).toBe(834093149);
  });

  it('hashes the UTF-8 bytes, in every length class (under 16 bytes, 16 and more, tails of 1 to 3)', () => {
    const values = Array.from({ length: 40 }, (_, n) => xxHash32('x'.repeat(n)));
    expect(new Set(values).size).toBe(40);
    expect(xxHash32('é')).not.toBe(xxHash32('\u00e9'.normalize('NFD')));
    for (const v of values) expect(v).toBeGreaterThanOrEqual(0);
  });
});
