import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  parsePromptFile,
  promptFileStem,
  promptNameOfPath,
  type PromptFileData,
  sameTags,
  sameVersionContent,
  serialisePromptFile,
} from '../../../../src/core/prompts/file-format.js';
import type { ChatItem } from '../../../../src/core/prompts/types.js';

const text = (prompt: string, extra: Partial<PromptFileData> = {}): PromptFileData => ({ content: { type: 'text', prompt }, config: {}, labels: [], ...extra });
const chat = (prompt: ChatItem[], extra: Partial<PromptFileData> = {}): PromptFileData => ({ content: { type: 'chat', prompt }, config: {}, labels: [], ...extra });

function roundTrip(data: PromptFileData): PromptFileData {
  const file = serialisePromptFile(data);
  // Through UTF-8 bytes, as a file on disk.
  const parsed = parsePromptFile(Buffer.from(file.text, 'utf8').toString('utf8'), file.extension);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.data;
}

describe('writing prompt files', () => {
  it('writes a text prompt as Markdown: the text as it is, then one line break', () => {
    const file = serialisePromptFile(text('Hello {{name}}'));
    expect(file).toEqual({ extension: 'md', text: 'Hello {{name}}\n' });
  });

  it('puts config and tags in YAML front matter, and the text below it unescaped', () => {
    const file = serialisePromptFile(text('Say "hi" to {{name}}:\n- politely\n', { config: { model: 'gpt-4o', temperature: 0 }, tags: ['team-a'] }));
    expect(file.extension).toBe('md');
    expect(file.text).toBe('---\nconfig:\n  model: gpt-4o\n  temperature: 0\ntags:\n  - team-a\n---\nSay "hi" to {{name}}:\n- politely\n\n');
  });

  it('gives a text that starts with a --- line an empty front matter so it stays text', () => {
    const file = serialisePromptFile(text('---\ntitle: x\n---\nbody'));
    expect(file.text).toBe('---\n---\n---\ntitle: x\n---\nbody\n');
    expect(roundTrip(text('---\ntitle: x\n---\nbody')).content).toEqual({ type: 'text', prompt: '---\ntitle: x\n---\nbody' });
  });

  it('writes a chat prompt as YAML with literal blocks and placeholders by name', () => {
    const file = serialisePromptFile(
      chat([{ role: 'system', content: 'You help.\nBe brief.' }, { type: 'placeholder', name: 'history' }, { role: 'user', content: '{{question}}' }], { config: { model: 'gpt-4o' } }),
    );
    expect(file.extension).toBe('yaml');
    expect(file.text).toBe(
      'type: chat\nconfig:\n  model: gpt-4o\nmessages:\n  - role: system\n    content: |-\n      You help.\n      Be brief.\n  - placeholder: history\n  - role: user\n    content: "{{question}}"\n',
    );
  });

  it('falls back to YAML for a text a Markdown body cannot carry (a final lone \\r, a leading BOM)', () => {
    for (const prompt of ['ends in a carriage return\r', '\uFEFFstarts with a byte-order mark']) {
      const file = serialisePromptFile(text(prompt));
      expect(file.extension).toBe('yaml');
      expect(roundTrip(text(prompt)).content).toEqual({ type: 'text', prompt });
    }
  });

  it('keeps unpaired surrogates, which UTF-8 cannot hold, as escapes in a quoted string', () => {
    const prompt = 'broken \uD800 half';
    const file = serialisePromptFile(text(prompt));
    expect(file.extension).not.toBe('md');
    expect(file.text).toContain('\\ud800');
    expect(roundTrip(text(prompt)).content).toEqual({ type: 'text', prompt });
  });

  it('writes labels only when the file wants some', () => {
    expect(serialisePromptFile(text('x', { labels: ['staging'] })).text).toBe('---\nlabels:\n  - staging\n---\nx\n');
  });
});

