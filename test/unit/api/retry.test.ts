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

  it('takes only the three HTTP date forms; other shapes Date.parse accepts are ignored', () => {
    expect(parseRetryAfter('Mon, 23 Nov 2026 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Monday, 23-Nov-26 12:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Mon Nov 23 12:00:05 2026', now)).toBe(5000);
    for (const garbage of ['-5', ' 0 ', '1e3', '2026-11-23T12:00:05Z', 'Nov 2026', '-1.5']) {
      expect(parseRetryAfter(garbage, now), JSON.stringify(garbage)).toBe(garbage.trim() === '0' ? 0 : undefined);
    }
  });

  it('reads an endless number of seconds as a year, not Infinity', () => {
    expect(parseRetryAfter('9'.repeat(400), now)).toBe(365 * 24 * 3600 * 1000);
  });
});

describe('decideRetry with a Retry-After that is not one', () => {
  it('backs off as without one: a negative value does not mean "no wait"', () => {
    expect(decideRetry({ ...base, status: 429, retryAfter: '-5' })).toEqual({ retry: true, delayMs: backoff(0, 500, () => 0.5), reason: '429 rate limited' });
    expect(decideRetry({ ...base, status: 429, retryAfter: '9'.repeat(400) })).toMatchObject({ retry: false, waitMs: 365 * 24 * 3600 * 1000 });
    expect(decideRetry({ ...base, status: 429, bodyRetryAfterSeconds: 1e300 })).toMatchObject({ retry: false, waitMs: 365 * 24 * 3600 * 1000 });
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
