import { describe, expect, it } from 'vitest';
import { PromptUsageError, validateChatContent } from '../../../../src/core/prompts/index.js';

describe('validateChatContent', () => {
  it('accepts messages with any role and placeholders with valid names', () => {
    const items = [
      { role: 'system', content: 'You are {{persona}}' },
      { role: 'any-role at all', content: '' },
      { type: 'placeholder', name: 'history' },
      { type: 'placeholder', name: 'h2_x' },
    ];
    expect(validateChatContent(items)).toEqual(items);
  });

  it('accepts an empty list, like the server', () => {
    expect(validateChatContent([])).toEqual([]);
  });

  it('drops the type "chatmessage" the SDK adds to messages', () => {
    expect(validateChatContent([{ type: 'chatmessage', role: 'user', content: 'x' }])).toEqual([
      { role: 'user', content: 'x' },
    ]);
  });

  it.each([
    [{ role: 'user', content: 'x' }, /must be an array of messages, got object/],
    ['text', /must be an array of messages, got string/],
    [[{ role: 'user', content: 'ok' }, 'text'], /^Chat message \[1\] must be an object with role and content, got string/],
    [[null], /^Chat message \[0\] must be an object.*got null/],
    [[[]], /^Chat message \[0\] must be an object.*got array/],
    [[{ role: 'user' }], /^Chat message \[0\]: "content" must be a string, got nothing/],
    [[{ content: 'x' }], /^Chat message \[0\]: "role" must be a string, got nothing/],
    [[{ role: 'user', content: 5 }], /^Chat message \[0\]: "content" must be a string, got number/],
    [[{ role: null, content: 'x' }], /^Chat message \[0\]: "role" must be a string, got null/],
    [[{ role: 'u', content: 'x' }, { name: 'history' }], /^Chat message \[1\] looks like a placeholder but lacks type: "placeholder"/],
    [[{ type: 'placeholder', name: '1abc' }], /^Chat message \[0\]: invalid placeholder name "1abc"/],
    [[{ type: 'placeholder', name: 'has-dash' }], /invalid placeholder name "has-dash"/],
    [[{ type: 'placeholder', name: '_x' }], /invalid placeholder name "_x"/],
    [[{ type: 'placeholder', name: 'ünï' }], /invalid placeholder name/],
    [[{ type: 'placeholder' }], /invalid placeholder name undefined/],
    [[{ type: 'placeholder', name: 'h', role: 'user', content: 'x' }], /a placeholder has only a name/],
    [[{ type: 'placeholder', name: 'h', extra: 1 }], /unsupported field "extra"/],
    [[{ role: 'assistant', content: '', tool_calls: [], name: 'bot' }], /unsupported fields "tool_calls", "name"; the server keeps only "role", "content"/],
    [[{ type: 'system', role: 'system', content: 'x' }], /unknown type "system"/],
  ])('refuses %j', (value, reason) => {
    expect(() => validateChatContent(value)).toThrow(PromptUsageError);
    expect(() => validateChatContent(value)).toThrow(reason);
  });
});
