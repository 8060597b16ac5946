// `llmobs doctor`: each check finds what it is for and says what to fix; exit 9 on a problem.
// Langfuse Cloud hosts are answered by a MockAgent (no network); the happy path runs against the
// real local server.
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { MockAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { isolatedEnv, runInProcess } from '../../helpers/cli.js';

interface DoctorJson {
  ok: boolean;
  problems: number;
  warnings: number;
  checks: Array<{ id: string; status: string; summary: string; fix: string | null; details: string[] }>;
}

const byId = (report: DoctorJson, id: string) => report.checks.find((c) => c.id === id)!;

async function addProfile(env: Record<string, string | undefined>, name: string, where: string[], secret = 'sk-lf-doctor-12345678') {
  const result = await runInProcess(['profile', 'add', name, ...where, '--public-key', 'pk-lf-doctor-12345678', '--secret-key-stdin'], { env, stdin: secret });
  expect(result.exitCode, result.stderr).toBe(0);
}

/** Langfuse Cloud as a MockAgent: each region answers the key as `accepts` says. */
function cloud(accepts: Record<string, boolean>, options: { date?: () => string } = {}) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const calls: string[] = [];
  const hosts = { eu: 'https://cloud.langfuse.com', us: 'https://us.cloud.langfuse.com', jp: 'https://jp.cloud.langfuse.com', hipaa: 'https://hipaa.cloud.langfuse.com' };
  for (const [region, origin] of Object.entries(hosts)) {
    const pool = agent.get(origin);
    pool
      .intercept({ path: '/api/public/health', method: 'GET' })
      .reply(() => {
        calls.push(`${region} health`);
        return { statusCode: 200, data: { status: 'OK', version: '3.120.0' }, responseOptions: { headers: { 'content-type': 'application/json', date: (options.date ?? (() => new Date().toUTCString()))() } } };
      })
      .persist();
    pool
      .intercept({ path: '/api/public/projects', method: 'GET' })
      .reply((): { statusCode: number; data: object; responseOptions: { headers: Record<string, string> } } => {
        calls.push(`${region} projects`);
        return accepts[region]
          ? { statusCode: 200, data: { data: [{ id: 'p-1', name: 'prod', organization: { id: 'o-1', name: 'acme' } }] }, responseOptions: { headers: { 'content-type': 'application/json' } } }
          : { statusCode: 401, data: { message: 'Invalid credentials. Confirm that you\'ve configured the correct host.', error: 'UnauthorizedError' }, responseOptions: { headers: { 'content-type': 'application/json' } } };
      })
      .persist();
  }
  return { agent, calls };
}

describe('doctor against a healthy local server', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer({ port: 0, ephemeral: true });
  });
  afterAll(() => server.close());

  it('passes every check, exits 0, and never prints the secret', async () => {
    const env = isolatedEnv();
    const result = await runInProcess(['profile', 'add', 'local', '--base-url', server.url, '--public-key', server.keys.publicKey, '--secret-key-stdin'], { env, stdin: server.keys.secretKey });
    expect(result.exitCode).toBe(0);
    const doctor = await runInProcess(['doctor', '--json'], { env });
    expect(doctor.exitCode, doctor.stdout).toBe(0);
    const report = JSON.parse(doctor.stdout) as DoctorJson;
    expect(report).toMatchObject({ ok: true, problems: 0, warnings: 0 });
    expect(report.checks.map((c) => [c.id, c.status])).toEqual([
      ['node', 'ok'],
      ['config-file', 'ok'],
      ['settings', 'ok'],
      ['proxy', 'ok'],
      ['connection', 'ok'],
      ['clock', 'ok'],
      ['version', 'ok'],
      ['credentials', 'ok'],
      ['region', 'skip'],
      ['write-mode', 'ok'],
    ]);
    expect(byId(report, 'write-mode').summary).toBe('events_only: reported by the server at GET /api/trpc/public.traceReadConfig');
    expect(byId(report, 'credentials').summary).toBe('accepted: project "llmobs-local" (' + server.project.id + ') in organization "llmobs local"');
    const text = await runInProcess(['doctor'], { env });
    expect(text.stdout).toContain('Everything looks right.');
    for (const output of [doctor.stdout, doctor.stderr, text.stdout, text.stderr]) expect(output).not.toContain(server.keys.secretKey);
  });

  it('says when nothing listens, and what to do', async () => {
    const env = isolatedEnv();
    await addProfile(env, 'gone', ['--base-url', 'http://127.0.0.1:9']);
    const doctor = await runInProcess(['doctor', '--json'], { env });
    expect(doctor.exitCode).toBe(9);
    const report = JSON.parse(doctor.stdout) as DoctorJson;
    expect(byId(report, 'connection')).toMatchObject({ status: 'fail', summary: 'nothing listens at 127.0.0.1:9 (connection refused)', fix: 'Start the server (llmobs server), or fix the port in the address.' });
    expect(byId(report, 'credentials').status).toBe('skip');
    expect(JSON.parse(doctor.stderr).error).toMatchObject({ code: 'precondition_failed', exitCode: 9 });
  });
});

