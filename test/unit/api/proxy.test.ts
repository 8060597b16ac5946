// Proxies as the client reads them from the environment, their passwords hidden.
import { describe, expect, it } from 'vitest';
import { noProxyMatch, proxyFor } from '../../../src/api/proxy.js';

describe('doctor on local setup', () => {

  it('reads proxies as the client uses them, and hides their passwords', () => {
    expect(proxyFor('https://cloud.langfuse.com', { HTTPS_PROXY: 'http://user:s3cret@proxy.corp:8080' })).toMatchObject({ proxy: 'http://user:***@proxy.corp:8080', variable: 'HTTPS_PROXY' });
    expect(proxyFor('https://cloud.langfuse.com', { HTTP_PROXY: 'http://proxy:3128' })).toMatchObject({ proxy: 'http://proxy:3128', variable: 'HTTP_PROXY' });
    // A token given as the user name, without a password, is hidden too.
    expect(proxyFor('https://cloud.langfuse.com', { HTTPS_PROXY: 'http://ghp_abcdef0123456789@proxy.corp:8080' }).proxy).toBe('http://***@proxy.corp:8080');
    expect(proxyFor('https://cloud.langfuse.com', { HTTPS_PROXY: 'http //ghp_abcdef0123456789@proxy' }).problem).not.toContain('ghp_');
    expect(proxyFor('https://cloud.langfuse.com', { HTTPS_PROXY: 'http://proxy:3128', NO_PROXY: '.langfuse.com' })).toMatchObject({ proxy: null, bypassedBy: 'NO_PROXY (.langfuse.com)' });
    expect(proxyFor('http://localhost:3000', { HTTPS_PROXY: 'http://proxy:3128' }).proxy).toBeNull();
    expect(proxyFor('https://cloud.langfuse.com', { HTTPS_PROXY: 'proxy.corp:8080' }).problem).toContain('$HTTPS_PROXY must be an http:// or https:// URL');
    expect(noProxyMatch('localhost, *.internal,10.0.0.1:8080', 'svc.internal', '443')).toBe('*.internal');
    expect(noProxyMatch('10.0.0.1:8080', '10.0.0.1', '443')).toBeNull();
    expect(noProxyMatch('*', 'anything', '80')).toBe('*');
  });
});
