/** Stable codes of estimate warnings. Output formats and scripts may rely on them. */
export const ESTIMATE_WARNING_CODES = [
  'no-matching-model',
  'ambiguous-match',
  'pattern-not-evaluable',
  'reasoning-tokens-not-visible',
  'claude-count-approximate',
  'unpriced-usage-keys',
  'chat-config-missing',
  'no-tokenizer',
  'tokenizer-unusable',
  'tokenization-failed',
  'tokenization-skipped',
  'tokenization-may-time-out',
  'no-prices',
  'tier-condition-unknown',
  'tier-attributes-ignored',
  'usage-total-mismatch',
  'values-dropped',
  'cost-out-of-range',
] as const;

export type EstimateWarningCode = (typeof ESTIMATE_WARNING_CODES)[number];

export interface EstimateWarning {
  code: EstimateWarningCode;
  message: string;
}
