import { countTokens } from '@anthropic-ai/tokenizer';
import type { Tiktoken, TiktokenEncoding } from 'tiktoken';
import { get_encoding } from 'tiktoken';
import type { TokenCounter } from '../../../../src/tokenizer/index.js';

const encoders = new Map<string, Tiktoken>();

/**
 * A counter built on the same packages the server uses (WASM tiktoken, @anthropic-ai/tokenizer),
 * so expected values from the server's own tests apply unchanged.
 */
export const wasmCounter: TokenCounter = (encoding, text) => {
  if (encoding === 'claude') return countTokens(text);
  let enc = encoders.get(encoding);
  if (!enc) {
    enc = get_encoding(encoding as TiktokenEncoding);
    encoders.set(encoding, enc);
  }
  return enc.encode(text, 'all').length;
};

/** Records every call, to assert what the server would hand to the tokenizer. */
export function recordingCounter(inner: TokenCounter = wasmCounter): TokenCounter & { calls: [string, string][] } {
  const calls: [string, string][] = [];
  const f = ((encoding, text) => {
    calls.push([encoding, text]);
    return inner(encoding, text);
  }) as TokenCounter & { calls: [string, string][] };
  f.calls = calls;
  return f;
}
