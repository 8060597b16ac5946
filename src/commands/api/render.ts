// What llmobs api prints besides the answer: the status line and headers (--include), and the
// request as a curl command (--curl) with the credentials left to environment variables; and the
// path a prompt name with a "/" needs.
import { STATUS_CODES } from 'node:http';
import type { ApiClient, Query } from '../../api/client.js';
import { isCredentialHeader } from './request.js';
import { shellQuote } from '../../core/shell-quote.js';

export function statusAndHeaders(status: number, headers: Record<string, string | string[] | undefined>): string {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`.trimEnd()];
  for (const [name, value] of Object.entries(headers)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) lines.push(`${name}: ${item}`);
  }
  return `${lines.join('\n')}\n\n`;
}

/**
 * The request as a curl command. Credentials are never printed: they come from the environment
 * variables llmobs reads too, so the command runs as it is where those are set.
 */
export function curlCommand(client: ApiClient, verb: string, path: string, query: Query, body: unknown, headers: Record<string, string>): string {
  const parts = ['curl', '--request', verb, shellQuote(client.url(path, query))];
  const auth = client.config.auth;
  const own = new Set(Object.keys(headers));
  if (!own.has('authorization')) {
    if (auth.type === 'basic') parts.push('--user', '"$LANGFUSE_PUBLIC_KEY:$LANGFUSE_SECRET_KEY"');
    if (auth.type === 'bearer') parts.push('--header', '"Authorization: Bearer $LLMOBS_API_KEY"');
  }
  parts.push('--header', shellQuote('accept: application/json'));
  if (body !== undefined) parts.push('--header', shellQuote('content-type: application/json'));
  for (const [name, value] of Object.entries(headers)) parts.push('--header', shellQuote(`${name}: ${isCredentialHeader(name) ? '<redacted>' : value}`));
  if (body !== undefined) parts.push('--data', shellQuote(JSON.stringify(body)));
  return parts.join(' ');
}

export function curlHint(client: ApiClient): string {
  const auth = client.config.auth;
  if (auth.type === 'basic') return 'Nothing was sent. The keys are not printed: set LANGFUSE_PUBLIC_KEY and LANGFUSE_SECRET_KEY before running it.';
  if (auth.type === 'bearer') return 'Nothing was sent. The key is not printed: set LLMOBS_API_KEY before running it.';
  return 'Nothing was sent.';
}

/** For a 404 on a prompt path whose name was written with a plain "/": the same path with %2F. */
export function encodedPromptPath(path: string): string | undefined {
  const match = /^\/api\/public\/v2\/prompts\/(.+?)(\/versions\/[^/]+)?$/.exec(path);
  if (!match?.[1] || !match[1].includes('/')) return undefined;
  return `/api/public/v2/prompts/${match[1].split('/').join('%2F')}${match[2] ?? ''}`;
}
