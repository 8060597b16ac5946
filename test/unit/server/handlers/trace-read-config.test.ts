// GET /api/trpc/public.traceReadConfig: the write mode, without a key, in the answer of Langfuse's
// tRPC procedure (web/src/server/api/routers/public.ts, superjson transformer).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_MODES } from '../../../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';

let servers: RunningServer[];
beforeAll(async () => {
  servers = await Promise.all(WRITE_MODES.map((writeMode) => startServer({ port: 0, ephemeral: true, writeMode })));
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

describe('GET /api/trpc/public.traceReadConfig', () => {
  it('reports each mode, alone or as a batch of one', async () => {
    for (const [i, mode] of WRITE_MODES.entries()) {
      const single = await fetch(`${servers[i]!.url}/api/trpc/public.traceReadConfig`);
      expect([single.status, await single.json()]).toEqual([200, { result: { data: { json: { v4WriteMode: mode } } } }]);
      const batch = await fetch(`${servers[i]!.url}/api/trpc/public.traceReadConfig?batch=1&input=%7B%7D`);
      expect(await batch.json()).toEqual([{ result: { data: { json: { v4WriteMode: mode } } } }]);
    }
  });

  it('starts with the mode asked for, events_only by default, and refuses an unknown one', async () => {
    expect(servers.map((server) => server.writeMode)).toEqual(['legacy', 'dual', 'events_only']);
    const plain = await startServer({ port: 0, ephemeral: true });
    expect(plain.writeMode).toBe('events_only');
    await plain.close();
    await expect(startServer({ port: 0, ephemeral: true, writeMode: 'v4' as never })).rejects.toThrow('unknown write mode "v4": use one of legacy, dual, events_only');
  });
});
