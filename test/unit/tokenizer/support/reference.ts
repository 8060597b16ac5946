/**
 * The reference implementations, as the Langfuse server runs them: WASM `tiktoken`'s
 * `encode(text, "all")` and `@anthropic-ai/tokenizer`'s `countTokens`.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { get_encoding, type Tiktoken, type TiktokenEncoding } from 'tiktoken';
import { countTokens, getTokenizer } from '@anthropic-ai/tokenizer';
import { loadTokenizer, type EncodingName, type Tokenizer } from '../../../../src/tokenizer/index.js';
import { decodeRankTable } from '../../../../src/tokenizer/rank-table.js';
import { TokenizerCore } from '../../../../src/tokenizer/tokenizer.js';

export const OPENAI_ENCODINGS = ['o200k_base', 'cl100k_base', 'p50k_base', 'p50k_edit', 'r50k_base', 'gpt2'] as const satisfies readonly TiktokenEncoding[];

/** The tables that `npm run build` generates. */
export const RANKS_DIR = fileURLToPath(new URL('../../../../dist/ranks/', import.meta.url));

export function ours(name: EncodingName): Tokenizer {
  return loadTokenizer(name, RANKS_DIR);
}

const encoders = new Map<TiktokenEncoding, Tiktoken>();

/**
 * Runs `fn` with a WASM encoder. Encoders are shared within a test file (o200k_base takes half a
 * second to build): a file that uses this calls `afterAll(freeTiktokens)`.
 */
export function withTiktoken<T>(name: TiktokenEncoding, fn: (enc: Tiktoken) => T): T {
  let enc = encoders.get(name);
  if (!enc) {
    enc = get_encoding(name);
    encoders.set(name, enc);
  }
  return fn(enc);
}

export function freeTiktokens(): void {
  for (const enc of encoders.values()) enc.free();
  encoders.clear();
}

export { countTokens as claudeCountTokens };

/**
 * `countTokens` builds a new WASM tokenizer per call (about 0.1 s). This is its body with the
 * tokenizer built once; tests check it against `countTokens` itself on a sample.
 */
export function claudeCounter(): { count(text: string): number; free(): void } {
  const tokenizer = getTokenizer();
  return {
    count: (text) => tokenizer.encode(text.normalize('NFKC'), 'all').length,
    free: () => tokenizer.free(),
  };
}

const cores = new Map<EncodingName, TokenizerCore>();

/** An engine like the one behind `ours(name)`, for tests of its parts. */
export function ourCore(name: EncodingName): TokenizerCore {
  let core = cores.get(name);
  if (!core) {
    core = new TokenizerCore(name, decodeRankTable(readFileSync(`${RANKS_DIR}${name}.bin`)));
    cores.set(name, core);
  }
  return core;
}