describe('doctor and Langfuse Cloud', () => {
  it('finds the region a rejected key belongs to, and how to point the profile there', async () => {
    const env = isolatedEnv();
    await addProfile(env, 'prod', ['--region', 'eu']);
    const { agent, calls } = cloud({ us: true });
    const doctor = await runInProcess(['doctor', '--json'], { env, dispatcher: agent });
    expect(doctor.exitCode).toBe(9);
    const report = JSON.parse(doctor.stdout) as DoctorJson;
    expect(byId(report, 'connection').status).toBe('ok');
    expect(byId(report, 'version')).toMatchObject({ status: 'ok', summary: 'Langfuse 3.120.0: models update needs --recreate (in-place update arrived in 4.35.0)' });
    expect(byId(report, 'credentials')).toMatchObject({ status: 'fail', summary: 'https://cloud.langfuse.com rejects the key from profile "prod" (401)' });
    expect(byId(report, 'region')).toMatchObject({ status: 'fail', summary: 'the key belongs to Langfuse Cloud US (https://us.cloud.langfuse.com), not to Langfuse Cloud EU (https://cloud.langfuse.com)' });
    expect(byId(report, 'region').fix).toContain('llmobs profile add prod --force --region us');
    expect(calls.sort()).toEqual(['eu health', 'eu projects', 'hipaa projects', 'jp projects', 'us projects']);
    await agent.close();
  });

  it('sends the key nowhere else with --no-check-regions, and says when no region takes it', async () => {
    const env = isolatedEnv();
    await addProfile(env, 'prod', ['--region', 'us']);
    const quiet = cloud({});
    const report = JSON.parse((await runInProcess(['doctor', '--json', '--no-check-regions'], { env, dispatcher: quiet.agent })).stdout) as DoctorJson;
    expect(byId(report, 'region')).toMatchObject({ status: 'skip', summary: 'not checked (--no-check-regions)' });
    expect(quiet.calls.sort()).toEqual(['us health', 'us projects']);
    const none = cloud({});
    const nowhere = JSON.parse((await runInProcess(['doctor', '--json'], { env, dispatcher: none.agent })).stdout) as DoctorJson;
    expect(byId(nowhere, 'region')).toMatchObject({ status: 'fail', summary: 'no Langfuse Cloud region accepts the key' });
    await quiet.agent.close();
    await none.agent.close();
  });

  it('does not try a self-hosted server\'s key on Langfuse Cloud unless asked', async () => {
    const env = isolatedEnv();
    await addProfile(env, 'self', ['--base-url', 'https://langfuse.example.com']);
    const agent = new MockAgent();
    agent.disableNetConnect();
    const pool = agent.get('https://langfuse.example.com');
    pool.intercept({ path: '/api/public/health' }).reply(200, { status: 'OK', version: '3.1.0' }, { headers: { 'content-type': 'application/json' } }).persist();
    pool.intercept({ path: '/api/public/projects' }).reply(401, { message: 'Unauthorized' }, { headers: { 'content-type': 'application/json' } }).persist();
    const report = JSON.parse((await runInProcess(['doctor', '--json'], { env, dispatcher: agent })).stdout) as DoctorJson;
    expect(byId(report, 'region')).toMatchObject({ status: 'skip', fix: 'If the key is a Langfuse Cloud key, find its region with: llmobs doctor --check-regions' });
    // The Date header is missing here: the clock cannot be compared.
    expect(byId(report, 'clock').status).toBe('skip');
    await agent.close();
  });

  it('reports a clock far from the server\'s', async () => {
    const env = isolatedEnv();
    await addProfile(env, 'prod', ['--region', 'eu']);
    const { agent } = cloud({ eu: true }, { date: () => new Date(Date.now() - 10 * 60_000).toUTCString() });
    const report = JSON.parse((await runInProcess(['doctor', '--json'], { env, dispatcher: agent })).stdout) as DoctorJson;
    expect(byId(report, 'clock').status).toBe('fail');
    expect(byId(report, 'clock').summary).toMatch(/^this machine's clock is (9|10) min \d+ s ahead of the server's$/);
    expect(byId(report, 'region')).toMatchObject({ status: 'ok', summary: 'Langfuse Cloud EU: the key belongs here' });
    await agent.close();
  });

  it('names a host that cannot be resolved', async () => {
    const env = isolatedEnv();
    await addProfile(env, 'typo', ['--base-url', 'https://cloud.langfuse.con']);
    const agent = new MockAgent();
    agent.disableNetConnect();
    agent.get('https://cloud.langfuse.con').intercept({ path: '/api/public/health' }).replyWithError(Object.assign(new Error('getaddrinfo ENOTFOUND cloud.langfuse.con'), { code: 'ENOTFOUND' }));
    const report = JSON.parse((await runInProcess(['doctor', '--json'], { env, dispatcher: agent })).stdout) as DoctorJson;
    expect(byId(report, 'connection')).toMatchObject({ status: 'fail', summary: 'the host name cloud.langfuse.con cannot be resolved (ENOTFOUND)' });
    expect(byId(report, 'connection').fix).toContain('cloud.langfuse.com, us.cloud.langfuse.com, jp.cloud.langfuse.com, hipaa.cloud.langfuse.com');
    await agent.close();
  });
});

