// The built binary: `llmobs api --paginate` reads a cursor-paged listing of the real local server
// to its end (observations ingested over POST /api/public/ingestion), with --include and --jq.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs, profileEnv } from '../helpers/bin.js';

let server: RunningServer;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  // Observation events over the batch route and v2 reads: both only in dual mode.
  server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
  const batch = Array.from({ length: 12 }, (_, i) => {
    const at = new Date(Date.UTC(2026, 4, 2, 8, 0, i)).toISOString();
    return { id: `ev-${i}`, type: 'generation-create', timestamp: at, body: { id: `gen-${i}`, traceId: 'trace-1', startTime: at, name: 'answer', model: 'gpt-4o-mini' } };
  });
  const response = await fetch(`${server.url}/api/public/ingestion`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${server.keys.publicKey}:${server.keys.secretKey}`).toString('base64')}`, 'content-type': 'application/json' },
    body: JSON.stringify({ batch }),
  });
  expect(response.status).toBe(207);
  env = await profileEnv(server);
});
afterAll(() => server.close());

describe('llmobs api --paginate (built binary, local server)', () => {
  it('follows meta.cursor to the last page and prints one array', async () => {
    const result = await llmobs(['api', 'v2/observations', '-f', 'traceId=trace-1', '-f', 'limit=5', '--paginate', '--jq', '[.[].id] | sort | join(",")'], { env });
    expect([result.exitCode, result.stderr]).toEqual([0, '']);
    expect(result.stdout.trim().split(',')).toEqual(Array.from({ length: 12 }, (_, i) => `gen-${i}`).sort());
  });

  it('--include gives one status block per page before the array', async () => {
    const result = await llmobs(['api', 'v2/observations', '-f', 'traceId=trace-1', '-f', 'limit=5', '--paginate', '-i', '--jq', 'length'], { env });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.match(/^HTTP\/1\.1 200 OK$/gm)?.length).toBe(3);
    expect(result.stdout.endsWith('\n\n12\n')).toBe(true);
  });
});
