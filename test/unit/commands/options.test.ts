// Numeric options, global and a command's own, are refused with their range before anything is sent.
import { afterEach, describe, expect, it } from 'vitest';
import { runInProcess } from '../../helpers/cli.js';
import { type Hostile, hostileEnv as env, serveHostile } from '../../helpers/hostile-server.js';

let current: Hostile | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('numeric options', () => {
  it.each([
    [['--timeout', '2147483648', 'health'], '--timeout must be a whole number from 1 to 3,600,000'],
    [['--timeout', '0', 'health'], '--timeout must be a whole number from 1 to 3,600,000'],
    [['--timeout', '1e3', 'health'], '--timeout must be a whole number from 1 to 3,600,000'],
    [['--timeout', '3600001', 'health'], '--timeout must be a whole number from 1 to 3,600,000'],
    [['--retries', '21', 'health'], '--retries must be a whole number from 0 to 20'],
    [['--retries', '-1', 'health'], '--retries must be a whole number from 0 to 20'],
    [['--max-pages', '0', 'health'], '--max-pages must be a whole number from 1 to 1,000,000'],
    [['models', 'list', '--page', '99999999999'], '--page: must be a whole number from 1 to 2,147,483,647'],
    [['models', 'list', '--limit', '0x10'], '--limit: must be a whole number from 1 to 2,147,483,647'],
    [['models', 'list', '--page', '1', '--limit', '101'], 'with --page, --limit is the page size: at most 100'],
    [['prompts', 'list', '--limit', '1.5'], '--limit: must be a whole number'],
    [['prompts', 'versions', 'x', '--limit', '1e400'], '--limit: must be a whole number'],
    [['prompts', 'get', 'x', '--version', '2147483648'], 'from 1 to 2,147,483,647'],
    [['prompts', 'diff', 'x', '1', '2', '--context', '99999999'], '--context: must be a whole number from 0 to 100,000'],
  ])('%j is refused with its range before anything is sent', async (args, message) => {
    current = await serveHostile((_req, res) => res.end('{}'));
    const result = await runInProcess(args, { env: env(current.url) });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(message);
    expect(current.requests).toEqual([]);
  });

  it('accepts a --timeout above undici\'s 300 s default', async () => {
    current = await serveHostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 'OK', version: '3.0.0' }));
    });
    const result = await runInProcess(['--timeout', '600000', 'health'], { env: env(current.url) });
    expect(result.exitCode).toBe(0);
  });
});