describe('the final line break rule', () => {
  it('reads a file with or without the final line break as the same prompt', () => {
    const withBreak = parsePromptFile('Hello\n', 'md');
    const without = parsePromptFile('Hello', 'md');
    expect(withBreak).toEqual(without);
    expect(withBreak.ok && withBreak.data.content.prompt).toBe('Hello');
  });

  it('drops exactly one line break (\\n or \\r\\n), so a text ending in line breaks keeps them', () => {
    expect(parsePromptFile('Hello\n\n', 'md')).toMatchObject({ ok: true, data: { content: { prompt: 'Hello\n' } } });
    expect(parsePromptFile('Hello\r\n', 'md')).toMatchObject({ ok: true, data: { content: { prompt: 'Hello' } } });
    expect(roundTrip(text('Hello\n\n')).content.prompt).toBe('Hello\n\n');
  });

  it('reads a file whose line breaks are all \\r\\n (Windows, git autocrlf) as if they were \\n', () => {
    expect(parsePromptFile('line one\r\n\r\nline two\r\n', 'md')).toMatchObject({ ok: true, data: { content: { prompt: 'line one\n\nline two' } } });
    expect(parsePromptFile('---\r\nconfig:\r\n  a: 1\r\n---\r\nx\r\ny\r\n', 'md')).toEqual({ ok: true, data: { content: { type: 'text', prompt: 'x\ny' }, config: { a: 1 }, labels: [] } });
    // A file that mixes both keeps every \r: they are part of the text.
    expect(parsePromptFile('a\r\nb\nc\n', 'md')).toMatchObject({ ok: true, data: { content: { prompt: 'a\r\nb\nc' } } });
  });

  it('writes a text whose own line breaks are \\r\\n in a form that carries them exactly', () => {
    for (const prompt of ['a\r\nb\r\n', 'a\r\nb', '\r\n', 'x\r\n\r\ny']) expect(roundTrip(text(prompt)).content.prompt).toBe(prompt);
  });

  it('reads an empty file as an empty text prompt', () => {
    expect(parsePromptFile('', 'md')).toMatchObject({ ok: true, data: { content: { type: 'text', prompt: '' }, config: {}, labels: [] } });
    expect(roundTrip(text(''))).toEqual(text(''));
  });
});

