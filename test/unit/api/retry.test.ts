import { describe, expect, it } from 'vitest';
import { backoff, decideRetry, isIdempotent, parseRetryAfter, type RetryInput } from '../../../src/api/retry.js';

const now = new Date('2026-11-23T12:00:00Z');
const base: RetryInput = { attempt: 0, maxRetries: 3, idempotent: true, baseMs: 500, now, random: () => 0.5 };

describe('decideRetry', () => {
  it('retries 429 for any method and honours Retry-After seconds and dates', () => {
    expect(decideRetry({ ...base, status: 429, idempotent: false, retryAfter: '7' })).toEqual({ retry: true, delayMs: 7000, reason: '429 rate limited' });
    expect(decideRetry({ ...base, status: 429, retryAfter: 'Mon, 23 Nov 2026 12:00:03 GMT' })).toMatchObject({ retry: true, delayMs: 3000 });
    expect(decideRetry({ ...base, status: 429, bodyRetryAfterSeconds: 2 })).toMatchObject({ retry: true, delayMs: 2000 });
  });

  it('retries 502/503/504 and connection errors only when the request is idempotent', () => {
    for (const status of [502, 503, 504]) {
      expect(decideRetry({ ...base, status }).retry).toBe(true);
      expect(decideRetry({ ...base, status, idempotent: false })).toMatchObject({ retry: false, reason: expect.stringContaining('not safe to repeat') });
    }
    expect(decideRetry({ ...base, errorCode: 'ECONNRESET' }).retry).toBe(true);
    expect(decideRetry({ ...base, errorCode: 'ECONNRESET', idempotent: false }).retry).toBe(false);
  });

  it('never retries other statuses or unknown errors', () => {
    for (const status of [400, 401, 403, 404, 405, 409, 413, 500, 501]) expect(decideRetry({ ...base, status }).retry).toBe(false);
    expect(decideRetry({ ...base, errorCode: 'ENOTFOUND' }).retry).toBe(false);
  });

  it('stops after the last retry and when the server asks for too long a wait', () => {
    expect(decideRetry({ ...base, status: 503, attempt: 3 })).toMatchObject({ retry: false, reason: '503, no retries left' });
    expect(decideRetry({ ...base, status: 429, retryAfter: '600' })).toMatchObject({ retry: false, waitMs: 600_000 });
  });

  it('backs off exponentially with jitter, within bounds', () => {
    expect(backoff(0, 500, () => 0)).toBe(250);
    expect(backoff(0, 500, () => 1)).toBe(500);
    expect(backoff(3, 500, () => 0.5)).toBe(3000);
    expect(backoff(20, 500, () => 1)).toBe(20_000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and ignores garbage', () => {
    expect(parseRetryAfter('0', now)).toBe(0);
    expect(parseRetryAfter('1.5', now)).toBe(1500);
    expect(parseRetryAfter('Mon, 23 Nov 2026 11:59:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('isIdempotent', () => {
  it('treats label PATCHes as repeatable, other PATCHes and POSTs not', () => {
    expect(isIdempotent('GET', '/api/public/models')).toBe(true);
    expect(isIdempotent('delete', '/api/public/models/1')).toBe(true);
    expect(isIdempotent('PUT', '/api/public/models/1')).toBe(true);
    expect(isIdempotent('PATCH', '/api/public/v2/prompts/a%2Fb/versions/3')).toBe(true);
    expect(isIdempotent('PATCH', '/api/public/other')).toBe(false);
    expect(isIdempotent('POST', '/api/public/v2/prompts')).toBe(false);
  });
});
