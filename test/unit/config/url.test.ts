import { describe, expect, it } from 'vitest';
import { isLoopbackHost, normaliseBaseUrl } from '../../../src/config/url.js';

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
