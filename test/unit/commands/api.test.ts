// `llmobs api` against the real local server: the method rules, headers, --include, --silent,
// --curl, the %2F hint, and --paginate (on page-numbered and cursor-paged routes, and against a
// fake server for hostile paging).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodAndPath } from '../../../src/commands/api/request.js';
import { curlCommand, encodedPromptPath } from '../../../src/commands/api/render.js';
import { isolatedEnv, runInProcess } from '../../helpers/cli.js';
import { type LocalCli, localCli } from '../../helpers/local-cli.js';

let cli: LocalCli;
/** Ids of the observations of trace `t-page`, as stored. */
const ids: string[] = [];

beforeAll(async () => {
  // Spans over the batch route, paged with the v2 observations route: dual mode.
  cli = await localCli({ writeMode: 'dual' });
  await cli.seed({ name: 'team/summary', type: 'text', prompt: 'hi', labels: ['production'] });
  const batch: unknown[] = [];
  for (let i = 0; i < 25; i++) {
    const at = new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString();
    batch.push({ id: `ev-${i}`, type: 'span-create', timestamp: at, body: { id: `obs-${String(i).padStart(2, '0')}`, traceId: 't-page', startTime: at, name: 'step' } });
    ids.push(`obs-${String(i).padStart(2, '0')}`);
  }
  // Another trace's observations, which the traceId filter must keep out on every page.
  for (let i = 0; i < 5; i++) {
    const at = new Date(Date.UTC(2026, 2, 1, 11, 0, i)).toISOString();
    batch.push({ id: `ev-other-${i}`, type: 'span-create', timestamp: at, body: { id: `other-${i}`, traceId: 't-other', startTime: at, name: 'other' } });
  }
  const { publicKey, secretKey } = cli.server.keys;
  const response = await fetch(`${cli.server.url}/api/public/ingestion`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${publicKey}:${secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ batch }),
  });
  expect(response.status).toBe(207);
  expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([]);
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

// `llmobs api --paginate` on cursor-paged routes: against the real local server (observations
// ingested over POST /api/public/ingestion) and against a fake server for hostile paging.
const query = (path: string) => new URL(path, 'http://x').searchParams;

