// The built binary against a server that fails on purpose: retries, timeouts, proxies' HTML pages,
// connections cut mid-body. Every case counts the attempts the server saw and checks the exit code,
// and that the secret never shows up, even with --verbose.
import { afterEach, describe, expect, it } from 'vitest';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv } from '../helpers/cli.js';
import { type FaultServer, type FaultStep, PROJECTS_BODY, startFaultServer } from '../helpers/fault-server.js';

const SECRET = 'sk-lf-11111111-2222-3333-4444-555555555555';
let server: FaultServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function against(script: (index: number) => FaultStep, args: string[]) {
  server = await startFaultServer((index) => script(index));
  const env = isolatedEnv({
    LANGFUSE_HOST: server.url,
    LANGFUSE_PUBLIC_KEY: 'pk-lf-99999999-8888-7777-6666-555555555555',
    LANGFUSE_SECRET_KEY: SECRET,
    LLMOBS_RETRY_BASE_MS: '10',
  });
  const result = await llmobs([...args, '--verbose'], { env });
  expect(result.stdout).not.toContain(SECRET);
  expect(result.stderr).not.toContain(SECRET);
  expect(result.stderr).toContain('authorization: Basic [redacted]');
  // The server did receive the credentials: the redaction is in the output only.
  expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from(`pk-lf-99999999-8888-7777-6666-555555555555:${SECRET}`).toString('base64')}`);
  return result;
}

describe('retries and failures', () => {
  it('waits for Retry-After after a 429, then succeeds', async () => {
    const result = await against(
      (i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' }, body: JSON.stringify({ message: 'Rate limit exceeded', code: 'rate_limited' }) } : { body: PROJECTS_BODY }),
      ['projects'],
    );
    expect(result.exitCode).toBe(0);
    expect(server!.requests).toHaveLength(2);
    expect(result.stderr).toContain('retry 1/3 in 1000 ms (429 rate limited)');
    expect(result.stdout).toContain('fault-project');
  });

  it('gives exit 10 when rate limited after every retry', async () => {
    const result = await against(() => ({ status: 429, body: JSON.stringify({ message: 'Rate limit exceeded', details: { retryAfterSeconds: 0 } }) }), ['projects', '--retries', '2']);
    expect(result.exitCode).toBe(10);
    expect(server!.requests).toHaveLength(3);
    expect(result.stderr).toContain('Rate limit exceeded');
  });

  it('retries a GET through two 503s', async () => {
    const result = await against((i) => (i < 2 ? { status: 503, body: JSON.stringify({ message: 'Service Unavailable' }) } : { body: PROJECTS_BODY }), ['projects']);
    expect(result.exitCode).toBe(0);
    expect(server!.requests).toHaveLength(3);
    expect(result.stderr.match(/retry \d\/3/g)).toHaveLength(2);
  });

  it('never repeats a POST after a 503', async () => {
    const result = await against(() => ({ status: 503, body: JSON.stringify({ message: 'Service Unavailable' }) }), ['api', 'POST', '/api/public/models', '-f', 'modelName=x']);
    expect(result.exitCode).toBe(5);
    expect(server!.requests).toHaveLength(1);
    expect(server!.requests[0]!.body).toBe('{"modelName":"x"}');
    expect(result.stderr).toContain('not safe to repeat');
  });

  it('exits 4 when the answer is slower than --timeout', async () => {
    const result = await against(() => ({ body: PROJECTS_BODY, delayMs: 3_000 }), ['projects', '--timeout', '300']);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain('within 300 ms');
    expect(server!.requests).toHaveLength(1);
  });

  it('reports an HTML 502 page plainly', async () => {
    const html = '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>nginx</p></body></html>';
    const result = await against(() => ({ status: 502, headers: { 'content-type': 'text/html' }, body: html }), ['projects', '--retries', '1']);
    expect(result.exitCode).toBe(5);
    expect(server!.requests).toHaveLength(2);
    expect(result.stderr).toContain('text/html: "502 Bad Gateway" instead of JSON');
    expect(result.stderr).not.toMatch(/SyntaxError|Unexpected token/);
  });

  it('retries a GET whose connection is reset mid-body, and exits 4 when it keeps happening', async () => {
    const recovered = await against((i) => (i === 0 ? { body: PROJECTS_BODY, resetMidBody: true } : { body: PROJECTS_BODY }), ['projects']);
    expect(recovered.exitCode).toBe(0);
    expect(server!.requests).toHaveLength(2);
    await server!.close();

    const failed = await against(() => ({ body: PROJECTS_BODY, resetMidBody: true }), ['projects', '--retries', '2']);
    expect(failed.exitCode).toBe(4);
    expect(server!.requests).toHaveLength(3);
  });
});
