/**
 * Offline token counting that reproduces the Langfuse server: WASM `tiktoken`'s
 * `encode(text, "all")` for the OpenAI encodings and `@anthropic-ai/tokenizer`'s `countTokens`
 * for Claude. Pure: the rank tables come in as bytes (see src/tokenizer/load.ts for the loader).
 */
export { createTokenizer, type Tokenizer, type TokenizerOptions } from './tokenizer.js';
export type { StreamingCounter } from './streaming.js';
export { ENCODING_NAMES, isEncodingName, type EncodingName } from './encodings.js';
export { decodeRankTable, encodeRankTable, type RankTable, type RankTableMeta } from './rank-table.js';
