// A server whose v2 observation cursors never end: the same cursor again, a chain of pages with
// one observation each, or full pages without end. Every command that follows cursors stops
// with a clear error (exit 5) after a bounded number of requests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';
import { V4_MESSAGE } from '../../helpers/fake-data-api.js';

type Mode = 'same' | 'sparse' | 'full' | 'big';
let mode: Mode = 'same';
let requests = 0;
let server: Server;
let env: Record<string, string | undefined>;

const observation = (i: number) => ({
  id: `o${i}`,
  traceId: `t${i}`,
  startTime: new Date(Date.UTC(2026, 0, 1) - i * 1000).toISOString(),
  type: 'GENERATION',
  name: 'n',
  providedModelName: 'gpt-4o',
  usageDetails: { input: 10 },
  costDetails: { total: 0.1 },
  parentObservationId: null,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://x');
    res.setHeader('content-type', 'application/json');
    if (url.pathname !== '/api/public/v2/observations') {
      // Like a Langfuse v4 deployment: no legacy trace routes.
      res.statusCode = 404;
      res.end(JSON.stringify({ message: V4_MESSAGE }));
      return;
    }
    const at = Number(url.searchParams.get('cursor') ?? 0) || 0;
    const limit = Number(url.searchParams.get('limit') ?? 50);
    const count = mode === 'full' || mode === 'big' ? limit : 1;
    // 'big': about 600 KB a page, under the 1 MB answer limit the test sets.
    const padding = mode === 'big' ? 'x'.repeat(Math.floor(600_000 / limit)) : undefined;
    const data = Array.from({ length: count }, (_, k) => ({ ...observation(at + k), ...(padding ? { statusMessage: padding } : {}) }));
    res.end(JSON.stringify({ data, meta: { cursor: mode === 'same' ? 'again' : String(at + count) } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = isolatedEnv({ LANGFUSE_HOST: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-1' });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const commands: Array<[string, string[]]> = [
  ['observations list --all', ['observations', 'list', '--all']],
  ['observations export', ['observations', 'export', '--output', 'out.jsonl']],
  ['traces get', ['traces', 'get', 't1']],
  ['traces list (from observations)', ['traces', 'list', '--name', 'none-such', '--all']],
  ['cost recompute', ['cost', 'recompute', '--offline']],
];

describe.each(commands)('%s', (_, args) => {
  it('stops at a cursor given twice', async () => {
    mode = 'same';
    requests = 0;
    const result = await runInProcess(args, { env, cwd: tempDir() });
    expect(result.exitCode, result.stderr).toBe(5);
    expect(result.stderr).toContain('the server returned a cursor it had returned before');
    expect(requests).toBeLessThan(10);
  });

  it('stops at a chain of pages of one observation each', async () => {
    mode = 'sparse';
    requests = 0;
    const result = await runInProcess(args, { env, cwd: tempDir() });
    expect(result.exitCode, result.stderr).toBe(5);
    expect(result.stderr).toContain('100 pages in a row with fewer than a tenth of the');
    expect(requests).toBeLessThan(110);
  });
});

describe.each(commands.filter(([name]) => name !== 'observations export'))('%s with full pages without end', (_, args) => {
  it('stops at --max-pages', async () => {
    mode = 'full';
    requests = 0;
    const result = await runInProcess(['--max-pages', '3', ...args], { env, cwd: tempDir() });
    expect(result.exitCode, result.stderr).toBe(5);
    expect(result.stderr).toContain('more than 3 pages');
    expect(requests).toBeLessThan(10);
  });
});

describe('pages kept in memory', () => {
  it.each([
    ['observations list --all', ['observations', 'list', '--all']],
    ['observations list --all --json', ['observations', 'list', '--all', '--json']],
    ['traces get', ['traces', 'get', 't1']],
    ['traces list (from observations)', ['traces', 'list', '--name', 'none-such', '--all']],
  ])('%s stops when they add up to more than the listing limit', async (_, args) => {
    mode = 'big';
    requests = 0;
    const result = await runInProcess(args, { env: { ...env, LLMOBS_MAX_RESPONSE_MB: '1' }, cwd: tempDir() });
    expect(result.exitCode, result.stderr).toBe(5);
    expect(result.stderr).toContain('add up to more than 8 MB (the limit for one listing)');
    expect(requests).toBeLessThan(20);
  });

  it('observations list --format writes them as they come, with no such limit', async () => {
    mode = 'big';
    const result = await runInProcess(['observations', 'list', '--limit', '20000', '--format', 'jsonl', '--output', 'out.jsonl'], { env: { ...env, LLMOBS_MAX_RESPONSE_MB: '1' }, cwd: tempDir() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain('20,000 observations written');
  });
});
