// Error answers in the shapes a Langfuse server uses (API.md section 0.3): they are not uniform.

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof (body as { message?: unknown })?.message === 'string' ? (body as { message: string }).message : `HTTP ${status}`);
  }
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

export function methodNotAllowed(withErrorClass: boolean): HttpError {
  return new HttpError(405, withErrorClass ? { message: 'Method not allowed', error: 'MethodNotAllowedError' } : { message: 'Method not allowed' });
}
