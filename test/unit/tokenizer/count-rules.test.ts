import { describe, expect, it } from 'vitest';
import type { ModelDefinition } from '../../../src/core/models/types.js';
import { ingestionText, resolveTokenizer, serverTokenCount, tokenizeObservation, parseJsonPrioritised } from '../../../src/tokenizer/index.js';
import { recordingCounter, wasmCounter } from './support/counter.js';

type Tok = Pick<ModelDefinition, 'tokenizerId' | 'tokenizerConfig'>;

/** The definition shape the server's own tokenizer tests use: tokenizerModel = the model name. */
function def(model: string, tokenizerId: string | null, extra: Record<string, unknown> = { tokensPerMessage: 3, tokensPerName: 1 }): Tok {
  return { tokenizerId, tokenizerConfig: { ...extra, tokenizerModel: model } };
}

const count = (d: Tok, text: unknown): number | undefined => {
  const r = serverTokenCount(resolveTokenizer(d), text, wasmCounter);
  return r.kind === 'count' ? r.tokens : undefined;
};

const LOREM =
  "Lorem Ipsum is simply dummy text of the printing and typesetting industry. Lorem Ipsum has been the industry's standard dummy text ever since the 1500s, when an unknown printer took a galley of type and scrambled it to make a type specimen book. It has survived not only five centuries, but also the leap into electronic typesetting, remaining essentially unchanged. It was popularised in the 1960s with the release of Letraset sheets containing Lorem Ipsum passages, and more recently with desktop publishing software like Aldus PageMaker including versions of Lorem Ipsum.";

const WORLD_SERIES = [
  { role: 'system', content: 'You are a helpful assistant.' },
  { role: 'user', content: 'Who won the world series in 2020?' },
  { role: 'assistant', content: 'The Los Angeles Dodgers won the World Series in 2020.' },
];

describe('resolveTokenizer', () => {
  it('gives no tokenizer for a null tokenizerId or an unknown one', () => {
    expect(resolveTokenizer({ tokenizerId: null, tokenizerConfig: null })).toMatchObject({ ok: false, reason: 'no-tokenizer' });
    expect(resolveTokenizer({ tokenizerId: 'unknown-tokenizer', tokenizerConfig: {} })).toMatchObject({ ok: false, reason: 'unknown-tokenizer' });
  });

  it('needs a tokenizerModel from the allow-list for openai', () => {
    expect(resolveTokenizer({ tokenizerId: 'openai', tokenizerConfig: null })).toMatchObject({ ok: false, reason: 'invalid-config' });
    expect(resolveTokenizer(def('gpt-4o-mini', 'openai'))).toMatchObject({ ok: false, reason: 'invalid-config' });
    expect(resolveTokenizer(def('gpt-4o', 'openai'))).toMatchObject({
      ok: true,
      tokenizer: { id: 'openai', encoding: 'o200k_base', tokenizerModel: 'gpt-4o' },
      chat: { tokensPerMessage: 3, tokensPerName: 1 },
    });
  });

  it('flags a chat tokenizer model without message overhead config', () => {
    expect(resolveTokenizer(def('gpt-4', 'openai', {}))).toMatchObject({ ok: true, chat: null, chatConfigMissing: true });
    expect(resolveTokenizer(def('text-davinci-003', 'openai', {}))).toMatchObject({ ok: true, chat: null, chatConfigMissing: false });
  });

  it('ignores the config for claude', () => {
    expect(resolveTokenizer({ tokenizerId: 'claude', tokenizerConfig: null })).toMatchObject({ ok: true, tokenizer: { id: 'claude', encoding: 'claude' } });
  });
});

