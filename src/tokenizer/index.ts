/**
 * Offline token counting that reproduces the Langfuse server: WASM `tiktoken`'s
 * `encode(text, "all")` for the OpenAI encodings, and `@anthropic-ai/tokenizer`'s `countTokens`
 * (NFKC, then the same BPE with Claude's vocabulary) for `claude`.
 *
 *   const tokenizer = loadTokenizer('o200k_base'); // or createTokenizer(name, decodeRankTable(bytes))
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
 *
 * The folder holds three parts:
 * - the engine, pure code: tokenizer.ts and what it uses (scanner, BPE, rank tables, streaming);
 * - the server's rules: which tokenizer a model definition gets (tiktoken-models.ts) and how an
 *   observation's input and output are counted (count-rules.ts), given any counter;
 * - the loading of the generated rank tables from dist/ranks/ (load.ts, with node:fs), and the
 *   engine as the rules' counter (counter.ts).
 *
 * This file is the folder's surface. Code that needs only the rules (src/core/, `models match`,
 * the server's JSON rule) imports count-rules.ts or tiktoken-models.ts itself: through here it
 * would load the engine and node:fs, which it never uses. Code that loads the engine lazily
 * (`tokens count`) imports load.ts itself for the same reason.
 */
export { type CountStats, createTokenizer, type Tokenizer, type TokenizerOptions } from './tokenizer.js';
export type { StreamingCounter } from './streaming.js';
export { ENCODING_NAMES, isEncodingName, type EncodingName } from './encodings.js';
export { decodeRankTable, encodeRankTable, openRankTable, type ReadAt, type RankTable, type RankTableMeta } from './rank-table.js';
export * from './tiktoken-models.js';
export * from './count-rules.js';
export { DEFAULT_RANKS_DIR, loadTokenizer } from './load.js';
export { engineCounter } from './counter.js';