describe('llmobs api --paginate on a cursor-paged route (local server)', () => {
  it('follows meta.cursor, keeping the other query parameters, and prints one array', async () => {
    const result = await cli.run(['api', 'v2/observations', '-f', 'traceId=t-page', '-f', 'fields=core', '-f', 'limit=10', '--paginate', '--jq', '[.[].id] | sort']);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([...ids].sort());
    // 25 observations in pages of 10: three requests, each after the first with the cursor of the one before.
    expect(result.sent.map((r) => r.method)).toEqual(['GET', 'GET', 'GET']);
    const asked = result.sent.map((r) => query(r.path));
    for (const params of asked) expect([params.get('traceId'), params.get('fields'), params.get('limit')]).toEqual(['t-page', 'core', '10']);
    expect(asked[0]!.get('cursor')).toBeNull();
    expect(asked[1]!.get('cursor')).toBeTruthy();
    expect(asked[2]!.get('cursor')).toBeTruthy();
    expect(asked[2]!.get('cursor')).not.toBe(asked[1]!.get('cursor'));
  });

  it('the merged array equals the single-page listing; without a limit it reads pages of 1000', async () => {
    const paged = await cli.run(['api', 'v2/observations', '-f', 'traceId=t-page', '--paginate']);
    const single = await cli.run(['api', 'v2/observations', '-X', 'GET', '-f', 'traceId=t-page', '-f', 'limit=1000', '--jq', '.data']);
    expect(paged.exitCode).toBe(0);
    expect(JSON.parse(paged.stdout)).toEqual(JSON.parse(single.stdout));
    expect(paged.sent.map((r) => query(r.path).get('limit'))).toEqual(['1000']);
  });

  it('starts from a cursor given with -f cursor=', async () => {
    const first = await cli.run(['api', 'v2/observations', '-X', 'GET', '-f', 'traceId=t-page', '-f', 'limit=20', '--jq', '.meta.cursor']);
    const cursor = first.stdout.trim();
    const rest = await cli.run(['api', 'v2/observations', '-f', 'traceId=t-page', '-f', 'limit=20', '-f', `cursor=${cursor}`, '--paginate', '--jq', 'length']);
    expect([rest.exitCode, rest.stdout, query(rest.sent[0]!.path).get('cursor')]).toEqual([0, '5\n', cursor]);
    const two = await cli.run(['api', `v2/observations?cursor=${encodeURIComponent(cursor)}`, '-f', 'cursor=other', '--paginate']);
    expect([two.exitCode, two.sent]).toEqual([2, []]);
    expect(two.stderr).toContain('give cursor= once');
    const twoInPath = await cli.run(['api', 'v2/observations?cursor=a&cursor=b', '--paginate']);
    expect([twoInPath.exitCode, twoInPath.sent]).toEqual([2, []]);
  });

  it('--include prints every page\'s status line and headers, in order, then the array; --jq filters only the array', async () => {
    const result = await cli.run(['api', 'v2/observations', '-f', 'traceId=t-page', '-f', 'limit=10', '--paginate', '-i', '--jq', 'length']);
    expect(result.exitCode).toBe(0);
    const blocks = result.stdout.split('\n\n');
    expect(blocks.length).toBe(4);
    for (const head of blocks.slice(0, 3)) {
      expect(head.split('\n')[0]).toBe('HTTP/1.1 200 OK');
      expect(head).toMatch(/^content-type: application\/json/m);
    }
    expect(blocks[3]).toBe('25\n');
  });

  it('stops at --max-pages with an error and prints nothing', async () => {
    const result = await cli.run(['api', 'v2/observations', '-f', 'traceId=t-page', '-f', 'limit=10', '--paginate', '--max-pages', '2']);
    expect([result.exitCode, result.stdout, result.sent.length]).toEqual([5, '', 2]);
    expect(result.stderr).toContain('more than 2 pages');
    expect(result.stderr).toContain('--max-pages');
  });

  it('page-numbered listings are followed by page= as before; with --paginate, fields are query parameters', async () => {
    const result = await cli.run(['api', 'models', '-f', 'limit=50', '--paginate', '--jq', 'length']);
    const total = await cli.run(['api', 'models', '--jq', '.meta.totalItems']);
    expect(result.stdout).toBe(total.stdout);
    expect(result.sent.every((r) => r.method === 'GET' && query(r.path).get('cursor') === null && query(r.path).get('page') !== null && query(r.path).get('limit') === '50')).toBe(true);
    // -X still wins: a POST cannot be paginated.
    const post = await cli.run(['api', 'models', '-X', 'POST', '-f', 'limit=50', '--paginate']);
    expect([post.exitCode, post.sent]).toEqual([2, []]);
  });
});

// A server whose every answer comes from `answer(path, query, n)`; n counts the requests.
interface Fake {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function fakeServer(answer: (url: URL, n: number) => unknown): Promise<Fake> {
  const requests: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    const body = JSON.stringify(answer(new URL(req.url ?? '/', 'http://x'), requests.length));
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise((done) => server.close(() => done())) };
}

async function runAgainst(fake: Fake, argv: string[], env: Record<string, string> = {}) {
  return runInProcess(argv, { env: isolatedEnv({ LANGFUSE_HOST: fake.url, LANGFUSE_PUBLIC_KEY: 'pk-lf-fake', LANGFUSE_SECRET_KEY: 'sk-lf-fake-secret', ...env }) });
}

const items = (from: number, count: number) => Array.from({ length: count }, (_, i) => ({ id: `o-${from + i}` }));

