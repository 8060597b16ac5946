import type { PatternFamily } from './patterns.js';

/** Encodings the token counter must support. `claude` is the legacy Anthropic vocabulary. */
export type EncodingName = 'o200k_base' | 'cl100k_base' | 'p50k_base' | 'p50k_edit' | 'r50k_base' | 'gpt2' | 'claude';

export const ENCODING_NAMES: readonly EncodingName[] = [
  'o200k_base',
  'cl100k_base',
  'p50k_base',
  'p50k_edit',
  'r50k_base',
  'gpt2',
  'claude',
];

export interface EncodingSpec {
  readonly family: PatternFamily;
  /** `@anthropic-ai/tokenizer` normalises its input to NFKC before encoding. */
  readonly nfkc: boolean;
}

export const ENCODINGS: Readonly<Record<EncodingName, EncodingSpec>> = {
  o200k_base: { family: 'o200k', nfkc: false },
  cl100k_base: { family: 'cl100k', nfkc: false },
  p50k_base: { family: 'gpt2', nfkc: false },
  p50k_edit: { family: 'gpt2', nfkc: false },
  r50k_base: { family: 'gpt2', nfkc: false },
  gpt2: { family: 'gpt2', nfkc: false },
  claude: { family: 'gpt2', nfkc: true },
};

export function isEncodingName(name: string): name is EncodingName {
  return (ENCODING_NAMES as readonly string[]).includes(name);
}
