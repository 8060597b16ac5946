// Compares the URL path we would address with the one the official SDK addresses, captured at fetch.
import { LangfuseClient } from '@langfuse/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { promptPathSegment } from '../../../../src/core/prompts/index.js';

interface Captured {
  url: URL;
  method: string;
  body: unknown;
}

function captureRequests(response: unknown): Captured[] {
  const calls: Captured[] = [];
  vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ url, method: init?.method ?? 'GET', body });
    return new Response(JSON.stringify(response), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return calls;
}

const client = () => new LangfuseClient({ publicKey: 'pk-lf-test', secretKey: 'sk-lf-test', baseUrl: 'http://127.0.0.1:9' });
const stored = { name: 'x', version: 1, labels: [], tags: [], config: {} };

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('URL path segment compared with the SDK', () => {
  it.each(['folder/sub/name', 'promptName?!+ =@#;', 'name with spaces', 'ünï/名前'])('%j', async (name) => {
    const calls = captureRequests({ ...stored, name, type: 'text', prompt: 'x' });
    await client().prompt.update({ name, version: 2, newLabels: ['production'] });
    expect(calls[0]?.method).toBe('PATCH');
    expect(calls[0]?.url.pathname).toBe(`/api/public/v2/prompts/${promptPathSegment(name)}/versions/2`);
    expect(calls[0]?.body).toStrictEqual({ newLabels: ['production'] });
  });
});
