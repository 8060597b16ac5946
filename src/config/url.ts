import { ConfigError } from '../errors.js';
import { redactKeyShapes } from './mask.js';

/** A URL as typed, fit to print: no user name or password, nothing shaped like a secret key. */
export function displayUrl(raw: string): string {
  return redactKeyShapes(raw.replace(/^([a-z][a-z0-9+.-]*:\/*)[^/?#]*@/i, '$1[credentials]@'));
}

/**
 * Validates and normalises a server base URL: http(s) only, no credentials in it, no trailing
 * slash, and a trailing `/api/public` dropped (every path llmobs sends already starts with it).
 */
export function normaliseBaseUrl(raw: string, source: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`invalid base URL ${JSON.stringify(displayUrl(raw))} (from ${source})`, {
      hint: 'Use the server address, e.g. https://cloud.langfuse.com or http://localhost:3000.',
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`base URL must use http or https, got ${url.protocol} (from ${source})`);
  }
  if (url.username || url.password) {
    throw new ConfigError(`base URL must not contain credentials (from ${source})`, {
      hint: 'Put keys in a profile (llmobs profile add) or in LANGFUSE_PUBLIC_KEY / LANGFUSE_SECRET_KEY.',
    });
  }
  if (url.search || url.hash) {
    throw new ConfigError(`base URL must not have a query or fragment (from ${source})`);
  }
  if (/sk-lf-/i.test(safeDecode(url.pathname))) {
    throw new ConfigError(`base URL holds what looks like a secret key (from ${source})`, {
      hint: 'The key must not travel in the address. Put keys in a profile (llmobs profile add) or in LANGFUSE_SECRET_KEY.',
    });
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/api\/public$/, '');
  return `${url.protocol}//${url.host}${path}`;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
