/**
 * Errors raised by the prompt core. Each carries a `kind` so the CLI can map it to an exit code
 * without string matching: `usage` is a bad input caught before anything is sent (exit 2),
 * `precondition` means the prompt is not in the state the caller required (exit 9),
 * `not-found` names a version that does not exist, `template` a template mustache cannot parse.
 */
export type PromptErrorKind = 'usage' | 'precondition' | 'not-found' | 'template';

export abstract class PromptError extends Error {
  abstract readonly kind: PromptErrorKind;

  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class PromptUsageError extends PromptError {
  readonly kind = 'usage' as const;
}

export class LabelPreconditionError extends PromptError {
  readonly kind = 'precondition' as const;
}

export class PromptVersionNotFoundError extends PromptError {
  readonly kind = 'not-found' as const;
}

export class PromptTemplateError extends PromptError {
  readonly kind = 'template' as const;
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
