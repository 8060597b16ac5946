import { describe, expect, it } from 'vitest';
import { PromptUsageError, validateLabel, validateLabels } from '../../../../src/core/prompts/index.js';

describe('validateLabel', () => {
  it.each(['production', 'staging', 'v1.2', 'a_b-c.d', '0', 'x'.repeat(36)])('accepts %j', (label) => {
    expect(validateLabel(label)).toBe(label);
  });

  it.each([
    ['', /1 to 36 characters/],
    ['x'.repeat(37), /1 to 36 characters long \(it has 37\)/],
    ['Production', /lowercase/],
    ['with space', /lowercase/],
    ['a/b', /lowercase/],
    ['prod!', /lowercase/],
    ['ünï', /lowercase/],
    ['latest', /cannot be set by hand/],
  ])('refuses %j', (label, reason) => {
    expect(() => validateLabel(label)).toThrow(PromptUsageError);
    expect(() => validateLabel(label)).toThrow(reason);
  });

  it('drops repeated labels, as the server does', () => {
    expect(validateLabels(['staging', 'production', 'staging'])).toEqual(['staging', 'production']);
    expect(() => validateLabels(['ok', 'Not-OK'])).toThrow('"Not-OK"');
  });
});
