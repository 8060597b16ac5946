import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv } from '../helpers/cli.js';
import { startProxy } from '../helpers/proxy.js';

let server: RunningServer;
let proxy: Awaited<ReturnType<typeof startProxy>>;

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
  proxy = await startProxy();
});
afterAll(async () => {
  await proxy.close();
  await server.close();
});

it('sends requests through HTTP_PROXY, and straight to hosts listed in NO_PROXY', async () => {
  const keys = { LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey };
  const proxied = await llmobs(['whoami', '--json'], { env: isolatedEnv({ ...keys, HTTP_PROXY: proxy.url }) });
  expect(proxied.exitCode).toBe(0);
  const host = new URL(server.url).host;
  expect(proxy.seen.some((line) => line.includes(host))).toBe(true);

  const before = proxy.seen.length;
  const direct = await llmobs(['whoami', '--json'], { env: isolatedEnv({ ...keys, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }) });
  expect(direct.exitCode).toBe(0);
  expect(proxy.seen.length).toBe(before);
});
