// A hostile server cannot make llmobs read without end: answer size, pages, nesting.
import type { IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess, tempDir } from '../../helpers/cli.js';
import { type Hostile, hostileEnv as env, serveHostile } from '../../helpers/hostile-server.js';

let current: Hostile | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

const model = (i: number) => ({
  id: `m${i}`,
  modelName: `model-${i}`,
  matchPattern: `(?i)^model-${i}$`,
  startDate: null,
  unit: 'TOKENS',
  inputPrice: null,
  outputPrice: null,
  totalPrice: null,
  tokenizerId: null,
  tokenizerConfig: null,
  isLangfuseManaged: false,
  createdAt: '2025-01-01T00:00:00.000Z',
  prices: {},
  pricingTiers: [],
});

describe('answer size', () => {
  it.each([
    ['announced by content-length', true],
    ['streamed without a length', false],
  ])('an answer over LLMOBS_MAX_RESPONSE_MB is an error of its own (exit 5), not a network error (%s)', async (_label, withLength) => {
    const chunk = Buffer.alloc(256 * 1024, 'a');
    current = await serveHostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...(withLength ? { 'content-length': String(chunk.length * 12) } : {}) });
      let sent = 0;
      const more = () => {
        while (sent < 12) {
          sent++;
          if (!res.write(chunk)) return res.once('drain', more);
        }
        res.end();
      };
      res.write('{"data": "');
      more();
    });
    const result = await runInProcess(['--json', 'api', 'GET', 'models'], { env: env(current.url, { LLMOBS_MAX_RESPONSE_MB: '1' }) });
    expect(result.exitCode).toBe(5);
    const error = JSON.parse(result.stderr).error;
    expect(error.code).toBe('response_too_large');
    expect(error.message).toContain('larger than 1 MB');
    expect(error.hint).toContain('LLMOBS_MAX_RESPONSE_MB');
  });

  it('refuses a bad LLMOBS_MAX_RESPONSE_MB before sending anything', async () => {
    current = await serveHostile((_req, res) => res.end('{}'));
    const result = await runInProcess(['api', 'GET', 'models'], { env: env(current.url, { LLMOBS_MAX_RESPONSE_MB: '1e9' }) });
    expect(result.exitCode).toBe(3);
    expect(current.requests).toEqual([]);
  });

  it('reads only the start of a huge error page, and reports it', async () => {
    current = await serveHostile((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end(`<html><title>Bad gateway</title>${'x'.repeat(5 * 1024 * 1024)}</html>`);
    });
    const result = await runInProcess(['--retries', '0', 'models', 'list'], { env: env(current.url) });
    expect(result.exitCode).toBe(5);
    expect(result.stderr).toContain('Bad gateway');
    expect(result.stderr.length).toBeLessThan(2000);
  });

  it('JSON nested without end in an answer is a bad answer (exit 5), not a crash', async () => {
    current = await serveHostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    });
    const result = await runInProcess(['--json', 'api', 'GET', 'models'], { env: env(current.url) });
    expect(result.exitCode).toBe(5);
    expect(JSON.parse(result.stderr).error.message).toContain('nested more than 512 levels');
  });
});

describe('pages', () => {
  const fullPage = (page: number, totalPages: number) => ({
    data: Array.from({ length: 100 }, (_, i) => model(page * 1000 + i)),
    meta: { page, limit: 100, totalItems: totalPages * 100, totalPages },
  });
  const pageOf = (req: IncomingMessage) => Number(new URL(req.url ?? '', 'http://x').searchParams.get('page'));

  it('stops at --max-pages when the server announces 1e10 pages, with an error and no partial list', async () => {
    current = await serveHostile((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fullPage(pageOf(req), 1e10)));
    });
    const result = await runInProcess(['--json', '--max-pages', '5', 'models', 'list', '--all'], { env: env(current.url) });
    expect(result.exitCode).toBe(5);
    expect(JSON.parse(result.stderr).error).toMatchObject({ code: 'too_many_pages', hint: expect.stringContaining('--max-pages') });
    expect(result.stdout).toBe('');
    expect(current.requests).toHaveLength(5);
  });

  it('models match (every page of the project) is bounded the same way', async () => {
    current = await serveHostile((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fullPage(pageOf(req), 1e10)));
    });
    const result = await runInProcess(['--max-pages', '3', 'models', 'match', 'model-1'], { env: env(current.url) });
    expect(result.exitCode).toBe(5);
    expect(current.requests).toHaveLength(3);
  });

  it('stops at an empty or a short page whatever totalPages says', async () => {
    for (const last of [{ data: [], meta: { page: 3, limit: 100, totalItems: 1e12, totalPages: 1e10 } }, { ...fullPage(3, 1e10), data: [model(3000)] }]) {
      current = await serveHostile((req, res) => {
        const page = pageOf(req);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(page < 3 ? fullPage(page, 1e10) : last));
      });
      const result = await runInProcess(['--json', 'models', 'list', '--all'], { env: env(current.url) });
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout).data).toHaveLength(200 + last.data.length);
      expect(current.requests).toHaveLength(3);
      await current.close();
      current = undefined;
    }
  });

  it('fails when the server ignores the page parameter and answers page 1 again', async () => {
    current = await serveHostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fullPage(1, 50)));
    });
    const result = await runInProcess(['--json', 'models', 'list', '--all'], { env: env(current.url) });
    expect(result.exitCode).toBe(5);
    expect(JSON.parse(result.stderr).error.message).toMatch(/same (items )?as page 1/);
    expect(current.requests).toHaveLength(2);
  });

  it('api --paginate follows the same rules', async () => {
    current = await serveHostile((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(fullPage(pageOf(req), 1e10)));
    });
    const result = await runInProcess(['--max-pages', '4', 'api', 'GET', 'models', '--paginate'], { env: env(current.url) });
    expect(result.exitCode).toBe(5);
    expect(current.requests).toHaveLength(4);
  });
});

describe('long lists inside an answer', () => {
  it('a page of 300,000 items or a prompt with 300,000 versions is read, not a stack overflow', async () => {
    const versions = Array.from({ length: 300_000 }, (_, i) => i + 1);
    current = await serveHostile((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      if (req.url!.startsWith('/api/public/things')) res.end(JSON.stringify({ data: Array(300_000).fill(0), meta: { page: 1, limit: 300_000, totalItems: 300_000, totalPages: 1 } }));
      else if (req.url!.startsWith('/api/public/v2/prompts?')) res.end(JSON.stringify({ data: [{ name: 'p', type: 'text', versions, labels: [], tags: [], lastUpdatedAt: '2026-01-01T00:00:00.000Z', lastConfig: {} }], meta: { page: 1, limit: 50, totalItems: 1, totalPages: 1 } }));
      else res.end(JSON.stringify({ name: 'p', version: 300_000, type: 'text', prompt: 'x', config: {}, labels: [], tags: [], commitMessage: null }));
    });
    const paginate = await runInProcess(['api', '/things', '--paginate', '--jq', 'length'], { env: env(current.url) });
    expect(paginate.stderr).toBe('');
    expect(paginate.stdout.trim()).toBe('300000');
    const cwd = tempDir();
    const pull = await runInProcess(['prompts', 'pull', '--json'], { env: env(current.url), cwd });
    expect(pull.stderr).not.toContain('unexpected error');
    expect(JSON.parse(pull.stdout).prompts).toEqual([expect.objectContaining({ name: 'p', version: 300_000, outcome: 'written' })]);
    expect(current.requests.filter((url) => url.startsWith('/api/public/v2/prompts/p?'))).toEqual(['/api/public/v2/prompts/p?version=300000&resolve=false']);
  });
});
