import type { TokenCounter } from './count-rules.js';
import { loadTokenizer } from './load.js';

/** The core's counting contract, served by the tokenizer engine. */
export const engineCounter: TokenCounter = (encoding, text, stats) => loadTokenizer(encoding).count(text, stats);