describe('doctor on local setup', () => {

  it('names the variables of half a key pair, and the ignored ones', async () => {
    const env = isolatedEnv({ LANGFUSE_SECRET_KEY: 'sk-lf-stray-12345678' });
    const report = JSON.parse((await runInProcess(['doctor', '--json'], { env })).stdout) as DoctorJson;
    expect(byId(report, 'settings')).toMatchObject({ status: 'fail', summary: expect.stringContaining('$LANGFUSE_SECRET_KEY is set but no public key is') });
    expect(byId(report, 'connection').status).toBe('skip');
    const ignored = isolatedEnv();
    await addProfile(ignored, 'prod', ['--region', 'eu']);
    const { agent } = cloud({ eu: true });
    const warned = JSON.parse((await runInProcess(['doctor', '--json'], { env: { ...ignored, LANGFUSE_HOST: 'http://elsewhere.example.com' }, dispatcher: agent })).stdout) as DoctorJson;
    expect(byId(warned, 'settings').status).toBe('warn');
    expect(byId(warned, 'settings').details.join()).toContain('$LANGFUSE_HOST ignored');
    expect(warned.ok).toBe(true);
    expect(byId(warned, 'settings').fix).toBe('Unset the ignored variables, or select what you mean with --profile NAME or --base-url URL.');
    // Keys in the environment win over the active profile: they are what to unset to use it.
    const overridden = JSON.parse((await runInProcess(['doctor', '--json'], { env: { ...ignored, LANGFUSE_PUBLIC_KEY: 'pk-lf-env-12345678', LANGFUSE_SECRET_KEY: 'sk-lf-env-12345678' }, dispatcher: agent })).stdout) as DoctorJson;
    expect(byId(overridden, 'settings')).toMatchObject({ status: 'warn', fix: 'To use the profile instead, unset $LANGFUSE_PUBLIC_KEY and $LANGFUSE_SECRET_KEY, or select it with --profile NAME.' });
    await agent.close();
  });

  it('blames the proxy, not the server, when the proxy cannot be reached or refuses the tunnel', async () => {
    const keys = { LANGFUSE_HOST: 'http://127.0.0.1:1', LANGFUSE_PUBLIC_KEY: 'pk-lf-doctor-12345678', LANGFUSE_SECRET_KEY: 'sk-lf-doctor-12345678' };
    // Nothing listens at the proxy's port.
    const closed = isolatedEnv({ ...keys, HTTP_PROXY: 'http://user:pw-123456@127.0.0.1:9' });
    const report = JSON.parse((await runInProcess(['doctor', '--json'], { env: closed })).stdout) as DoctorJson;
    expect(byId(report, 'connection')).toMatchObject({ status: 'fail', summary: 'nothing listens at the proxy http://user:***@127.0.0.1:9 ($HTTP_PROXY)' });
    expect(byId(report, 'connection').fix).toContain('NO_PROXY');
    const command = await runInProcess(['projects'], { env: closed });
    expect(command.exitCode).toBe(4);
    expect(command.stderr).toContain('through the proxy http://user:***@127.0.0.1:9 ($HTTP_PROXY)');
    expect(command.stderr).not.toContain('Nothing is listening at http://127.0.0.1:1');
    expect(command.stderr + JSON.stringify(report)).not.toContain('pw-123456');

    // A proxy that wants credentials.
    const proxy = createServer((_req, res) => res.writeHead(502).end());
    proxy.on('connect', (_req, socket: Socket) => socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n'));
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const strict = isolatedEnv({ ...keys, HTTP_PROXY: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
      const refused = JSON.parse((await runInProcess(['doctor', '--json'], { env: strict })).stdout) as DoctorJson;
      expect(byId(refused, 'connection').summary).toMatch(/^the proxy http:\/\/127\.0\.0\.1:\d+ \(\$HTTP_PROXY\) answered 407 to the request to connect to 127\.0\.0\.1:1$/);
      expect(byId(refused, 'connection').fix).toContain('user name and password');
      const failed = await runInProcess(['projects'], { env: strict });
      expect(failed.exitCode).toBe(4);
      expect(failed.stderr).toContain('answered 407');
    } finally {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});
