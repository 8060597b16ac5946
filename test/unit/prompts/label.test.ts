import { describe, expect, it } from 'vitest';
import {
  COMMIT_MESSAGE_MAX_LENGTH,
  PromptUsageError,
  parseVersion,
  validateCommitMessage,
  validateLabel,
  validateLabels,
  validateSelector,
} from '../../../src/core/prompts/index.js';

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

describe('validateCommitMessage', () => {
  it('accepts up to 500 characters and refuses more', () => {
    expect(COMMIT_MESSAGE_MAX_LENGTH).toBe(500);
    expect(validateCommitMessage('m'.repeat(500))).toHaveLength(500);
    expect(() => validateCommitMessage('m'.repeat(501))).toThrow(/501 characters long; the limit is 500/);
  });
});

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
