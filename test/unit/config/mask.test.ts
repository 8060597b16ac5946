import { describe, expect, it } from 'vitest';
import { maskKey } from '../../../src/config/mask.js';
import { isLoopbackHost, normaliseBaseUrl } from '../../../src/config/url.js';

describe('maskKey', () => {
  it('keeps the prefix and the last four characters only', () => {
    expect(maskKey('sk-lf-1234567890abcdef9f3a')).toBe('sk-lf-…9f3a');
    expect(maskKey('pk-lf-1234567890abcdef1b2c')).toBe('pk-lf-…1b2c');
    expect(maskKey('custom-token-value-abcd')).toBe('cu…abcd');
    expect(maskKey('short')).toBe('…');
    expect(maskKey(undefined)).toBe('');
  });
});

describe('base URLs', () => {
  it('normalises trailing slashes and a trailing /api/public', () => {
    expect(normaliseBaseUrl('https://cloud.langfuse.com/', 'x')).toBe('https://cloud.langfuse.com');
    expect(normaliseBaseUrl('http://host:3000/langfuse/api/public', 'x')).toBe('http://host:3000/langfuse');
  });

  it('knows loopback hosts', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'app.localhost']) expect(isLoopbackHost(host)).toBe(true);
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1']) expect(isLoopbackHost(host)).toBe(false);
  });
});
