import { encoding_for_model, get_encoding_name_for_model, type TiktokenModel } from 'tiktoken';
import { describe, expect, it } from 'vitest';
import { CHAT_MODELS, TIKTOKEN_MODEL_ENCODINGS, isChatModel, isTiktokenModel } from '../../../src/tokenizer/index.js';

describe('tokenizer model tables', () => {
  it('match the encodings WASM tiktoken picks for every allow-listed model', () => {
    // The name WASM tiktoken maps each model to (building all 56 encoders took over 30 s on a
    // loaded machine); one encoder built checks that the name is the built encoder's.
    for (const [model, encoding] of Object.entries(TIKTOKEN_MODEL_ENCODINGS)) {
      expect(get_encoding_name_for_model(model as TiktokenModel), model).toBe(encoding);
    }
    const enc = encoding_for_model('gpt-4o');
    expect(enc.name).toBe(get_encoding_name_for_model('gpt-4o'));
    enc.free();
  });

  it('has the 56 models of the server list, davinci-002 and babbage-002 on cl100k_base', () => {
    expect(Object.keys(TIKTOKEN_MODEL_ENCODINGS)).toHaveLength(56);
    expect(TIKTOKEN_MODEL_ENCODINGS['davinci-002']).toBe('cl100k_base');
    expect(TIKTOKEN_MODEL_ENCODINGS['babbage-002']).toBe('cl100k_base');
    expect(TIKTOKEN_MODEL_ENCODINGS['gpt-4o']).toBe('o200k_base');
    expect(TIKTOKEN_MODEL_ENCODINGS['text-davinci-edit-001']).toBe('p50k_edit');
    expect(isTiktokenModel('gpt-4o-mini')).toBe(false);
    expect(isTiktokenModel('gpt-4o-2024-08-06')).toBe(false);
    expect(isTiktokenModel('toString')).toBe(false);
  });

  it('lists the 17 chat models, all of them tiktoken models', () => {
    expect(CHAT_MODELS).toHaveLength(17);
    for (const m of CHAT_MODELS) expect(isTiktokenModel(m), m).toBe(true);
    expect(isChatModel('gpt-4-turbo')).toBe(false);
    expect(isChatModel('gpt-3.5-turbo-instruct')).toBe(false);
  });
});
