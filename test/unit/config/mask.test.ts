import { describe, expect, it } from 'vitest';
import { maskKey } from '../../../src/config/mask.js';

describe('maskKey', () => {
  it('keeps the prefix and the last four characters only', () => {
    expect(maskKey('sk-lf-1234567890abcdef9f3a')).toBe('sk-lf-…9f3a');
    expect(maskKey('pk-lf-1234567890abcdef1b2c')).toBe('pk-lf-…1b2c');
    expect(maskKey('custom-token-value-abcd')).toBe('cu…abcd');
    expect(maskKey('short')).toBe('…');
    expect(maskKey(undefined)).toBe('');
  });
});
