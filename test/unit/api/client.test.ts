// The client at the transport: undici MockAgent, network disabled, every interceptor used.
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';
import { useMockAgent } from '../../helpers/mock-agent.js';

const HOST = 'https://us.cloud.langfuse.com';
const PK = 'pk-lf-aaaaaaaa-bbbb-cccc-dddd-eeeeeeee1234';
const SK = 'sk-lf-aaaaaaaa-bbbb-cccc-dddd-eeeeeeee9f3a';
const agent = useMockAgent();

const env = () => isolatedEnv({ LANGFUSE_HOST: HOST, LANGFUSE_PUBLIC_KEY: PK, LANGFUSE_SECRET_KEY: SK });
const pool = () => agent().get(HOST);

describe('API errors', () => {
  it('maps 401 to exit 7 with the host, the key and the region advice', async () => {
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(401, { message: "Invalid credentials. Confirm that you've configured the correct host." });
    const result = await runInProcess(['projects'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(7);
    expect(result.stderr).toContain("401 Unauthorized from GET /api/public/projects: Invalid credentials. Confirm that you've configured the correct host.");
    expect(result.stderr).toContain(`Sent to ${HOST} (from $LANGFUSE_HOST) with $LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY`);
    expect(result.stderr).toContain('llmobs doctor (it finds the region the key belongs to)');
    expect(result.stderr).toContain('public key pk-lf-…1234');
    expect(result.stderr).toMatch(/region/);
    expect(result.stderr).not.toContain(SK);
  });

  it('a 429 asking for a wait of years or of garbage is not retried at once, and the hint reads sensibly', async () => {
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(429, { message: 'slow down' }, { headers: { 'retry-after': '9'.repeat(400) } });
    const endless = await runInProcess(['projects'], { env: env(), dispatcher: agent() });
    expect(endless.exitCode).toBe(10);
    expect(endless.stderr).toContain('Wait 365 days and try again');
    expect(endless.stderr).not.toContain('Infinity');

    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(429, { message: 'slow down' }, { headers: { 'retry-after': '-5' } }).times(2);
    const sleeps: number[] = [];
    const negative = await runInProcess(['projects', '--retries', '1'], { env: env(), dispatcher: agent(), sleeps });
    expect(negative.exitCode).toBe(10);
    expect(sleeps).toHaveLength(1);
    expect(sleeps[0]).toBeGreaterThan(0);
    expect(negative.stderr).toContain('Wait and try again');
  });

  it('a redirect is not followed (the keys stay with the chosen server), and the error names where it points', async () => {
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(302, '', { headers: { location: 'https://elsewhere.example/api/public/projects' } });
    const result = await runInProcess(['projects'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('302 Found from GET /api/public/projects: the server redirects to https://elsewhere.example/api/public/projects');
    expect(result.stderr).toContain('If https://elsewhere.example is the right server, use it as the base URL');
    expect(result.stderr).not.toContain('instead of JSON');
  });

  it('a compressed body llmobs did not ask for is named as such, not shown as bytes', async () => {
    const { gzipSync } = await import('node:zlib');
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(200, gzipSync(JSON.stringify({ data: [] })), { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    const ok = await runInProcess(['projects'], { env: env(), dispatcher: agent() });
    expect(ok.exitCode).toBe(5);
    expect(ok.stderr).toContain('a body compressed with gzip, which llmobs did not ask for');
    expect(ok.stderr).not.toContain('\\x1F');
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(500, gzipSync('oops'), { headers: { 'content-encoding': 'gzip' } });
    const failed = await runInProcess(['projects', '--retries', '0'], { env: env(), dispatcher: agent() });
    expect(failed.exitCode).toBe(5);
    expect(failed.stderr).toContain('a body compressed with gzip, which llmobs did not ask for, instead of JSON');
  });

  it('explains a 403 caused by an organization key', async () => {
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(403, { message: 'Invalid API key. Are you using an organization key?' });
    const result = await runInProcess(['whoami', '--json'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(7);
    const { error } = JSON.parse(result.stderr);
    expect(error).toMatchObject({ code: 'forbidden', status: 403, exitCode: 7 });
    expect(error.hint).toMatch(/organization-scoped key/);
  });

  it('shows the zod issues of a 400 and exits 5', async () => {
    pool()
      .intercept({ path: '/api/public/models', method: 'POST' })
      .reply(400, { message: 'Invalid request data', error: [{ code: 'invalid_type', path: ['unit'], message: 'Required' }, { code: 'custom', path: ['pricingTiers', 0, 'name'], message: 'too short' }] });
    const result = await runInProcess(['api', 'POST', 'models', '-f', 'modelName=x'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('400 Bad Request from POST /api/public/models: Invalid request data');
    expect(result.stderr).toContain('  - unit: Required');
    expect(result.stderr).toContain('  - pricingTiers.0.name: too short');
  });

  it('maps 404 to exit 8 and keeps the server message', async () => {
    pool().intercept({ path: '/api/public/models/nope', method: 'GET' }).reply(404, { message: 'No model with this id found.', error: 'LangfuseNotFoundError' });
    const result = await runInProcess(['api', 'GET', '/models/nope'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('No model with this id found.');
  });

  it('reports an answer that is not the promised shape as a clear API error', async () => {
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(200, { data: [{ id: 42 }] });
    const result = await runInProcess(['projects'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toMatch(/unexpected answer from GET \/api\/public\/projects \(200\): data\.0\.id/);
  });

  it('retries a 503 on GET with backoff and succeeds', async () => {
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(503, { message: 'Service Unavailable' }).times(2);
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(200, { data: [{ id: 'p', name: 'n' }] });
    const sleeps: number[] = [];
    const result = await runInProcess(['projects', '--json'], { env: env(), dispatcher: agent(), sleeps });
    expect(result.exitCode).toBe(0);
    expect(sleeps).toEqual([375, 750]);
    expect(JSON.parse(result.stdout)).toEqual([{ id: 'p', name: 'n' }]);
  });

  it('sends the user agent, Basic auth and JSON bodies', async () => {
    const expected = `Basic ${Buffer.from(`${PK}:${SK}`).toString('base64')}`;
    pool()
      .intercept({
        path: '/api/public/models?x=1',
        method: 'PATCH',
        headers: (headers: Record<string, string>) => headers.authorization === expected && /^llmobs\/\d+\.\d+\.\d+$/.test(headers['user-agent'] ?? ''),
        body: (body: string) => JSON.parse(body).n === 5 && JSON.parse(body).s === 'v',
      })
      .reply(200, { ok: true });
    const result = await runInProcess(['api', 'PATCH', '/models?x=1', '-F', 'n=5', '-f', 's=v'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(0);
  });

  it('refuses bad local input before sending anything', async () => {
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${dir}/bad.json`, '{"modelName": ');
    const bad = await runInProcess(['api', 'POST', 'models', '--input', 'bad.json'], { env: env(), dispatcher: agent(), cwd: dir });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json is not valid JSON/);
    const missing = await runInProcess(['api', 'POST', 'models', '--input', 'missing.json'], { env: env(), dispatcher: agent(), cwd: dir });
    expect(missing.exitCode).toBe(6);
    const method = await runInProcess(['api', 'FETCH', 'models'], { env: env(), dispatcher: agent() });
    expect(method.exitCode).toBe(2);
  });

  it('merges every page with --paginate', async () => {
    pool().intercept({ path: '/api/public/models?page=1', method: 'GET' }).reply(200, { data: [1, 2], meta: { page: 1, limit: 2, totalItems: 3, totalPages: 2 } });
    pool().intercept({ path: '/api/public/models?page=2', method: 'GET' }).reply(200, { data: [3], meta: { page: 2, limit: 2, totalItems: 3, totalPages: 2 } });
    const result = await runInProcess(['api', 'GET', 'models', '--paginate'], { env: env(), dispatcher: agent() });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([1, 2, 3]);
  });
});

describe('warnings and traces', () => {
  it('warns when credentials would go over plain http to another host, not to loopback', async () => {
    const remote = 'http://langfuse.internal.example:3000';
    agent().get(remote).intercept({ path: '/api/public/projects', method: 'GET' }).reply(200, { data: [{ id: 'p', name: 'n' }] });
    const insecure = await runInProcess(['projects'], { env: isolatedEnv({ LANGFUSE_HOST: remote, LANGFUSE_PUBLIC_KEY: PK, LANGFUSE_SECRET_KEY: SK }), dispatcher: agent() });
    expect(insecure.exitCode).toBe(0);
    expect(insecure.stderr).toContain('credentials are sent over plain http to langfuse.internal.example:3000');

    agent().get('http://localhost:3000').intercept({ path: '/api/public/projects', method: 'GET' }).reply(200, { data: [{ id: 'p', name: 'n' }] });
    const local = await runInProcess(['projects'], { env: isolatedEnv({ LANGFUSE_HOST: 'http://localhost:3000', LANGFUSE_PUBLIC_KEY: PK, LANGFUSE_SECRET_KEY: SK }), dispatcher: agent() });
    expect(local.stderr).toBe('');
  });

  it('traces with LLMOBS_DEBUG=1 as with --verbose, without the secret', async () => {
    pool().intercept({ path: '/api/public/projects', method: 'GET' }).reply(200, { data: [{ id: 'p', name: 'n' }] });
    const result = await runInProcess(['projects'], { env: { ...env(), LLMOBS_DEBUG: '1' }, dispatcher: agent() });
    expect(result.stderr).toContain(`→ GET ${HOST}/api/public/projects`);
    expect(result.stderr).toMatch(/← 200 OK \(\d+ ms, \d+ bytes\)/);
    expect(result.stderr).toContain('authorization: Basic [redacted]');
    expect(result.stderr).not.toContain(SK);
    expect(result.stderr).not.toContain(Buffer.from(`${PK}:${SK}`).toString('base64'));
  });
});
