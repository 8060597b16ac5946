import { describe, expect, it } from 'vitest';
import { PromptUsageError, parseVersion, validateSelector } from '../../../../src/core/prompts/index.js';

describe('validateSelector', () => {
  it('passes a version or a label through, or neither', () => {
    expect(validateSelector({ version: 3 })).toEqual({ version: 3 });
    expect(validateSelector({ version: '12' })).toEqual({ version: 12 });
    expect(validateSelector({ label: 'staging' })).toEqual({ label: 'staging' });
    expect(validateSelector({})).toEqual({});
  });

  it('refuses a version together with a label', () => {
    expect(() => validateSelector({ version: 2, label: 'production' })).toThrow(PromptUsageError);
    expect(() => validateSelector({ version: 2, label: 'production' })).toThrow(/not both/);
  });

  it('refuses an empty label', () => {
    expect(() => validateSelector({ label: '' })).toThrow(PromptUsageError);
  });

  it.each([0, '0', -1, 1.5, '1.5', 'abc', '', '01', Number.NaN, 2 ** 60])('refuses the version %j', (version) => {
    expect(() => parseVersion(version)).toThrow(PromptUsageError);
    expect(() => parseVersion(version)).toThrow(/from 1 to 2,147,483,647/);
  });
});