describe('reading prompt files', () => {
  it('reads a plain Markdown file without front matter as a text prompt with an empty config', () => {
    expect(parsePromptFile('Summarise {{text}}\n', 'md')).toEqual({ ok: true, data: { content: { type: 'text', prompt: 'Summarise {{text}}' }, config: {}, labels: [] } });
  });

  it('accepts the {type: placeholder, name} form and type: chatmessage beside the short form', () => {
    const parsed = parsePromptFile('messages:\n  - {type: placeholder, name: h}\n  - {type: chatmessage, role: user, content: hi}\n  - placeholder: g\n', 'yaml');
    expect(parsed).toEqual({
      ok: true,
      data: { content: { type: 'chat', prompt: [{ type: 'placeholder', name: 'h' }, { role: 'user', content: 'hi' }, { type: 'placeholder', name: 'g' }] }, config: {}, labels: [] },
    });
  });

  it('reads JSON files with the same keys', () => {
    expect(parsePromptFile('{"type":"text","text":"hi","tags":[]}', 'json')).toEqual({ ok: true, data: { content: { type: 'text', prompt: 'hi' }, config: {}, labels: [], tags: [] } });
  });

  it('reports every problem of a file at once', () => {
    const parsed = parsePromptFile(
      'type: chat\nmodel: gpt-4o\nlabels: [Prod, latest]\ntags: tag\nmessages:\n  - content: no role\n  - role: user\n    content: {{x}}\n  - placeholder: 9bad\n',
      'yaml',
    );
    expect(parsed.ok).toBe(false);
    const problems = parsed.ok ? [] : parsed.problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('unknown key "model"'),
        expect.stringContaining('messages[0]: the message has no role'),
        expect.stringContaining('messages[1]: "content" must be a string'),
        expect.stringContaining('messages[2]: invalid placeholder name'),
        expect.stringContaining('tags must be a list of strings'),
        expect.stringContaining('Invalid label "Prod"'),
        expect.stringContaining("'latest' cannot be set"),
      ]),
    );
  });

  it('refuses bad YAML, duplicate keys, a .md file that says chat, and front matter without its end', () => {
    expect(parsePromptFile('messages: [\n', 'yaml')).toMatchObject({ ok: false, problems: [expect.stringContaining('YAML is not valid')] });
    expect(parsePromptFile('text: a\ntext: b\n', 'yaml')).toMatchObject({ ok: false, problems: [expect.stringContaining('not valid')] });
    expect(parsePromptFile('---\ntype: chat\n---\nhi', 'md')).toMatchObject({ ok: false, problems: [expect.stringContaining('a .md file holds a text prompt')] });
    expect(parsePromptFile('---\nconfig: {}\nhi', 'md')).toMatchObject({ ok: false, problems: [expect.stringContaining('no closing ---')] });
  });

  it('says what to do about YAML that is not what it looks like: unquoted {{, numbers, true, empty values, two documents (yes and no stay text in YAML 1.2)', () => {
    const parsed = parsePromptFile('type: chat\nmessages:\n  - role: user\n    content: {{question}}\n  - role: user\n    content: 1.0\n  - role: user\n    content: true\n  - role: user\n    content:\n', 'yaml');
    expect(parsed).toEqual({
      ok: false,
      problems: [
        'messages[0]: "content" must be a string, got object; YAML reads text that starts with { as a mapping: put it in quotes, e.g. "{{question}}"',
        'messages[1]: "content" must be a string, got number; YAML reads it as a number: put it in quotes to keep it text',
        'messages[2]: "content" must be a string, got boolean; YAML reads it as a boolean: put it in quotes to keep it text',
        'messages[3]: "content" must be a string, got null; for an empty text write ""',
      ],
    });
    expect(parsePromptFile('type: chat\nmessages:\n  - role: user\n    content: no\n  - role: assistant\n    content: yes\n', 'yaml')).toMatchObject({ ok: true, data: { content: { prompt: [{ content: 'no' }, { content: 'yes' }] } } });
    expect(parsePromptFile('text: 1e3\n', 'yaml')).toEqual({ ok: false, problems: ['text must be a string, got number 1000; YAML reads it as a number: put it in quotes to keep it text'] });
    expect(parsePromptFile('text: a\n---\ntext: b\n', 'yaml')).toEqual({ ok: false, problems: ['YAML holds more than one document (a line --- between them); a prompt file holds one prompt'] });
    expect(parsePromptFile('text: "open\n', 'yaml')).toMatchObject({ ok: false, problems: [expect.stringMatching(/^YAML is not valid: Missing closing "quote at line \d+, column \d+$/)] });
  });

  it('refuses both text and messages, neither, and a type that contradicts them', () => {
    expect(parsePromptFile('text: a\nmessages: []\n', 'yaml')).toMatchObject({ ok: false, problems: [expect.stringContaining('not both')] });
    expect(parsePromptFile('type: text\n', 'yaml')).toMatchObject({ ok: false, problems: [expect.stringContaining('the prompt is missing')] });
    expect(parsePromptFile('type: text\nmessages: []\n', 'yaml')).toMatchObject({ ok: false, problems: [expect.stringContaining('does not match')] });
  });

  it('reads `config:` with nothing after it, or null, as no config (the server refuses a null config)', () => {
    expect(parsePromptFile('---\nconfig:\n---\nx', 'md')).toEqual({ ok: true, data: { content: { type: 'text', prompt: 'x' }, config: {}, labels: [] } });
    expect(parsePromptFile('type: text\ntext: x\nconfig: null\n', 'yaml')).toMatchObject({ ok: true, data: { config: {} } });
    expect(parsePromptFile('{"text": "x", "config": null}', 'json')).toMatchObject({ ok: true, data: { config: {} } });
  });

  it('refuses config values JSON cannot hold, and a variable that is also a placeholder', () => {
    expect(parsePromptFile('---\nconfig: {t: .nan}\n---\nx', 'md')).toMatchObject({ ok: false, problems: [expect.stringContaining('config.t is NaN')] });
    expect(parsePromptFile('messages:\n  - {role: user, content: "{{h}}"}\n  - placeholder: h\n', 'yaml')).toMatchObject({
      ok: false,
      problems: [expect.stringContaining('used both as a variable and as a placeholder')],
    });
  });

  it('stops alias bombs instead of expanding them', () => {
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`), 'text: x', 'config: *i'].join('\n');
    expect(parsePromptFile(bomb, 'yaml')).toMatchObject({ ok: false });
  });
});

describe('comparing', () => {
  it('compares config regardless of key order, and tags as sets', () => {
    expect(sameVersionContent(text('x', { config: { a: 1, b: { c: 2, d: 3 } } }), text('x', { config: { b: { d: 3, c: 2 }, a: 1 } }))).toBe(true);
    expect(sameVersionContent(text('x', { config: { a: 1 } }), text('x', { config: { a: 2 } }))).toBe(false);
    expect(sameVersionContent(text('x'), chat([{ role: 'user', content: 'x' }]))).toBe(false);
    expect(sameTags(['b', 'a'], ['a', 'b', 'a'])).toBe(true);
    expect(sameTags(['a'], ['a', 'b'])).toBe(false);
  });

  it('tells a placeholder from a message of the same name', () => {
    expect(sameVersionContent(chat([{ type: 'placeholder', name: 'x' }]), chat([{ type: 'placeholder', name: 'x' }]))).toBe(true);
    expect(sameVersionContent(chat([{ type: 'placeholder', name: 'x' }]), chat([{ role: 'x', content: '' }]))).toBe(false);
  });
});

describe('names and paths', () => {
  it('maps a path under the directory to the prompt name and back', () => {
    expect(promptNameOfPath('team/app/summary.md')).toEqual({ name: 'team/app/summary', extension: 'md' });
    expect(promptNameOfPath('a.b.YAML')).toEqual({ name: 'a.b', extension: 'yaml' });
    expect(promptNameOfPath('README')).toBeUndefined();
    expect(promptFileStem('team/app/summary')).toEqual({ ok: true, stem: 'team/app/summary' });
    expect(promptFileStem('a/../b')).toMatchObject({ ok: false });
    expect(promptFileStem('..')).toMatchObject({ ok: false });
    expect(promptFileStem('a/.git/b')).toMatchObject({ ok: false });
  });
});

// ---- round trips over random content ------------------------------------------------------------

const pieces = fc.constantFrom(
  '\n', '\r\n', '\r', '\t', ' ', '  ', '---', '---\n', '...', '#', '- ', ': ', '|', '>', '"', "'", '\\', '{{name}}', '{{ spaced }}', '{{#section}}x{{/section}}',
  '@@@langfusePrompt:name=child|label=production@@@', '@@@langfusePrompt:name=a/b|version=2@@@', 'é', '日本語', '🙂', '\u00a0', '\u2028', '\uFEFF', 'true', 'null', '~', '0x1F', '1e3', '&anchor', '*alias', '%TAG', '`code`',
);
const texts = fc.array(fc.oneof(pieces, fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })), { maxLength: 12 }).map((parts) => parts.join(''));
const items: fc.Arbitrary<ChatItem> = fc.oneof(
  fc.record({ role: fc.oneof(fc.constantFrom('system', 'user', 'assistant', 'tool'), texts), content: texts }),
  fc.record({ type: fc.constant('placeholder' as const), name: fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_]{0,10}$/) }),
);
const json: fc.Arbitrary<unknown> = fc.jsonValue().map((value) => JSON.parse(JSON.stringify(value)) as unknown);
const configs = fc.oneof(fc.constant({}), fc.dictionary(fc.string(), json), json);
const tags = fc.option(fc.uniqueArray(fc.string({ minLength: 1 }), { maxLength: 4 }), { nil: undefined });

describe('round trip: reading a written file gives back exactly what was written', () => {
  it('random text prompts', () => {
    fc.assert(
      fc.property(texts, configs, tags, (prompt, config, tagList) => {
        const data = text(prompt, { config, ...(tagList ? { tags: tagList } : {}) });
        const back = roundTrip(data);
        expect(back.content).toEqual(data.content);
        // A null config is no config ({}), as the server has it.
        expect(JSON.stringify(back.config)).toBe(JSON.stringify(config ?? {}));
        // An empty tag list is not written: a file without tags leaves the prompt's tags alone.
        expect(back.tags ?? []).toEqual(tagList ?? []);
      }),
      { numRuns: 400 },
    );
  });

  it('random chat prompts', () => {
    fc.assert(
      fc.property(fc.array(items, { maxLength: 6 }), configs, (prompt, config) => {
        const data = chat(prompt, { config });
        expect(roundTrip(data).content).toEqual(data.content);
      }),
      { numRuns: 300 },
    );
  });

  it('a Markdown file whose line breaks an editor or git turned into \\r\\n reads the same', () => {
    fc.assert(
      fc.property(texts, configs, (prompt, config) => {
        const file = serialisePromptFile(text(prompt, { config }));
        if (file.extension !== 'md' || file.text.includes('\r')) return;
        const parsed = parsePromptFile(file.text.replaceAll('\n', '\r\n'), 'md');
        expect(parsed.ok && parsed.data.content.prompt).toBe(prompt);
        expect(parsed.ok && JSON.stringify(parsed.data.config)).toBe(JSON.stringify(config ?? {}));
      }),
      { numRuns: 300 },
    );
  });

  it('a text prompt saved again by an editor that adds a final line break reads the same', () => {
    fc.assert(
      fc.property(texts, (prompt) => {
        const file = serialisePromptFile(text(prompt));
        if (file.extension !== 'md' || !file.text.endsWith('\n')) return;
        // The written file already ends with the break an editor would add; saving it adds none.
        const parsed = parsePromptFile(file.text, 'md');
        expect(parsed.ok && parsed.data.content.prompt).toBe(prompt);
      }),
      { numRuns: 200 },
    );
  });
});
