// Every failure path llmobs has, against a server that echoes the credentials back in every form
// it can, plus broken configuration and bad URLs: no form of a key may appear in any output.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secretForms } from '../../src/config/mask.js';
import { isolatedEnv, runInProcess } from '../helpers/cli.js';

const KEYS = [
  { publicKey: 'pk-lf-4b1e7a2c-0d9f-4c3a-8e6b-2f5d1a9c7e30', secretKey: 'sk-lf-7f3a9c2e-1b4d-4e8f-9a6b-5c3d2e1f0a9b' },
  // Not shaped like a Langfuse key, with characters that base64 and URL encoding change.
  { publicKey: 'pub-Xy7/+Qa', secretKey: 'Zq8~hunter2/+?&=Wv9!' },
];

/** Every form of the credentials that must never be printed. */
function forbidden(publicKey: string, secretKey: string): string[] {
  const pair = `${publicKey}:${secretKey}`;
  const b64 = Buffer.from(pair).toString('base64');
  const url = Buffer.from(pair).toString('base64url');
  const raw = [secretKey, pair, b64, b64.replace(/=+$/, ''), url, url.replace(/=+$/, ''), Buffer.from(secretKey).toString('base64'), `Basic ${b64}`];
  const forms = new Set<string>();
  for (const f of raw) {
    forms.add(f);
    forms.add(encodeURIComponent(f));
    forms.add(JSON.stringify(f).slice(1, -1));
  }
  // As hex, which servers and proxies use in debugging dumps.
  forms.add(Buffer.from(secretKey).toString('hex'));
  forms.add(Buffer.from(secretKey).toString('hex').toUpperCase());
  // The secret's own base64 at each alignment, minus the edge characters neighbours change.
  for (const core of secretForms(secretKey)) if (core.length >= 12) forms.add(core);
  return [...forms];
}

