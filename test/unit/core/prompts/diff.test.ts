import { parsePatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { describeSide, diffPrompts, renderContentForDiff, type PromptSide } from '../../../../src/core/prompts/index.js';

const v1: PromptSide = {
  name: 'greet',
  version: 1,
  labels: ['production'],
  prompt: 'Hello {{name}}\nBe brief.',
  config: { model: 'gpt-4o', temperature: 0.2 },
};
const v2: PromptSide = {
  name: 'greet',
  version: 2,
  labels: ['staging', 'latest'],
  prompt: 'Hello {{name}}\nBe very brief.',
  config: { temperature: 0.2, model: 'gpt-4o' },
};

describe('describeSide', () => {
  it('names a version with its labels, and local content by name alone', () => {
    expect(describeSide(v1)).toBe('greet@v1 (production)');
    expect(describeSide(v2)).toBe('greet@v2 (staging, latest)');
    expect(describeSide({ name: 'greet', version: 4, prompt: '' })).toBe('greet@v4');
    expect(describeSide({ name: 'greet', prompt: '' })).toBe('greet');
  });
});

describe('diffPrompts: text', () => {
  it('gives a unified diff of the content with both sides named', () => {
    expect(diffPrompts(v1, v2).content).toBe(
      [
        '--- greet@v1 (production)',
        '+++ greet@v2 (staging, latest)',
        '@@ -1,2 +1,2 @@',
        ' Hello {{name}}',
        '-Be brief.',
        '+Be very brief.',
        '',
      ].join('\n'),
    );
  });

  it('shows no config diff when only the key order differs', () => {
    expect(diffPrompts(v1, v2).config).toBe('');
  });

  it('is empty for identical sides', () => {
    expect(diffPrompts(v1, { ...v1, version: 9, labels: [] })).toEqual({ content: '', config: '' });
  });

  it('shows a change in the final newline as a line', () => {
    const patch = diffPrompts({ ...v1, prompt: 'a' }, { ...v1, prompt: 'a\n' }).content;
    expect(patch).toContain('@@ -1,1 +1,2 @@\n a\n+\n');
    expect(patch).not.toContain('No newline');
  });

  it('limits context to three lines by default and follows the option', () => {
    const lines = (change: string) => ['1', '2', '3', '4', '5', change, '7', '8', '9', '10'].join('\n');
    const a = { ...v1, prompt: lines('6') };
    const b = { ...v1, prompt: lines('six') };
    expect(diffPrompts(a, b).content).toContain('@@ -3,7 +3,7 @@\n 3\n 4\n 5\n-6\n+six\n 7\n 8\n 9\n');
    expect(diffPrompts(a, b, { context: 0 }).content).toContain('@@ -6,1 +6,1 @@\n-6\n+six\n');
  });
});

describe('diffPrompts: chat', () => {
  const chatA: PromptSide = {
    name: 'support',
    version: 3,
    labels: ['production'],
    prompt: [
      { role: 'system', content: 'You are helpful.\nAnswer in {{language}}.' },
      { type: 'placeholder', name: 'history' },
      { role: 'user', content: '{{question}}' },
    ],
  };

  it('renders one block per message, placeholders by name', () => {
    expect(renderContentForDiff(chatA.prompt)).toBe(
      [
        '--- [0] system',
        'You are helpful.',
        'Answer in {{language}}.',
        '--- [1] [placeholder: history]',
        '--- [2] user',
        '{{question}}',
        '',
      ].join('\n'),
    );
  });

  it('diffs the rendered blocks', () => {
    const chatB: PromptSide = {
      ...chatA,
      version: 4,
      labels: [],
      prompt: [
        { role: 'system', content: 'You are helpful.\nAnswer in {{language}}.' },
        { type: 'placeholder', name: 'examples' },
        { role: 'user', content: '{{question}}' },
      ],
    };
    expect(diffPrompts(chatA, chatB).content).toBe(
      [
        '--- support@v3 (production)',
        '+++ support@v4',
        '@@ -1,6 +1,6 @@',
        ' --- [0] system',
        ' You are helpful.',
        ' Answer in {{language}}.',
        '---- [1] [placeholder: history]',
        '+--- [1] [placeholder: examples]',
        ' --- [2] user',
        ' {{question}}',
        '',
      ].join('\n'),
    );
  });

  it('produces a patch that parses back with the same line counts', () => {
    const chatB: PromptSide = { ...chatA, version: 4, prompt: [{ role: 'system', content: 'Short.' }] };
    const [parsed] = parsePatch(diffPrompts(chatA, chatB).content);
    expect(parsed?.oldFileName).toBe('support@v3 (production)');
    expect(parsed?.hunks[0]?.oldLines).toBe(6);
    expect(parsed?.hunks[0]?.newLines).toBe(2);
  });

  it('diffs a text version against a chat version', () => {
    const content = diffPrompts(v1, { ...chatA, name: 'greet' }).content;
    expect(content).toContain('-Hello {{name}}\n');
    expect(content).toContain('+--- [0] system\n');
  });
});

describe('diffPrompts: config', () => {
  it('compares sorted, pretty JSON under headers naming both sides', () => {
    const a = { ...v1, config: { temperature: 0.2, model: 'gpt-4o', stop: ['a'] } };
    const b = { ...v1, version: 2, labels: [], config: { stop: ['a', 'b'], model: 'gpt-4o', temperature: 0.2 } };
    expect(diffPrompts(a, b).config).toBe(
      [
        '--- greet@v1 (production) config',
        '+++ greet@v2 config',
        '@@ -1,7 +1,8 @@',
        ' {',
        '   "model": "gpt-4o",',
        '   "stop": [',
        '-    "a"',
        '+    "a",',
        '+    "b"',
        '   ],',
        '   "temperature": 0.2',
        ' }',
        '',
      ].join('\n'),
    );
  });

  it('treats a missing config as {}', () => {
    expect(diffPrompts({ ...v1, config: undefined }, { ...v1, config: {} }).config).toBe('');
    expect(diffPrompts({ ...v1, config: undefined }, { ...v1, config: { a: 1 } }).config).toContain('-{}\n+{\n+  "a": 1\n+}\n');
  });
});
