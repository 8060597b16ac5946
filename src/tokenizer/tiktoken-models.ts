import type { EncodingName } from './encodings.js';

/**
 * The server's `isTiktokenModel` allow-list, with the encoding the WASM `tiktoken` package's
 * `encoding_for_model` picks for each (the server uses that package). Any other
 * `tokenizerModel` makes the server skip tokenization. Note davinci-002 and babbage-002 use
 * cl100k_base here, unlike js-tiktoken's mapping.
 */
export const TIKTOKEN_MODEL_ENCODINGS: Readonly<Record<string, Exclude<EncodingName, 'claude'>>> = {
  'davinci-002': 'cl100k_base',
  'babbage-002': 'cl100k_base',
  'text-davinci-003': 'p50k_base',
  'text-davinci-002': 'p50k_base',
  'text-davinci-001': 'r50k_base',
  'text-curie-001': 'r50k_base',
  'text-babbage-001': 'r50k_base',
  'text-ada-001': 'r50k_base',
  davinci: 'r50k_base',
  curie: 'r50k_base',
  babbage: 'r50k_base',
  ada: 'r50k_base',
  'code-davinci-002': 'p50k_base',
  'code-davinci-001': 'p50k_base',
  'code-cushman-002': 'p50k_base',
  'code-cushman-001': 'p50k_base',
  'davinci-codex': 'p50k_base',
  'cushman-codex': 'p50k_base',
  'text-davinci-edit-001': 'p50k_edit',
  'code-davinci-edit-001': 'p50k_edit',
  'text-embedding-ada-002': 'cl100k_base',
  'text-similarity-davinci-001': 'r50k_base',
  'text-similarity-curie-001': 'r50k_base',
  'text-similarity-babbage-001': 'r50k_base',
  'text-similarity-ada-001': 'r50k_base',
  'text-search-davinci-doc-001': 'r50k_base',
  'text-search-curie-doc-001': 'r50k_base',
  'text-search-babbage-doc-001': 'r50k_base',
  'text-search-ada-doc-001': 'r50k_base',
  'code-search-babbage-code-001': 'r50k_base',
  'code-search-ada-code-001': 'r50k_base',
  gpt2: 'gpt2',
  'gpt-3.5-turbo': 'cl100k_base',
  'gpt-35-turbo': 'cl100k_base',
  'gpt-3.5-turbo-0301': 'cl100k_base',
  'gpt-3.5-turbo-0613': 'cl100k_base',
  'gpt-3.5-turbo-1106': 'cl100k_base',
  'gpt-3.5-turbo-0125': 'cl100k_base',
  'gpt-3.5-turbo-16k': 'cl100k_base',
  'gpt-3.5-turbo-16k-0613': 'cl100k_base',
  'gpt-3.5-turbo-instruct': 'cl100k_base',
  'gpt-3.5-turbo-instruct-0914': 'cl100k_base',
  'gpt-4': 'cl100k_base',
  'gpt-4-0314': 'cl100k_base',
  'gpt-4-0613': 'cl100k_base',
  'gpt-4-32k': 'cl100k_base',
  'gpt-4-32k-0314': 'cl100k_base',
  'gpt-4-32k-0613': 'cl100k_base',
  'gpt-4-turbo': 'cl100k_base',
  'gpt-4-turbo-2024-04-09': 'cl100k_base',
  'gpt-4-turbo-preview': 'cl100k_base',
  'gpt-4-1106-preview': 'cl100k_base',
  'gpt-4-0125-preview': 'cl100k_base',
  'gpt-4-vision-preview': 'cl100k_base',
  'gpt-4o': 'o200k_base',
  'gpt-4o-2024-05-13': 'o200k_base',
};

/** Tokenizer models the server counts as chat models (message overhead applies). */
export const CHAT_MODELS: readonly string[] = [
  'gpt-4',
  'gpt-4-0314',
  'gpt-4-0613',
  'gpt-4-32k',
  'gpt-4-32k-0314',
  'gpt-4-32k-0613',
  'gpt-3.5-turbo',
  'gpt-35-turbo',
  'gpt-3.5-turbo-0301',
  'gpt-3.5-turbo-0613',
  'gpt-3.5-turbo-1106',
  'gpt-3.5-turbo-16k',
  'gpt-3.5-turbo-16k-0613',
  'gpt-4-1106-preview',
  'gpt-4-vision-preview',
  'gpt-4o-2024-05-13',
  'gpt-4o',
];

export function isTiktokenModel(model: string): boolean {
  return Object.prototype.hasOwnProperty.call(TIKTOKEN_MODEL_ENCODINGS, model);
}

export function isChatModel(model: string): boolean {
  return CHAT_MODELS.includes(model);
}

export function encodingForTokenizerModel(model: string): Exclude<EncodingName, 'claude'> | undefined {
  return isTiktokenModel(model) ? TIKTOKEN_MODEL_ENCODINGS[model] : undefined;
}
