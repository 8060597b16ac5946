// Metadata values cut as Langfuse's events_core keeps them (leftUTF8(value, 200)).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutMetadataValues, leftCodePoints } from '../../../src/core/metadata.js';

describe('leftCodePoints', () => {
  it('keeps the first n code points, a surrogate pair counting as one', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 40 }), fc.nat(45), (text, n) => {
        expect(leftCodePoints(text, n)).toBe(Array.from(text).slice(0, n).join(''));
      }),
    );
  });
});

describe('cutMetadataValues', () => {
  it('cuts each value\'s stored text and parses what is left where it parses', () => {
    const metadata = { text: 'abcdef', list: [1, 2, 3], flag: true, num: 123456, quoted: '420', short: 'ab' };
    // A string that would parse as a number was stored quoted, as '"420"'.
    expect(cutMetadataValues(metadata, 4)).toEqual({ text: 'abcd', list: '[1,2', flag: true, num: 1234, quoted: '"420', short: 'ab' });
    expect(cutMetadataValues(metadata, 10)).toEqual(metadata);
  });
});
