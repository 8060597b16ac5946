// The environment variables that configure llmobs, in a module of their own: a command that only
// checks whether any is set (an `estimate` with no configuration) need not load config/resolve.ts.

export const KEY_VARS = {
  publicKey: ['LLMOBS_PUBLIC_KEY', 'LANGFUSE_PUBLIC_KEY'],
  secretKey: ['LLMOBS_SECRET_KEY', 'LANGFUSE_SECRET_KEY'],
  apiKey: ['LLMOBS_API_KEY'],
} as const;

export const URL_VARS = ['LLMOBS_BASE_URL', 'LANGFUSE_BASE_URL', 'LANGFUSE_HOST'] as const;

/** Variables whose values are secrets. */
export const SECRET_VARIABLES = [...KEY_VARS.secretKey, ...KEY_VARS.apiKey] as const;

export const ENVIRONMENT_VARIABLES = [
  'LLMOBS_PROFILE',
  ...URL_VARS,
  ...KEY_VARS.publicKey,
  ...KEY_VARS.secretKey,
  ...KEY_VARS.apiKey,
] as const;
