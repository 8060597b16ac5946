import { describe, expect, it } from 'vitest';
import { PromptUsageError, promptPathSegment, validatePromptName } from '../../../../src/core/prompts/index.js';

describe('validatePromptName', () => {
  it.each([
    'name with spaces',
    'angled[brac]es]',
    'folder/subfolder/name',
    '_starting_with_underscore',
    'UPPERCASE',
    'metrics/foo',
    'folder/new',
    'new-onboarding',
    'promptName?!+ =@#;',
    'a < b',
    'a > b',
    'ünïcödé/名前',
  ])('accepts %j', (name) => {
    expect(validatePromptName(name)).toBe(name);
  });

  it('trims surrounding whitespace like the server', () => {
    expect(validatePromptName('  my-prompt \n')).toBe('my-prompt');
  });

  it.each([
    ['', /must not be empty/],
    ['   ', /must not be empty/],
    ['<b>bold</b>', /HTML tag/],
    ['x <br/> y', /HTML tag/],
    ['a<>b', /HTML tag/],
    ['a|b', /'\|'/],
    ['/leading', /start with '\/'/],
    ['trailing/', /end with '\/'/],
    ['a//b', /'\/\/'/],
    ['new', /reserved/],
    ['metrics', /reserved/],
    ['prompt-detail', /reserved/],
    [' new ', /reserved/],
    [' /a', /start with '\/'/],
    ['a/ ', /end with '\/'/],
    ['two\nlines', /line breaks/],
    ['windows\r\n', /line breaks/],
  ])('refuses %j', (name, reason) => {
    expect(() => validatePromptName(name)).toThrow(PromptUsageError);
    expect(() => validatePromptName(name)).toThrow(reason);
  });

  it('names the offending value in the message', () => {
    expect(() => validatePromptName('a|b')).toThrow('Invalid prompt name "a|b"');
  });
});

describe('promptPathSegment', () => {
  it('encodes folder slashes and special characters as one segment', () => {
    expect(promptPathSegment('folder/sub/name')).toBe('folder%2Fsub%2Fname');
    expect(promptPathSegment('promptName?!+ =@#;')).toBe('promptName%3F!%2B%20%3D%40%23%3B');
    expect(decodeURIComponent(promptPathSegment('a/ü b'))).toBe('a/ü b');
  });
});
