import { describe, expect, it } from 'vitest';
import {
  PromptUsageError,
  assertNoVariablePlaceholderClash,
  extractVariables,
  findVariablePlaceholderClashes,
  type ChatItem,
} from '../../../../src/core/prompts/index.js';

describe('extractVariables (the server rule)', () => {
  it('keeps plain names, in first-use order, once each', () => {
    expect(extractVariables('{{b}} {{a}} {{b}}')).toEqual(['b', 'a']);
  });

  it('accepts Unicode letters and digits after the first letter', () => {
    expect(extractVariables('{{名前}} {{café}} {{x1_y}} {{Ünïcode}}')).toEqual(['名前', 'café', 'x1_y', 'Ünïcode']);
  });

  it('ignores what is not a plain name: spaces, sections, dots, leading digit or underscore', () => {
    expect(
      extractVariables('{{ spaced }} {{#s}}{{/s}} {{^i}}{{/i}} {{a.b}} {{1x}} {{_x}} {{a-b}} {{!c}} {{&u}} {{}}'),
    ).toEqual([]);
  });

  it('finds the name inside a triple mustache, as the regex does', () => {
    expect(extractVariables('{{{raw}}}')).toEqual(['raw']);
  });
});

describe('variable and placeholder clash', () => {
  const prompt: ChatItem[] = [
    { role: 'system', content: 'Hello {{userName}} and {{ history }} and {{other}}' },
    { type: 'placeholder', name: 'userName' },
    { type: 'placeholder', name: 'history' },
    { role: '{{other}}', content: '{{other}}' },
    { type: 'placeholder', name: 'other' },
  ];

  it('lists names used both ways, counting only what the server counts as a variable', () => {
    expect(findVariablePlaceholderClashes(prompt)).toEqual(['userName', 'other']);
  });

  it('fails with the server message', () => {
    expect(() => assertNoVariablePlaceholderClash(prompt)).toThrow(PromptUsageError);
    expect(() => assertNoVariablePlaceholderClash(prompt)).toThrow(
      'Cannot create prompt, variables and placeholders must be unique, the following are not: userName, other',
    );
  });

  it('passes when names differ', () => {
    expect(() =>
      assertNoVariablePlaceholderClash([
        { role: 'user', content: '{{question}}' },
        { type: 'placeholder', name: 'history' },
      ]),
    ).not.toThrow();
  });
});