describe('serverTokenCount: the server test expectations', () => {
  it.each([
    ['gpt-3.5-turbo', 'openai', 114],
    ['text-embedding-ada-002', 'openai', 114],
    ['gpt-4-1106-preview', 'openai', 114],
    ['gpt-4-vision-preview', 'openai', 114],
    ['claude', 'claude', 118],
    ['claude-instant-1.2', 'claude', 118],
    ['gpt-3.5-turbo-1106', 'openai', 114],
    ['gpt-4o-2024-05-13', 'openai', 112],
  ])('counts the Lorem Ipsum text for %s (%s) as %i', (model, tokenizer, expected) => {
    expect(count(def(model, tokenizer), LOREM)).toBe(expected);
  });

  it('returns nothing for an unknown tokenizer', () => {
    expect(count(def('unknown-model', 'unknown-tokenizer'), 'Hello, World!')).toBeUndefined();
  });

  it('counts the extensive chat with an emoji as 155 (not a chat array: one content is not a string)', () => {
    const messages = [
      { role: 'system', content: 'some test', id: 'some-id', isPersisted: true },
      { id: 'some-id', content: 'some test', role: 'user', timestamp: '2024-01-00:00:00.488Z', isPersisted: true },
      {
        id: 'some id',
        content: "Hey Simon! 😊 How's your day going? Have you been up to anything interesting lately?",
        role: 'user',
        timestamp: '2024-01-24T10:00:00.929Z',
        isPersisted: true,
      },
      { content: true, role: 'user', id: 'some id' },
      { role: 'system', content: 'This is some content' },
      { id: 'another id', role: 'assistant', content: 'This is some content' },
    ];
    expect(count(def('gpt-3.5-turbo', 'openai'), messages)).toBe(155);
  });

  it('stringifies non-strings: 1234 is 2 tokens', () => {
    expect(count(def('gpt-4', 'openai'), 1234)).toBe(2);
  });

  it('counts the empty string as 0 and a long run of A as 1250', () => {
    expect(count(def('gpt-4', 'openai'), '')).toBe(0);
    expect(count(def('gpt-4', 'openai'), 'A'.repeat(10000))).toBe(1250);
  });

  it('returns nothing for null, undefined and an empty array', () => {
    expect(count(def('gpt-4', 'openai'), null)).toBeUndefined();
    expect(count(def('gpt-4', 'openai'), undefined)).toBeUndefined();
    expect(count(def('gpt-4', 'openai'), [])).toBeUndefined();
  });

  it.each([
    ['gpt-4', 'openai', 44],
    ['gpt-3.5-turbo-16k-0613', 'openai', 44],
    ['claude-instant-1.2', 'claude', 48],
  ])('counts a chat for %s (%s) as %i', (model, tokenizer, expected) => {
    expect(count(def(model, tokenizer), WORLD_SERIES)).toBe(expected);
  });

  it('counts special tokens as one token, as encode(text, "all") does', () => {
    expect(count(def('gpt-4', 'openai'), '<|endoftext|>')).toBe(1);
  });

  it('counts a non-array object and an array of non-messages as JSON', () => {
    expect(count(def('gpt-4', 'openai'), { role: 'Helo world' })).toBe(7);
    expect(count(def('gpt-4', 'openai'), [{ role: 'Helo world' }])).toBe(9);
  });
});

describe('serverTokenCount: chat and text paths', () => {
  it('parses a JSON string first, so a stored chat array is counted as chat', () => {
    expect(count(def('gpt-4', 'openai'), JSON.stringify(WORLD_SERIES))).toBe(44);
  });

  it('re-serialises parsed JSON compactly before counting', () => {
    const rec = recordingCounter();
    serverTokenCount(resolveTokenizer(def('gpt-4', 'openai')), '{ "a" : 1 }', rec);
    expect(rec.calls).toEqual([['cl100k_base', '{"a":1}']]);
  });

  it('counts a chat array as JSON when the tokenizer model is not a chat model', () => {
    const rec = recordingCounter();
    serverTokenCount(resolveTokenizer(def('text-davinci-003', 'openai')), WORLD_SERIES, rec);
    expect(rec.calls).toEqual([['p50k_base', JSON.stringify(WORLD_SERIES)]]);
  });

  it('gives no count for chat input when a chat model lacks tokensPerMessage/tokensPerName', () => {
    const r = serverTokenCount(resolveTokenizer(def('gpt-4', 'openai', {})), WORLD_SERIES, wasmCounter);
    expect(r.kind).toBe('none');
    // Plain text still counts.
    expect(count(def('gpt-4', 'openai', {}), 'hello world')).toBe(2);
  });

  it('adds tokensPerMessage per message, tokensPerName per name key, and 3 for the reply', () => {
    const rec = recordingCounter();
    const d = def('gpt-4', 'openai', { tokensPerMessage: 4, tokensPerName: -1 });
    const r = serverTokenCount(resolveTokenizer(d), [{ role: 'user', content: 'hi', name: 'bob', id: 'x' }, { role: 'user', content: '', name: '' }], rec);
    // Only truthy values of the listed keys are encoded; "id" is ignored; an empty name still adds tokensPerName.
    expect(rec.calls.map(([, t]) => t)).toEqual(['user', 'hi', 'bob', 'user']);
    const c = (t: string): number => wasmCounter('cl100k_base', t);
    expect(r).toEqual({ kind: 'count', path: 'chat', tokens: 4 + c('user') + c('hi') + c('bob') - 1 + (4 + c('user') - 1) + 3 });
  });

  it('encodes string tool_calls and fails on non-string ones, as the WASM encoder throws', () => {
    const d = resolveTokenizer(def('gpt-4o', 'openai'));
    const ok = serverTokenCount(d, [{ role: 'assistant', content: '', tool_calls: 'call()' }], wasmCounter);
    expect(ok).toEqual({ kind: 'count', path: 'chat', tokens: 3 + wasmCounter('o200k_base', 'assistant') + wasmCounter('o200k_base', 'call()') + 3 });
    const bad = serverTokenCount(d, [{ role: 'assistant', content: '', tool_calls: [{ id: '1' }] }], wasmCounter);
    expect(bad.kind).toBe('error');
  });

  it('JSON text or a value nested too deeply to turn into text is a failed count, not a stack overflow', () => {
    const deepText = '['.repeat(100_000) + ']'.repeat(100_000);
    let deepValue: unknown = [];
    for (let i = 0; i < 100_000; i++) deepValue = [deepValue];
    const d = resolveTokenizer(def('gpt-4o', 'openai'));
    expect(serverTokenCount(d, deepText, wasmCounter)).toEqual({ kind: 'error', reason: 'the text is JSON nested too deeply to be counted' });
    const observation = tokenizeObservation(d, deepValue, 'fine', wasmCounter);
    expect(observation).toMatchObject({ failed: true, usage: {}, input: { kind: 'error' }, output: { kind: 'count' } });
  });

  it('counts claude text as the raw string and objects as compact JSON, without chat handling', () => {
    const rec = recordingCounter();
    const claude = resolveTokenizer({ tokenizerId: 'claude', tokenizerConfig: null });
    serverTokenCount(claude, '{ "a" : 1 }', rec);
    serverTokenCount(claude, WORLD_SERIES, rec);
    expect(rec.calls).toEqual([
      ['claude', '{ "a" : 1 }'],
      ['claude', JSON.stringify(WORLD_SERIES)],
    ]);
  });
});