describe('llmobs api --paginate against a server that pages badly', () => {
  it('a cursor handed out twice stops with an error instead of looping', async () => {
    const fake = await fakeServer((_url, n) => ({ data: items(n * 10, 10), meta: { cursor: 'the-same' } }));
    try {
      const result = await runAgainst(fake, ['api', 'v2/observations', '-f', 'limit=10', '--paginate']);
      expect([result.exitCode, result.stdout]).toEqual([5, '']);
      expect(result.stderr).toContain('a cursor it had returned before');
      expect(fake.requests.length).toBe(2);
      expect(query(fake.requests[1]!).get('cursor')).toBe('the-same');
    } finally {
      await fake.close();
    }
  });

  it('the same page under new cursors stops with an error', async () => {
    const fake = await fakeServer((_url, n) => ({ data: items(0, 10), meta: { cursor: `c-${n}` } }));
    try {
      const result = await runAgainst(fake, ['api', 'v3/scores', '-f', 'limit=10', '--paginate']);
      expect([result.exitCode, result.stdout, fake.requests.length]).toEqual([5, '', 2]);
      expect(result.stderr).toContain('the same page twice');
    } finally {
      await fake.close();
    }
  });

  it('a chain of nearly empty pages, each with a next cursor, stops after 100', async () => {
    const fake = await fakeServer((_url, n) => ({ data: items(n, 1), meta: { cursor: `c-${n}` } }));
    try {
      const result = await runAgainst(fake, ['api', 'v2/observations', '-f', 'limit=50', '--paginate']);
      expect([result.exitCode, result.stdout, fake.requests.length]).toEqual([5, '', 100]);
      expect(result.stderr).toContain('100 pages in a row with fewer than a tenth of the 50 items asked for');
    } finally {
      await fake.close();
    }
  });

  it('pages that add up to more than the listing limit stop with an error', async () => {
    // LLMOBS_MAX_RESPONSE_MB=1: answers of at most 1 MB, 8 MB for the listing; each page is ~0.6 MB.
    const big = 'x'.repeat(600 * 1024);
    const fake = await fakeServer((_url, n) => ({ data: [{ id: `o-${n}`, input: big }], meta: { cursor: `c-${n}` } }));
    try {
      const result = await runAgainst(fake, ['api', 'v2/observations', '-f', 'limit=1', '--paginate'], { LLMOBS_MAX_RESPONSE_MB: '1' });
      expect([result.exitCode, result.stdout]).toEqual([5, '']);
      expect(result.stderr).toContain('add up to more than 8 MB');
      expect(fake.requests.length).toBe(14);
    } finally {
      await fake.close();
    }
  });

  it('an unknown route answering with a cursor and no page count is followed by cursor', async () => {
    const fake = await fakeServer((url) => {
      const at = Number(url.searchParams.get('cursor') ?? 0);
      return { data: items(at, 2), meta: at < 4 ? { limit: 2, cursor: String(at + 2) } : { limit: 2 } };
    });
    try {
      const result = await runAgainst(fake, ['api', 'v9/things', '-f', 'kind=a', '--paginate', '--jq', '[.[].id]']);
      expect([result.exitCode, JSON.parse(result.stdout)]).toEqual([0, ['o-0', 'o-1', 'o-2', 'o-3', 'o-4', 'o-5']]);
      expect(fake.requests.map((r) => [query(r).get('kind'), query(r).get('cursor')])).toEqual([['a', null], ['a', '2'], ['a', '4']]);
    } finally {
      await fake.close();
    }
  });

  it('an answer without a data array is not a list; a cursor that is not a string is a bad answer', async () => {
    const fake = await fakeServer((url) => (url.pathname.endsWith('v3/scores') ? { data: items(0, 1), meta: { cursor: 42 } } : { status: 'OK' }));
    try {
      const notList = await runAgainst(fake, ['api', 'v2/observations', '--paginate']);
      expect([notList.exitCode, notList.stdout]).toEqual([2, '']);
      expect(notList.stderr).toContain('drop --paginate');
      const badCursor = await runAgainst(fake, ['api', 'v3/scores', '--paginate', '--retries', '0']);
      expect([badCursor.exitCode, badCursor.stdout]).toEqual([5, '']);
      expect(badCursor.stderr).toContain('meta.cursor');
    } finally {
      await fake.close();
    }
  });
});
