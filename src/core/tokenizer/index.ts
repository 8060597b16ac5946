/**
 * Offline token counting that reproduces the Langfuse server: WASM `tiktoken`'s
 * `encode(text, "all")` for the OpenAI encodings, and `@anthropic-ai/tokenizer`'s `countTokens`
 * (NFKC, then the same BPE with Claude's vocabulary) for `claude`. Pure: the rank tables come in
 * as bytes; src/tokenizer/load.ts reads the generated ones from dist/ranks/.
 *
 *   const tokenizer = createTokenizer('o200k_base', decodeRankTable(bytes));
 *   tokenizer.count(text);              // number of tokens
 *   tokenizer.encode(text);             // token ids
 *   const counter = tokenizer.counter(); // streaming: write(chunk)... end() === count(whole)
 *
 * Every special token string in the text counts as that one token, as with `encode(text, "all")`.
 *
 * Where the server records no count at all: its tokenizer merges a long piece in quadratic time
 * and the worker gives up after 30 s (from roughly 100 KB in one piece, e.g. a long run of one
 * character), and the WASM regex engine throws when one match needs about a million backtracking
 * states (a run of that many white-space characters). These functions still return the count that
 * tiktoken gives when it finishes.
 */
export { type CountStats, createTokenizer, type Tokenizer, type TokenizerOptions } from './tokenizer.js';
export type { StreamingCounter } from './streaming.js';
export { ENCODING_NAMES, isEncodingName, type EncodingName } from './encodings.js';
export { decodeRankTable, encodeRankTable, openRankTable, type ReadAt, type RankTable, type RankTableMeta } from './rank-table.js';
