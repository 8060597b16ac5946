// The local server's cross-cutting behaviour, as API.md section 0 describes a Langfuse server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';

let server: RunningServer;
const basic = () => `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true, bodyLimitBytes: 1024 });
});
afterAll(() => server.close());

async function call(method: string, path: string, init: { auth?: string; body?: string; chunked?: boolean } = {}) {
  // node:http rather than fetch: a GET with a body must be possible here.
  const { request } = await import('node:http');
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request(server.url + path, {
        method,
        headers: {
          ...(init.auth ? { authorization: init.auth } : {}),
          'content-type': 'application/json',
          ...(init.body ? (init.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(init.body)) }) : {}),
        },
      }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

describe('local server', () => {
  it('answers health without auth', async () => {
    expect(await call('GET', '/api/public/health')).toEqual({ status: 200, body: { status: 'OK', version: '4.35.0' } });
  });

  it('returns the project for Basic auth and for Bearer with the secret key', async () => {
    const expected = { data: [{ id: server.project.id, name: 'llmobs-local', organization: expect.any(Object), metadata: {} }] };
    expect(await call('GET', '/api/public/projects', { auth: basic() })).toEqual({ status: 200, body: expected });
    expect(await call('GET', '/api/public/projects', { auth: `Bearer ${server.keys.secretKey}` })).toEqual({ status: 200, body: expected });
  });

  it('answers auth failures as a Langfuse server does', async () => {
    expect(await call('GET', '/api/public/projects')).toEqual({ status: 401, body: { message: 'No authorization header' } });
    expect(await call('GET', '/api/public/projects', { auth: 'Token abc' })).toEqual({ status: 401, body: { message: 'Invalid authorization header' } });
    const wrong = `Basic ${Buffer.from(`${server.keys.publicKey}:sk-lf-wrong`).toString('base64')}`;
    expect(await call('GET', '/api/public/projects', { auth: wrong })).toEqual({
      status: 401,
      body: { message: "Invalid credentials. Confirm that you've configured the correct host." },
    });
    expect(await call('GET', '/api/public/projects', { auth: `Bearer ${server.keys.publicKey}` })).toEqual({
      status: 403,
      body: { message: 'Invalid API key. Are you using an organization key?' },
    });
  });

  it('answers 404 for unknown routes and 405 for unknown methods', async () => {
    const unknown = await call('GET', '/api/public/nothing-here', { auth: basic() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('LangfuseNotFoundError');
    expect(await call('DELETE', '/api/public/projects', { auth: basic() })).toEqual({ status: 405, body: { message: 'Method not allowed' } });
    expect(await call('POST', '/api/public/health')).toEqual({ status: 405, body: { message: 'Method not allowed', error: 'MethodNotAllowedError' } });
  });

  it('refuses bodies over the limit with 413 and bad JSON with 400', async () => {
    const big = await call('GET', '/api/public/health', { body: JSON.stringify({ x: 'y'.repeat(2048) }) });
    expect(big.status).toBe(413);
    expect(big.body.error).toBe('PayloadTooLargeError');
    // Without a declared length the limit applies while the body streams in.
    const streamed = await call('GET', '/api/public/health', { body: JSON.stringify({ x: 'y'.repeat(4096) }), chunked: true });
    expect(streamed.status).toBe(413);
    const bad = await call('GET', '/api/public/health', { body: '{nope' });
    expect(bad.status).toBe(400);
  });
});
