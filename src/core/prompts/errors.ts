import { NotFoundError, PreconditionError, UsageError } from '../../errors.js';

/**
 * Errors raised by the prompt core. Each carries a `kind` for callers that reason about it, and
 * extends the CLI's typed error for its exit code, so the one mapping in src/cli.ts handles them:
 * `usage` is a bad input caught before anything is sent (exit 2), `precondition` means the prompt
 * is not in the state the caller required (exit 9), `not-found` names a version that does not
 * exist (exit 8), `template` a template mustache cannot parse (exit 2: nothing can be compiled),
 * `reference` a reference to another prompt that cannot be resolved (exit 9).
 */
export type PromptErrorKind = 'usage' | 'precondition' | 'not-found' | 'template' | 'reference';

export class PromptUsageError extends UsageError {
  readonly kind = 'usage' as const;
  constructor(message: string, hint?: string) {
    super(message, { hint });
  }
}

export class LabelPreconditionError extends PreconditionError {
  readonly kind = 'precondition' as const;
  constructor(message: string, hint?: string) {
    super(message, { hint });
  }
}

export class PromptVersionNotFoundError extends NotFoundError {
  readonly kind = 'not-found' as const;
  constructor(message: string, hint?: string) {
    super(message, { hint });
  }
}

export class PromptTemplateError extends UsageError {
  readonly kind = 'template' as const;
  constructor(message: string, hint?: string) {
    super(message, { hint });
  }
}

/** A referenced prompt is missing or not text, or the references nest too deep or form a cycle. */
export class PromptReferenceError extends PreconditionError {
  readonly kind = 'reference' as const;
  constructor(message: string, hint?: string) {
    super(message, { hint });
  }
}

export type PromptError = PromptUsageError | LabelPreconditionError | PromptVersionNotFoundError | PromptTemplateError | PromptReferenceError;

export function isPromptError(error: unknown): error is PromptError {
  return (
    error instanceof PromptUsageError ||
    error instanceof LabelPreconditionError ||
    error instanceof PromptVersionNotFoundError ||
    error instanceof PromptTemplateError ||
    error instanceof PromptReferenceError
  );
}

/** Quotes a user-supplied value for an error message so empty strings and spaces stay visible. */
export function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Names a JSON type the way a user thinks of it (`array`, `null`), unlike `typeof`. */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
