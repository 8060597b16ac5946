// Error answers in the shapes a Langfuse server uses (API.md section 0.3): they are not uniform.
import { EVENTS_ONLY_REMOVED_MESSAGE } from '../../api/write-mode.js';

/** An answer other than success, thrown by handlers and the request pipeline. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** A plain-text body (the web framework's own errors) instead of JSON. */
    readonly text?: string,
  ) {
    super(text ?? (typeof (body as { message?: unknown })?.message === 'string' ? (body as { message: string }).message : `HTTP ${status}`));
  }
}

/**
 * An error of the web framework under the real routes (Next.js `sendError`): the message is the
 * status line's reason and the whole body, as plain text. Bodies over the limit and bad JSON get these.
 */
export function frameworkError(status: number, message: string): HttpError {
  return new HttpError(status, undefined, {}, message);
}

/** A thrown `BaseError` in the server: `{message, error: <class name>}`. */
export function baseError(status: number, errorClass: string, message: string): HttpError {
  return new HttpError(status, { message, error: errorClass });
}

export const notFound = (message: string) => baseError(404, 'LangfuseNotFoundError', message);
export const invalidRequest = (message: string) => baseError(400, 'InvalidRequestError', message);
export const conflict = (message: string) => baseError(409, 'LangfuseConflictError', message);

export interface Issue {
  code: string;
  path: Array<string | number>;
  message: string;
  [key: string]: unknown;
}

/** Zod validation failure of query or body. */
export function invalidRequestData(issues: Issue[]): HttpError {
  return new HttpError(400, { message: 'Invalid request data', error: issues });
}

/** The issues of a zod error, as the server's error body lists them. */
export function zodIssues(issues: ReadonlyArray<{ path: PropertyKey[] } & Record<string, unknown>>): Issue[] {
  return issues.map((issue) => ({ ...issue, path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) }) as Issue);
}

export function methodNotAllowed(withErrorClass: boolean): HttpError {
  return new HttpError(405, withErrorClass ? { message: 'Method not allowed', error: 'MethodNotAllowedError' } : { message: 'Method not allowed' });
}

/** A route the events_only write mode turns off: `{message}` alone (createAuthedProjectAPIRoute.ts). */
export function removedInEventsOnly(): HttpError {
  return new HttpError(404, { message: EVENTS_ONLY_REMOVED_MESSAGE });
}
