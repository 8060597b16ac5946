// Typed errors: each carries its exit code and, where possible, what to do next.
// src/cli.ts is the only place that turns them into output and an exit code.

export const ExitCode = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  config: 3,
  network: 4,
  api: 5,
  file: 6,
  auth: 7,
  notFound: 8,
  precondition: 9,
  rateLimited: 10,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];

/** One line per exit code, shown in `--help` and docs/reference.md. */
export const EXIT_CODE_HELP: ReadonlyArray<readonly [number, string]> = [
  [0, 'ok'],
  [1, 'unexpected error'],
  [2, 'usage or invalid local input (nothing was sent), or a --jq filter that failed'],
  [3, 'missing or invalid configuration or credentials, or an unknown profile'],
  [4, 'network error or timeout'],
  [5, 'other API error (non-2xx answer)'],
  [6, 'local file error'],
  [7, 'authentication rejected (401/403)'],
  [8, 'not found on the server (404)'],
  [9, 'precondition failed (a check you asked for did not hold, e.g. --exit-code found differences)'],
  [10, 'rate limited after all retries'],
];

export interface ErrorOptions {
  hint?: string | undefined;
  cause?: unknown;
  details?: unknown;
}

export class CliError extends Error {
  readonly exitCode: number;
  /** Stable machine-readable code, printed in `--json` error objects. */
  readonly code: string;
  hint: string | undefined;
  readonly details: unknown;

  constructor(message: string, exitCode: number, code: string, options: ErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.code = code;
    this.hint = options.hint;
    this.details = options.details;
  }
}

export class UsageError extends CliError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.usage, 'usage', options);
  }
}

export class ConfigError extends CliError {
  constructor(message: string, options?: ErrorOptions & { code?: string }) {
    super(message, ExitCode.config, options?.code ?? 'config', options);
  }
}

/**
 * A profile name that is not in the profile file. Exit 3 wherever it is named (--profile,
 * LLMOBS_PROFILE, or a profile command): it is configuration, not something the server lacks (8).
 */
export class ProfileNotFoundError extends ConfigError {
  constructor(name: string, known: readonly string[], from?: string) {
    const listing = known.length ? `known profiles: ${known.join(', ')}` : 'no profiles are configured';
    super(`profile "${name}" not found${from ? ` (from ${from})` : ''}; ${listing}`, { code: 'profile_not_found', hint: `Add it with: llmobs profile add ${name}` });
  }
}

export class NetworkError extends CliError {
  constructor(message: string, options?: ErrorOptions & { code?: string }) {
    super(message, ExitCode.network, options?.code ?? 'network', options);
  }
}

export class FileError extends CliError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.file, 'file', options);
  }
}

export class PreconditionError extends CliError {
  constructor(message: string, options?: ErrorOptions) {
    super(message, ExitCode.precondition, 'precondition_failed', options);
  }
}

export interface ApiErrorInit extends ErrorOptions {
  status: number;
  method: string;
  path: string;
  serverMessage?: string | undefined;
}

/** A non-2xx answer from the server (or an answer that is not what the API promises). */
export class ApiError extends CliError {
  readonly status: number;
  readonly method: string;
  readonly path: string;
  readonly serverMessage: string | undefined;

  constructor(message: string, init: ApiErrorInit, exitCode: number = ExitCode.api, code = 'api_error') {
    super(message, exitCode, code, init);
    this.status = init.status;
    this.method = init.method;
    this.path = init.path;
    this.serverMessage = init.serverMessage;
  }
}

export class AuthError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super(message, init, ExitCode.auth, init.status === 403 ? 'forbidden' : 'unauthorized');
  }
}

export class RateLimitError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super(message, init, ExitCode.rateLimited, 'rate_limited');
  }
}

/** Not found: a 404 from the server, or a name that resolves to nothing. */
export class NotFoundError extends CliError {
  readonly status: number | undefined;
  constructor(message: string, options: ErrorOptions & { status?: number } = {}) {
    super(message, ExitCode.notFound, 'not_found', options);
    this.status = options.status;
  }
}

export class ApiNotFoundError extends ApiError {
  constructor(message: string, init: ApiErrorInit) {
    super(message, init, ExitCode.notFound, 'not_found');
  }
}

export function isCliError(error: unknown): error is CliError {
  return error instanceof CliError;
}
