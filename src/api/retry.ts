// When to retry a request and how long to wait. Pure, so every branch is unit-tested.

export const RETRYABLE_STATUS = new Set([502, 503, 504]);

/** Socket-level failures where trying again can help. */
export const RETRYABLE_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/** Waits longer than this are not worth blocking a terminal or a pipeline for. */
export const MAX_RETRY_WAIT_MS = 120_000;
const MAX_BACKOFF_MS = 20_000;

export interface RetryInput {
  /** Retries already made (0 before the first retry). */
  attempt: number;
  maxRetries: number;
  idempotent: boolean;
  status?: number | undefined;
  errorCode?: string | undefined;
  retryAfter?: string | undefined;
  /** `details.retryAfterSeconds` from a Langfuse 429 body. */
  bodyRetryAfterSeconds?: number | undefined;
  baseMs: number;
  now: Date;
  random: () => number;
}

export type RetryDecision =
  | { retry: true; delayMs: number; reason: string }
  | { retry: false; reason?: string; waitMs?: number };

export function decideRetry(input: RetryInput): RetryDecision {
  const { status, errorCode } = input;
  let reason: string;
  if (status === 429) {
    reason = '429 rate limited';
  } else if (status !== undefined && RETRYABLE_STATUS.has(status)) {
    if (!input.idempotent) return { retry: false, reason: `${status} on a request that is not safe to repeat` };
    reason = `${status}`;
  } else if (status === undefined && errorCode !== undefined && RETRYABLE_ERROR_CODES.has(errorCode)) {
    if (!input.idempotent) return { retry: false, reason: `${errorCode} on a request that is not safe to repeat` };
    reason = errorCode;
  } else {
    return { retry: false };
  }

  const serverWait = parseRetryAfter(input.retryAfter, input.now) ?? secondsToMs(input.bodyRetryAfterSeconds);
  if (input.attempt >= input.maxRetries) return { retry: false, reason: `${reason}, no retries left`, waitMs: serverWait };
  if (serverWait !== undefined && serverWait > MAX_RETRY_WAIT_MS) {
    return { retry: false, reason: `${reason}, server asks to wait ${Math.ceil(serverWait / 1000)} s`, waitMs: serverWait };
  }
  const delayMs = serverWait ?? backoff(input.attempt, input.baseMs, input.random);
  return { retry: true, delayMs, reason };
}

/** Exponential backoff with equal jitter: half fixed, half random, so retries spread out. */
export function backoff(attempt: number, baseMs: number, random: () => number): number {
  const ceiling = Math.min(MAX_BACKOFF_MS, baseMs * 2 ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

// The three forms of an HTTP date (RFC 9110 section 5.6.7): IMF-fixdate, RFC 850 and asctime.
// Date.parse alone takes far more ("-5", " 0" and "1" are dates to it, in the past: no wait).
const HTTP_DATE = [
  /^[A-Za-z]{3},\s+\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}:\d{2}\s+GMT$/,
  /^[A-Za-z]{6,9},\s+\d{1,2}-[A-Za-z]{3}-\d{2}\s+\d{2}:\d{2}:\d{2}\s+GMT$/,
  /^[A-Za-z]{3}\s+[A-Za-z]{3}\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\d{4}$/,
];

/** Longer than any wait worth naming (a year): a larger or endless value is read as this. */
const LONGEST_WAIT_MS = 365 * 24 * 3600 * 1000;

/**
 * `Retry-After` is either delta-seconds or an HTTP date; anything else (negative numbers, other
 * date shapes) is ignored, so the usual backoff applies rather than no wait at all.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.min(LONGEST_WAIT_MS, Math.round(Number(trimmed) * 1000));
  if (!HTTP_DATE.some((form) => form.test(trimmed))) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.min(LONGEST_WAIT_MS, Math.max(0, date - now.getTime()));
}

function secondsToMs(seconds: number | undefined): number | undefined {
  return seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? Math.min(LONGEST_WAIT_MS, Math.round(seconds * 1000)) : undefined;
}

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** PATCH of a prompt version only adds labels: repeating it gives the same result. */
const LABEL_PATCH = /^\/api\/public\/v2\/prompts\/[^/]+\/versions\/\d+$/;

export function isIdempotent(method: string, path: string): boolean {
  const upper = method.toUpperCase();
  if (IDEMPOTENT_METHODS.has(upper)) return true;
  return upper === 'PATCH' && LABEL_PATCH.test(path.split('?')[0] ?? '');
}
