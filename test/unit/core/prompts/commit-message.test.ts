import { describe, expect, it } from 'vitest';
import { COMMIT_MESSAGE_MAX_LENGTH, validateCommitMessage } from '../../../../src/core/prompts/index.js';

describe('validateCommitMessage', () => {
  it('accepts up to 500 characters and refuses more', () => {
    expect(COMMIT_MESSAGE_MAX_LENGTH).toBe(500);
    expect(validateCommitMessage('m'.repeat(500))).toHaveLength(500);
    expect(() => validateCommitMessage('m'.repeat(501))).toThrow(/501 characters long; the limit is 500/);
  });
});