/** Sends back what it received, in every shape an error or success body can take. */
function hostile(req: IncomingMessage, res: ServerResponse): void {
  const auth = req.headers.authorization ?? '';
  const token = auth.replace(/^\w+ /, '');
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const echo = {
    message: `Invalid credentials: ${auth} (decoded ${decoded}) url-safe ${Buffer.from(decoded).toString('base64url')} hex ${Buffer.from(decoded).toString('hex')} ${Buffer.from(decoded).toString('hex').toUpperCase()}`,
    error: [{ path: [decoded], message: `encoded ${encodeURIComponent(token)} and ${encodeURIComponent(decoded)}` }],
    details: { header: auth, decoded, escaped: token.replace(/\//g, '\\/') },
  };
  const path = req.url ?? '';
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  if (path.startsWith('/api/public/health')) return json(503, { status: `down, your header was ${auth}` });
  if (path.startsWith('/api/public/projects')) return json(401, echo);
  if (path.startsWith('/api/public/models/')) return json(404, echo);
  if (path.startsWith('/api/public/models')) return json(200, { data: [{ nonsense: auth }], meta: { page: 1, limit: 50, totalItems: 1, totalPages: 1 } });
  if (path.startsWith('/api/public/v2/prompts/html')) {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end(`<html><title>Proxy error for ${auth}</title><body>${decoded} ${encodeURIComponent(token)}</body></html>`);
    return;
  }
  if (path.startsWith('/api/public/v2/prompts/rate')) return json(429, echo, { 'retry-after': '0' });
  if (path.startsWith('/api/public/v2/prompts/forbidden')) return json(403, echo);
  if (path.startsWith('/api/public/v2/prompts')) return json(400, echo);
  if (path.startsWith('/api/public/echo')) return json(200, echo);
  return json(500, echo);
}

let url = '';
const server = createServer(hostile);
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const COMMANDS: string[][] = [
  ['whoami'],
  ['projects'],
  ['health'],
  ['profile', 'test'],
  ['models', 'list'],
  ['models', 'list', '--all'],
  ['models', 'get', 'some-id'],
  ['models', 'match', 'gpt-4o'],
  ['prompts', 'get', 'x'],
  ['prompts', 'get', 'html'],
  ['prompts', 'get', 'rate'],
  ['prompts', 'get', 'forbidden'],
  ['prompts', 'list'],
  ['prompts', 'create', 'x', '--text', 'hi'],
  ['labels', 'list', 'x'],
  ['estimate', '--remote', '--model', 'gpt-4o', '--input', 'hi'],
  ['api', 'GET', 'echo'],
  ['api', 'GET', '/api/public/v2/prompts/html'],
  ['api', 'POST', 'echo', '-f', 'a=b'],
  ['api', 'GET', 'models', '--paginate'],
  ['traces', 'list'],
  ['traces', 'get', 'some-trace'],
  ['observations', 'list'],
  ['cost', 'report', '--no-cache'],
  ['cost', 'recompute'],
];

function expectClean(output: string, forms: string[], label: string): void {
  for (const form of forms) expect(output.includes(form), `${label}: printed ${JSON.stringify(form)}`).toBe(false);
}

describe('no form of a key in any output', () => {
  it.each(KEYS.map((k, i) => [i === 0 ? 'a Langfuse key pair' : 'a key of another shape', k] as const))('from a profile, against a server that echoes it (%s)', async (_label, keys) => {
    const forms = forbidden(keys.publicKey, keys.secretKey);
    const env = isolatedEnv({ LLMOBS_RETRY_BASE_MS: '0' });
    const added = await runInProcess(['profile', 'add', 'hostile', '--base-url', url, '--public-key', keys.publicKey, '--secret-key-stdin'], { env, stdin: keys.secretKey });
    expect(added.exitCode).toBe(0);
    let printed = 0;
    for (const command of COMMANDS) {
      for (const flags of [[], ['--json'], ['--verbose'], ['--json', '--verbose']]) {
        const result = await runInProcess([...flags, '--retries', '1', ...command], { env });
        const output = result.stdout + result.stderr;
        // The server's echo must have reached the output (redacted), or the test proves nothing.
        if (output.includes('[redacted]')) printed++;
        expectClean(output, forms, `${flags.join(' ')} ${command.join(' ')}`);
      }
    }
    expect(printed).toBeGreaterThan(40);
  }, 120_000);

  it('from the environment, over --base-url variants and LANGFUSE_HOST', async () => {
    const keys = KEYS[1]!;
    const forms = forbidden(keys.publicKey, keys.secretKey);
    const env = isolatedEnv({ LANGFUSE_PUBLIC_KEY: keys.publicKey, LANGFUSE_SECRET_KEY: keys.secretKey, LANGFUSE_HOST: url, LLMOBS_RETRY_BASE_MS: '0' });
    const hostPort = url.replace('http://', '');
    const variants: string[][] = [
      [],
      ['--base-url', `http://${keys.publicKey}:${encodeURIComponent(keys.secretKey)}@${hostPort}`],
      ['--base-url', `http://${hostPort}/${encodeURIComponent(keys.secretKey)}`],
      ['--base-url', `http://${hostPort}/?key=${encodeURIComponent(keys.secretKey)}`],
      ['--base-url', `ht!tp://${keys.secretKey}`],
      ['--base-url', `http://${hostPort}/sk-lf-1234abcd-5678`],
    ];
    let echoed = 0;
    for (const variant of variants) {
      for (const command of [['whoami'], ['models', 'list'], ['prompts', 'get', 'html'], ['api', 'GET', 'echo']]) {
        const result = await runInProcess(['--verbose', ...variant, ...command], { env });
        const output = result.stdout + result.stderr;
        if (output.includes('[redacted]')) echoed++;
        expectClean(output, forms, `${variant.join(' ')} ${command.join(' ')}`);
        expect(output).not.toContain('1234abcd-5678');
      }
    }
    expect(echoed).toBeGreaterThanOrEqual(4);
    const badHost = await runInProcess(['whoami'], { env: { ...env, LANGFUSE_HOST: `https://user:${keys.secretKey}@host:99999` } });
    expect(badHost.exitCode).toBe(3);
    expectClean(badHost.stdout + badHost.stderr, forms, 'LANGFUSE_HOST with a password');
  }, 120_000);

  it('from a broken config file, whatever the command', async () => {
    const keys = KEYS[0]!;
    const forms = forbidden(keys.publicKey, keys.secretKey);
    const env = isolatedEnv();
    mkdirSync(env.LLMOBS_CONFIG_DIR!, { mode: 0o700 });
    const broken = [
      `{"profiles": {"p": {"baseUrl": "${url}", "publicKey": "${keys.publicKey}", "secretKey": "${keys.secretKey}"x}}, "activeProfile": "p"}`,
      `{"profiles": {"p": {"baseUrl": "ht!tp://${keys.secretKey}", "publicKey": "${keys.publicKey}", "secretKey": "${keys.secretKey}"}}, "activeProfile": "p"}`,
      `{"profiles": {"p": {"region": "${keys.secretKey}", "publicKey": "${keys.publicKey}", "secretKey": "${keys.secretKey}"}}, "activeProfile": "p"}`,
      `{"profiles": {"p": {"baseUrl": "${url}", "publicKey": 5, "secretKey": "${keys.secretKey}"}}, "activeProfile": "p"}`,
    ];
    for (const text of broken) {
      writeFileSync(join(env.LLMOBS_CONFIG_DIR!, 'config.json'), text, { mode: 0o600 });
      for (const command of [['whoami'], ['profile', 'list'], ['profile', 'show'], ['models', 'list'], ['--verbose', '--json', 'api', 'GET', 'echo']]) {
        const result = await runInProcess(command, { env });
        expectClean(result.stdout + result.stderr, forms, `${command.join(' ')} with ${text.slice(0, 60)}`);
      }
    }
  }, 120_000);
});
