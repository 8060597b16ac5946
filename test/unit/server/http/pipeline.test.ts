// The local server's cross-cutting behaviour, as a Langfuse server answers (API.md section 0, and
// the service's own code where API.md is silent: ApiAuthService, the `cors` middleware, Next.js's
// body parser): auth texts, body limits and parsing, CORS, method and route errors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../../src/server/index.js';

let server: RunningServer;
let small: RunningServer;
const basic = (secret = server.keys.secretKey) => `Basic ${Buffer.from(`${server.keys.publicKey}:${secret}`).toString('base64')}`;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
  small = await startServer({ port: 0, ephemeral: true, bodyLimitBytes: 1024 });
});
afterAll(async () => {
  await server.close();
  await small.close();
});

interface Answer {
  status: number;
  reason: string;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

async function call(method: string, path: string, init: { auth?: string; body?: string; chunked?: boolean; headers?: Record<string, string>; target?: RunningServer } = {}): Promise<Answer> {
  // node:http rather than fetch: a GET with a body, and the reason phrase, must be possible here.
  const { request } = await import('node:http');
  const target = init.target ?? server;
  return new Promise((resolve, reject) => {
    const req = request(
      target.url + path,
      {
        method,
        headers: {
          ...(init.auth ? { authorization: init.auth } : {}),
          'content-type': 'application/json',
          ...(init.body ? (init.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(init.body)) }) : {}),
          ...init.headers,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          let body: unknown;
          try {
            body = text ? JSON.parse(text) : undefined;
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, reason: res.statusMessage ?? '', headers: res.headers, text, body });
        });
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

const statusAndBody = (answer: Answer) => ({ status: answer.status, body: answer.body });

describe('authentication', () => {
  it('answers health without auth', async () => {
    expect(statusAndBody(await call('GET', '/api/public/health'))).toEqual({ status: 200, body: { status: 'OK', version: '4.35.0' } });
  });

  it('returns the project for Basic auth', async () => {
    const expected = { data: [{ id: server.project.id, name: 'llmobs-local', organization: expect.any(Object), metadata: {} }] };
    expect(statusAndBody(await call('GET', '/api/public/projects', { auth: basic() }))).toEqual({ status: 200, body: expected });
  });

  it('refuses Bearer with the secret key (401 "Invalid public key"), as Langfuse does, unless the specification\'s scheme is turned on', async () => {
    expect(statusAndBody(await call('GET', '/api/public/projects', { auth: `Bearer ${server.keys.secretKey}` }))).toEqual({
      status: 401,
      body: { message: "Invalid public key. Confirm that you've configured the correct host." },
    });
    expect((await call('GET', '/api/public/models', { auth: `Bearer ${server.keys.secretKey}` })).status).toBe(401);
    const bearer = await startServer({ port: 0, ephemeral: true, bearerSecretKey: true });
    try {
      const answer = await call('GET', '/api/public/projects', { auth: `Bearer ${bearer.keys.secretKey}`, target: bearer });
      expect(answer.status).toBe(200);
      expect(answer.body.data[0].id).toBe(bearer.project.id);
      // The public key alone still only grants score access there.
      expect((await call('GET', '/api/public/models', { auth: `Bearer ${bearer.keys.publicKey}`, target: bearer })).status).toBe(403);
    } finally {
      await bearer.close();
    }
  });

  it('answers auth failures with the texts of a Langfuse server', async () => {
    const host = ". Confirm that you've configured the correct host.";
    const cases: Array<[string | undefined, number, string]> = [
      [undefined, 401, 'No authorization header'],
      ['Token abc', 401, 'Invalid authorization header'],
      ['basic abc', 401, 'Invalid authorization header'],
      ['Basic  two-spaces', 401, `Invalid authorization header${host}`],
      [`Basic ${Buffer.from('only-a-user').toString('base64')}`, 401, `Invalid authorization header${host}`],
      ['Basic %%%', 401, `Invalid character${host}`],
      [basic('sk-lf-wrong'), 401, `Invalid credentials${host}`],
      ['Bearer pk-lf-unknown', 401, `Invalid public key${host}`],
      [`Bearer ${server.keys.publicKey}`, 403, 'Invalid API key. Are you using an organization key?'],
    ];
    for (const [auth, status, message] of cases) {
      expect(statusAndBody(await call('GET', '/api/public/projects', auth ? { auth } : {}))).toEqual({ status, body: { message } });
    }
    expect(statusAndBody(await call('GET', '/api/public/models', { auth: `Bearer ${server.keys.publicKey}` }))).toEqual({
      status: 403,
      body: { message: 'Access denied - insufficient permissions for this endpoint' },
    });
    for (const method of ['GET', 'POST']) {
      expect(statusAndBody(await call(method, '/api/public/v2/prompts', { auth: `Bearer ${server.keys.publicKey}`, body: method === 'POST' ? '{}' : undefined }))).toEqual({
        status: 403,
        body: { message: `Access denied - need to use basic auth with secret key to ${method} prompts`, error: 'ForbiddenError' },
      });
    }
  });

  it('answers POST /api/public/projects with 403: a project key cannot create projects', async () => {
    expect(statusAndBody(await call('POST', '/api/public/projects', { auth: basic(), body: '{"name":"x"}' }))).toEqual({
      status: 403,
      body: { message: 'Invalid API key. Organization-scoped API key required for this operation.' },
    });
    expect((await call('POST', '/api/public/projects', { body: '{"name":"x"}' })).status).toBe(401);
  });
});

describe('routes and methods', () => {
  it('answers 404 for unknown routes and 405 for unknown methods', async () => {
    const unknown = await call('GET', '/api/public/nothing-here', { auth: basic() });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('LangfuseNotFoundError');
    expect(statusAndBody(await call('DELETE', '/api/public/projects', { auth: basic() }))).toEqual({ status: 405, body: { message: 'Method not allowed' } });
    expect(statusAndBody(await call('POST', '/api/public/health'))).toEqual({ status: 405, body: { message: 'Method not allowed', error: 'MethodNotAllowedError' } });
  });
});

describe('CORS', () => {
  it('answers a browser preflight with 204 and the allowed origin, methods and headers, before auth', async () => {
    const preflight = await call('OPTIONS', '/api/public/v2/prompts', {
      headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.text).toBe('');
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': 'https://app.example',
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': 'authorization,content-type',
      vary: 'Origin, Access-Control-Request-Headers',
    });
    expect((await call('OPTIONS', '/api/public/projects', { headers: { origin: 'https://app.example' } })).status).toBe(204);
  });

  it('reflects the Origin on answers, errors included', async () => {
    const ok = await call('GET', '/api/public/health', { headers: { origin: 'https://app.example' } });
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example');
    expect(ok.headers.vary).toBe('Origin');
    const denied = await call('GET', '/api/public/models', { headers: { origin: 'https://app.example' } });
    expect(denied.status).toBe(401);
    expect(denied.headers['access-control-allow-origin']).toBe('https://app.example');
    expect((await call('GET', '/api/public/health')).headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('request bodies', () => {
  it('refuses bodies over the route limit with 413 as plain text, before auth', async () => {
    const big = await call('POST', '/api/public/v2/prompts', { target: small, body: JSON.stringify({ x: 'y'.repeat(2048) }) });
    expect(big).toMatchObject({ status: 413, text: 'Body exceeded 1kb limit', reason: 'Body exceeded 1kb limit' });
    // Without a declared length the limit applies while the body streams in.
    const streamed = await call('GET', '/api/public/health', { target: small, body: JSON.stringify({ x: 'y'.repeat(4096) }), chunked: true });
    expect(streamed).toMatchObject({ status: 413, text: 'Body exceeded 1kb limit' });
  });

  // Node's server under the real routes (Next.js) reads the rest of a refused body before the
  // connection goes; without that, fetch, which writes its whole body first, fails with EPIPE.
  it('lets a fetch client that is still sending its body read the 413', async () => {
    const chunk = new Uint8Array(64 * 1024).fill(120);
    for (const declared of [false, true]) {
      let sent = 0;
      // A turn of the event loop between chunks lets the answer come while the body is still sent.
      const body = new ReadableStream({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 0));
          if (sent++ < 16) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const headers = { 'content-type': 'application/json', ...(declared ? { 'content-length': String(16 * chunk.length) } : {}) };
      const answer = await fetch(`${small.url}/api/public/v2/prompts`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit);
      expect(answer.status).toBe(413);
      expect(await answer.text()).toBe('Body exceeded 1kb limit');
    }
    const whole = await fetch(`${small.url}/api/public/ingestion`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(4 * 1024 * 1024) });
    expect(whole.status).toBe(413);
  });

  it('keeps answering others while it drains a refused body, and gives up on a client that stalls', async () => {
    const { connect } = await import('node:net');
    const stalled = connect(small.port, '127.0.0.1');
    await new Promise<void>((resolve) => stalled.once('connect', () => resolve()));
    stalled.write(`POST /api/public/v2/prompts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n${'x'.repeat(2048)}`);
    try {
      expect((await call('GET', '/api/public/health', { target: small })).status).toBe(200);
    } finally {
      stalled.destroy();
    }
    // A declared length past the drain's bound is answered at once.
    const huge = connect(small.port, '127.0.0.1');
    const answer = new Promise<string>((resolve) => {
      let text = '';
      huge.on('data', (data) => (text += data));
      huge.on('close', () => resolve(text));
      huge.on('error', () => resolve(text));
    });
    huge.write(`POST /api/public/v2/prompts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${128 * 1024 * 1024}\r\n\r\n{}`);
    expect(await answer).toMatch(/^HTTP\/1\.1 413 Body exceeded 1kb limit/);
  });

  it('refuses prompt and model bodies over 1 MB, as the real routes do', async () => {
    const overOneMb = JSON.stringify({ name: 'big', prompt: 'x'.repeat(1024 * 1024) });
    const prompt = await call('POST', '/api/public/v2/prompts', { auth: basic(), body: overOneMb });
    expect(prompt).toMatchObject({ status: 413, text: 'Body exceeded 1mb limit' });
    const model = await call('POST', '/api/public/models', { auth: basic(), body: JSON.stringify({ modelName: 'big', matchPattern: 'x'.repeat(1024 * 1024), unit: 'TOKENS', inputPrice: 1 }) });
    expect(model).toMatchObject({ status: 413, text: 'Body exceeded 1mb limit' });
    expect((await call('GET', '/api/public/v2/prompts?name=big', { auth: basic() })).body.data).toEqual([]);
    // Just under the limit is accepted.
    const under = JSON.stringify({ name: 'big', prompt: 'x'.repeat(1024 * 1024 - 100) });
    expect((await call('POST', '/api/public/v2/prompts', { auth: basic(), body: under })).status).toBe(201);
  });

  it('answers bad JSON with 400 "Invalid JSON" as plain text', async () => {
    const bad = await call('POST', '/api/public/v2/prompts', { auth: basic(), body: '{nope' });
    expect(bad).toMatchObject({ status: 400, text: 'Invalid JSON', reason: 'Invalid JSON' });
  });

  it('does not read a form-encoded or text body as JSON: the body schema refuses it (400)', async () => {
    const json = JSON.stringify({ name: 'p-form', prompt: 'x' });
    for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
      const answer = await call('POST', '/api/public/v2/prompts', { auth: basic(), body: json, headers: { 'content-type': type } });
      expect(answer.status).toBe(400);
      expect(answer.body.message).toBe('Invalid request data');
    }
    expect((await call('GET', '/api/public/v2/prompts?name=p-form', { auth: basic() })).body.data).toEqual([]);
  });

  it('refuses JSON nested deeper than 512 levels with a clean 400, and later writes still work and persist', async () => {
    const deep = `{"name":"p-deep","prompt":"x","config":${'{"a":'.repeat(6000)}1${'}'.repeat(6000)}}`;
    const answer = await call('POST', '/api/public/v2/prompts', { auth: basic(), body: deep });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ message: 'JSON body is nested 6001 levels deep; at most 512 are accepted', error: 'InvalidRequestError' });
    const next = await call('POST', '/api/public/v2/prompts', { auth: basic(), body: JSON.stringify({ name: 'p-deep', prompt: 'y', config: { ok: true } }) });
    expect(next.status).toBe(201);
    expect(next.body.version).toBe(1);
  });
});

describe('memory held for request bodies', () => {
  it('the OTLP route (which reads its body itself) authenticates first: no key, no body held', async () => {
    const body = JSON.stringify({ resourceSpans: [], pad: 'x'.repeat(4096) });
    const anonymous = await call('POST', '/api/public/otel/v1/traces', { target: small, body });
    expect(statusAndBody(anonymous)).toEqual({ status: 401, body: { message: 'No authorization header' } });
    const wrong = await call('POST', '/api/public/otel/v1/traces', { target: small, body, auth: basic('sk-lf-wrong') });
    expect(wrong.status).toBe(401);
    // With the key, the body is read and its size limit applies.
    const keyed = await call('POST', '/api/public/otel/v1/traces', { target: small, body, auth: `Basic ${Buffer.from(`${small.keys.publicKey}:${small.keys.secretKey}`).toString('base64')}` });
    expect(keyed).toMatchObject({ status: 413, text: 'Body exceeded 1kb limit' });
  });

  it('bodies arriving at once share a budget: past it a request gets a 503 to retry, and the budget comes back', async () => {
    const tight = await startServer({ port: 0, ephemeral: true, maxBufferedBodyBytes: 1000 });
    const { connect } = await import('node:net');
    const auth = `Basic ${Buffer.from(`${tight.keys.publicKey}:${tight.keys.secretKey}`).toString('base64')}`;
    try {
      // One client sends 800 bytes of a 900-byte body and stops there.
      const slow = connect(tight.port, '127.0.0.1');
      await new Promise<void>((resolve) => slow.once('connect', () => resolve()));
      slow.write(`POST /api/public/ingestion HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 900\r\n\r\n${'{"batch":[],"pad":"'.padEnd(800, 'x')}`);
      const batch = JSON.stringify({ batch: [], pad: 'y'.repeat(400) });
      let busy: Answer | undefined;
      for (let i = 0; i < 50 && busy?.status !== 503; i++) busy = await call('POST', '/api/public/ingestion', { target: tight, body: batch, auth });
      expect(busy).toMatchObject({ status: 503, headers: { 'retry-after': '1' } });
      expect(busy!.body.message).toContain('too many request bodies at once');
      // The slow client gives up: what it held is given back.
      slow.destroy();
      let after: Answer | undefined;
      for (let i = 0; i < 50 && after?.status !== 207; i++) after = await call('POST', '/api/public/ingestion', { target: tight, body: batch, auth });
      expect(after?.status).toBe(207);
    } finally {
      await tight.close();
    }
  });
});