describe('ingestion text and usage assembly', () => {
  it('stores only truthy input, stringified unless a string', () => {
    expect(ingestionText(undefined)).toBeUndefined();
    expect(ingestionText('')).toBeUndefined();
    expect(ingestionText(0)).toBeUndefined();
    expect(ingestionText(false)).toBeUndefined();
    expect(ingestionText([])).toBe('[]');
    expect(ingestionText({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(ingestionText('x')).toBe('x');
  });

  it('assembles {input, output, total} from both counts', () => {
    const r = tokenizeObservation(resolveTokenizer(def('gpt-4', 'openai')), 'hello world', 'hi', wasmCounter);
    expect(r.usage).toEqual({ input: 2, output: 1, total: 3 });
  });

  it('sets total only when a count is positive, and omits missing counts', () => {
    const d = resolveTokenizer(def('gpt-4', 'openai'));
    // An empty array input reaches the tokenizer as "[]": a (vacuous) chat array, 0 messages + 3.
    expect(tokenizeObservation(d, [], undefined, wasmCounter).usage).toEqual({ input: 3, total: 3 });
    expect(tokenizeObservation(d, undefined, undefined, wasmCounter).usage).toEqual({});
    const zero = tokenizeObservation(resolveTokenizer(def('gpt-4', 'openai')), '""', undefined, wasmCounter);
    expect(zero.usage).toEqual({ input: 0 });
  });

  it('loses all usage when one side fails', () => {
    const d = resolveTokenizer(def('gpt-4', 'openai'));
    const r = tokenizeObservation(d, 'hello', [{ role: 'a', content: 'b', functionCall: { name: 'f' } }], wasmCounter);
    expect(r).toMatchObject({ failed: true, usage: {} });
  });
});

describe('reading stored metadata values', () => {
  it.each([
    ['1', 1],
    [' -2.5e3 ', -2500],
    ['1-2', '1-2'],
    ['0123', '0123'],
    ['true', true],
    ['nope', 'nope'],
    ['null', null],
    ['{"a":[1]}', { a: [1] }],
    ['[1,', '[1,'],
    ['"quoted"', 'quoted'],
    ['', ''],
  ])('%j reads back as %j, as JSON.parse with a fallback to the text would', (text, expected) => {
    expect(parseJsonPrioritised(text)).toEqual(expected);
    let reference: unknown;
    try {
      reference = JSON.parse(text);
    } catch {
      reference = text;
    }
    expect(parseJsonPrioritised(text)).toEqual(reference);
  });
});

// The tokenizer's "parse as JSON when it is JSON" step, which ingestion runs on every input and
// output: text that cannot be JSON skips the parse (a thrown parse error per generation was a fifth
// of the pipeline's time when outputs were plain text), and the result must stay JSON.parse's.
function reference(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const PIECES = ['', ' ', '\t', '\n', '\r', '\u00a0', '\ufeff', '\u2028', '{', '}', '[', ']', '"', '\\', ',', ':', '-', '+', '.', 'e', 'E', '0', '1', '9', 'true', 'false', 'null', 'nul', 'x', 'é', '{"a":1}', '[1,2]', '"s"'];

describe('parseJsonPrioritised', () => {
  it.each([
    ['Here is a short answer: 100 °C.', 'Here is a short answer: 100 °C.'],
    ['  [{"role":"user","content":"hi"}]', [{ role: 'user', content: 'hi' }]],
    ['\u00a0{"a":1}', '\u00a0{"a":1}'],
    ['1.5E+3', 1500],
    ['01', '01'],
    ['true story', 'true story'],
    ['-', '-'],
    ['', ''],
  ])('%j gives %j', (text, expected) => {
    expect(parseJsonPrioritised(text)).toEqual(expected);
  });

  it('agrees with JSON.parse (falling back to the text) on every text of up to three pieces', () => {
    let checked = 0;
    for (const a of PIECES) {
      for (const b of PIECES) {
        for (const c of PIECES) {
          const text = a + b + c;
          expect(parseJsonPrioritised(text), JSON.stringify(text)).toEqual(reference(text));
          checked++;
        }
      }
    }
    expect(checked).toBe(PIECES.length ** 3);
  });
});
