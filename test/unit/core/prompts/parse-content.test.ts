import { describe, expect, it } from 'vitest';
import { PromptUsageError, inferPromptType, parseChatContent, parsePromptContent } from '../../../../src/core/prompts/index.js';

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
