import { describe, expect, it } from 'vitest';
import {
  PromptUsageError,
  inferPromptType,
  parseChatContent,
  parsePromptContent,
  validateChatContent,
} from '../../../src/core/prompts/index.js';

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

describe('parseChatContent', () => {
  const expected = [
    { role: 'system', content: 'Hello {{name}}' },
    { type: 'placeholder', name: 'history' },
  ];

  it('reads JSON', () => {
    expect(
      parseChatContent('[{"role":"system","content":"Hello {{name}}"},{"type":"placeholder","name":"history"}]'),
    ).toEqual(expected);
  });

  it('reads block YAML', () => {
    const yaml = ['- role: system', '  content: Hello {{name}}', '- type: placeholder', '  name: history', ''].join('\n');
    expect(parseChatContent(yaml)).toEqual(expected);
  });

  it('reads YAML flow style that is not JSON', () => {
    expect(parseChatContent("[{role: system, content: 'Hello {{name}}'}, {type: placeholder, name: history}]")).toEqual(
      expected,
    );
  });

  it('points at the message that is wrong', () => {
    expect(() => parseChatContent('- role: user\n  content: ok\n- role: user\n')).toThrow(
      /^Chat message \[1\]: "content" must be a string/,
    );
  });

  it('hints at quoting when YAML read "{{x}}" as a mapping', () => {
    try {
      parseChatContent('- role: user\n  content: {{question}}\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(PromptUsageError);
      expect((error as PromptUsageError).message).toMatch(/^Chat message \[0\]: "content" must be a string, got object/);
      expect((error as PromptUsageError).hint).toMatch(/quote/);
    }
  });

  it('reports a syntax error from the JSON parser for JSON-looking text', () => {
    expect(() => parseChatContent('[{"role": "user", "content": "x"')).toThrow(/neither valid JSON nor valid YAML: .*JSON/);
  });

  it('reports a YAML syntax error otherwise', () => {
    expect(() => parseChatContent('- role: user\n content: x\n  - bad')).toThrow(/neither valid JSON nor valid YAML/);
  });

  it('refuses a document that is not a list', () => {
    expect(() => parseChatContent('role: user\ncontent: hi\n')).toThrow(/array of messages, got object/);
  });
});

describe('inferPromptType and parsePromptContent', () => {
  it.each([
    ['[{"role":"user","content":"x"}]', 'chat'],
    ['- role: user\n  content: x\n', 'chat'],
    ['[]', 'chat'],
    ['Hello {{name}}', 'text'],
    ['- first point\n- second point\n', 'text'],
    ['[1, 2]', 'text'],
    ['key: value', 'text'],
    ['"quoted"', 'text'],
    ['{ unbalanced', 'text'],
    ['', 'text'],
  ] as const)('%j is %s', (text, type) => {
    expect(inferPromptType(text)).toBe(type);
  });

  it('keeps text prompts verbatim', () => {
    expect(parsePromptContent('"quoted" {{x}}\n')).toEqual({ type: 'text', prompt: '"quoted" {{x}}\n' });
  });

  it('obeys an explicit type', () => {
    expect(parsePromptContent('[{"role":"user","content":"x"}]', 'text')).toEqual({
      type: 'text',
      prompt: '[{"role":"user","content":"x"}]',
    });
    expect(() => parsePromptContent('Hello', 'chat')).toThrow(/array of messages, got string/);
  });

  it('reports a bad message of inferred chat content instead of falling back to text', () => {
    expect(() => parsePromptContent('- role: user\n  content: ok\n- role: user\n')).toThrow(/^Chat message \[1\]/);
  });

  it('parses inferred chat content into messages', () => {
    expect(parsePromptContent('- role: user\n  content: x\n')).toEqual({
      type: 'chat',
      prompt: [{ role: 'user', content: 'x' }],
    });
  });
});
