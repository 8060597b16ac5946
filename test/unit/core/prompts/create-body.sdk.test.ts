// Compares what we would send with what the official SDK sends, captured at fetch.
import { LangfuseClient } from '@langfuse/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildCreatePromptBody, type ChatItem } from '../../../../src/core/prompts/index.js';

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

/** What the server keeps of a body: it strips `type: "chatmessage"` and defaults config to {}. */
function asServerReads(body: unknown): unknown {
  const { prompt, ...rest } = body as { prompt: unknown };
  const messages = Array.isArray(prompt)
    ? prompt.map((item: Record<string, unknown>) => {
        if (item.type !== 'chatmessage') return item;
        const { type: _, ...message } = item;
        return message;
      })
    : prompt;
  return { config: {}, ...rest, prompt: messages };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('create body compared with LangfuseClient.prompt.create()', () => {
  it('chat prompt with placeholders, labels, tags, config and commit message', async () => {
    const calls = captureRequests({ ...stored, type: 'chat', prompt: [] });
    const prompt: ChatItem[] = [
      { role: 'system', content: 'You are {{persona}}' },
      { type: 'placeholder', name: 'history' },
      { role: 'user', content: '{{question}}' },
    ];
    const input = {
      name: 'folder/support',
      labels: ['production'],
      tags: ['team'],
      config: { model: 'gpt-4o' },
      commitMessage: 'first',
    };
    await client().prompt.create({ ...input, type: 'chat', prompt });
    const ours = buildCreatePromptBody({ ...input, content: { type: 'chat', prompt } });

    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.url.pathname).toBe('/api/public/v2/prompts');
    expect(asServerReads(ours)).toStrictEqual(asServerReads(calls[0]?.body));
  });

  it('text prompt with only the required fields', async () => {
    const calls = captureRequests({ ...stored, type: 'text', prompt: 'hi' });
    await client().prompt.create({ name: 'greet', prompt: 'Hello {{name}}', labels: [] });
    const ours = buildCreatePromptBody({ name: 'greet', content: { type: 'text', prompt: 'Hello {{name}}' } });
    expect(asServerReads(ours)).toStrictEqual(asServerReads(calls[0]?.body));
  });
});
