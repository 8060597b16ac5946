// `llmobs api` against the real local server: the method rules, headers, --include, --silent,
// --curl and the %2F hint.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodAndPath } from '../../../src/commands/api/request.js';
import { curlCommand, encodedPromptPath } from '../../../src/commands/api/render.js';
import { isolatedEnv, runInProcess } from '../../helpers/cli.js';
import { type LocalCli, localCli } from '../../helpers/local-cli.js';

let cli: LocalCli;
beforeAll(async () => {
  cli = await localCli();
  await cli.seed({ name: 'team/summary', type: 'text', prompt: 'hi', labels: ['production'] });
});
afterAll(() => cli.close());

describe('llmobs api', () => {
  it('GETs a path given alone; the old METHOD PATH form still works', async () => {
    const alone = await cli.run(['api', '/api/public/models', '--jq', '.meta.page']);
    expect([alone.exitCode, alone.stdout, alone.sent.map((r) => `${r.method} ${r.path}`)]).toEqual([0, '1\n', ['GET /api/public/models']]);
    const old = await cli.run(['api', 'GET', 'models', '-f', 'limit=1', '--jq', '.data | length']);
    expect([old.stdout, old.sent[0]!.path]).toEqual(['1\n', '/api/public/models?limit=1']);
  });

  it('POSTs when fields are given, unless -X says otherwise', async () => {
    const created = await cli.run(['api', 'v2/prompts', '-f', 'name=new/one', '-f', 'type=text', '-f', 'prompt=hello', '--jq', '.version']);
    expect([created.exitCode, created.stdout]).toEqual([0, '1\n']);
    expect(created.sent[0]).toMatchObject({ method: 'POST', path: '/api/public/v2/prompts', body: { name: 'new/one', type: 'text', prompt: 'hello' } });
    const get = await cli.run(['api', 'models', '-X', 'get', '-f', 'limit=2', '--jq', '.data | length']);
    expect([get.stdout, get.sent[0]!.method, get.sent[0]!.path]).toEqual(['2\n', 'GET', '/api/public/models?limit=2']);
  });

  it('refuses two different methods, or a method without a path, before sending', async () => {
    for (const args of [['GET', 'models', '-X', 'POST'], ['GET'], ['models', '--paginate', '--curl']]) {
      const result = await cli.run(['api', ...args]);
      expect([result.exitCode, result.sent], args.join(' ')).toEqual([2, []]);
    }
    expect(() => methodAndPath('get', undefined, undefined)).toThrow('"get" is a method: the endpoint path is missing');
    expect(methodAndPath('GET', 'models', 'get')).toEqual({ method: 'GET', path: 'models' });
  });

  it('-H adds headers; a credential header is never printed, even with --verbose', async () => {
    const result = await cli.run(['api', 'health', '-H', 'X-Request-Id: abc-1', '-H', 'X-Api-Token: tok-987654321', '--verbose', '--silent']);
    expect(result.exitCode).toBe(0);
    expect(result.sent[0]!.headers).toMatchObject({ 'x-request-id': 'abc-1', 'x-api-token': 'tok-987654321' });
    expect(result.stderr).toContain('x-request-id: abc-1');
    expect(result.stderr).not.toContain('tok-987654321');
    expect(result.stdout).toBe('');
    const bad = await cli.run(['api', 'health', '-H', 'no colon here']);
    expect([bad.exitCode, bad.sent]).toEqual([2, []]);
  });

  it('-i prints the status line and headers, then the body; --jq filters only the body', async () => {
    const result = await cli.run(['api', 'health', '-i', '--jq', '.status']);
    const [head, body] = result.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(body).toBe('OK\n');
  });

  it('--curl prints the request as curl with the credentials as variables, and sends nothing', async () => {
    const result = await cli.run(['api', 'PATCH', 'v2/prompts/team%2Fsummary/versions/1', '-F', 'newLabels=["staging"]', '-H', 'Authorization: Basic c2VjcmV0LXZhbHVl', '--curl']);
    expect([result.exitCode, result.sent]).toEqual([0, []]);
    expect(result.stdout).toBe(
      `curl --request PATCH ${cli.server.url}/api/public/v2/prompts/team%2Fsummary/versions/1 --header 'accept: application/json' --header 'content-type: application/json' --header 'authorization: <redacted>' --data '{"newLabels":["staging"]}'\n`,
    );
    const plain = await cli.run(['api', 'models', '-X', 'GET', '-f', 'limit=1', '--curl']);
    expect(plain.stdout).toBe(`curl --request GET '${cli.server.url}/api/public/models?limit=1' --user "$LANGFUSE_PUBLIC_KEY:$LANGFUSE_SECRET_KEY" --header 'accept: application/json'\n`);
    expect(plain.stdout + plain.stderr).not.toContain(cli.server.keys.secretKey);
    expect(plain.stderr).toContain('Nothing was sent');
  });

  it('on a 404 for a prompt name written with "/", says to write %2F', async () => {
    // Not through cli.run: that checks every request against the API contract, and this path is not in it.
    const env = isolatedEnv({ LANGFUSE_HOST: cli.server.url, LANGFUSE_PUBLIC_KEY: cli.server.keys.publicKey, LANGFUSE_SECRET_KEY: cli.server.keys.secretKey });
    const result = await runInProcess(['api', 'v2/prompts/team/summary'], { env });
    expect(result.exitCode).toBe(8);
    expect(result.stderr).toContain('write "/" in it as %2F, e.g. llmobs api /api/public/v2/prompts/team%2Fsummary');
    const ok = await cli.run(['api', 'v2/prompts/team%2Fsummary', '--jq', '.name']);
    expect(ok.stdout).toBe('team/summary\n');
    expect(encodedPromptPath('/api/public/v2/prompts/a/b/c/versions/3')).toBe('/api/public/v2/prompts/a%2Fb%2Fc/versions/3');
    expect(encodedPromptPath('/api/public/v2/prompts/plain')).toBeUndefined();
  });

  it('--paginate merges every page into one array', async () => {
    const result = await cli.run(['api', 'models', '-X', 'GET', '-f', 'limit=50', '--paginate', '--jq', 'length']);
    const total = await cli.run(['api', 'models', '--jq', '.meta.totalItems']);
    expect(result.stdout).toBe(total.stdout);
    expect(result.sent.length).toBe(Math.ceil(Number(total.stdout) / 50));
  });

  it('curlCommand quotes what the shell would change', () => {
    const client = { url: (path: string) => `http://h${path}?a=1&b=2`, config: { auth: { type: 'bearer', apiKey: 'k' } } } as never;
    expect(curlCommand(client, 'POST', '/x', {}, { text: "it's" }, {})).toBe(
      `curl --request POST 'http://h/x?a=1&b=2' --header "Authorization: Bearer $LLMOBS_API_KEY" --header 'accept: application/json' --header 'content-type: application/json' --data '{"text":"it'\\''s"}'`,
    );
  });
});
