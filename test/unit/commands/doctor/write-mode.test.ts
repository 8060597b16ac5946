// doctor's write-mode check (and src/api/write-mode-probe.ts under it), against the local server
// in each mode: read from GET /api/trpc/public.traceReadConfig; behind a front that hides the web
// app's tRPC routes, inferred from the answers of GET /api/public/traces (events_only's 404 comes
// before authentication) and GET /api/public/v2/metrics (legacy's 404).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_MODES, type WriteMode } from '../../../../src/api/write-mode.js';
import { type RunningServer, startServer } from '../../../../src/server/index.js';
import { isolatedEnv, runInProcess } from '../../../helpers/cli.js';

interface Found {
  status: string;
  summary: string;
  details: string[];
}

/** A front for `target` that answers tRPC routes as a server without the procedure does. */
async function withoutTrpc(target: string): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const front: Server = createServer((req, res) => {
    seen.push(`${req.method} ${(req.url ?? '').split('?')[0]}`);
    if (req.url?.startsWith('/api/trpc/')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { json: { message: 'No procedure found on path "public.traceReadConfig"', code: -32004 } } }));
      return;
    }
    const upstream = request(target + req.url, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(front.address() as AddressInfo).port}`, seen, close: () => new Promise((resolve) => front.close(() => resolve())) };
}

async function doctor(url: string, server: RunningServer, withKey = true): Promise<Found> {
  const env = isolatedEnv({ LANGFUSE_HOST: url, ...(withKey ? { LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey } : {}) });
  const result = await runInProcess(['doctor', '--json'], { env });
  const checks = JSON.parse(result.stdout).checks as Array<Found & { id: string }>;
  return checks.find((check) => check.id === 'write-mode')!;
}

const servers = new Map<WriteMode, RunningServer>();
beforeAll(async () => {
  for (const mode of WRITE_MODES) servers.set(mode, await startServer({ port: 0, ephemeral: true, writeMode: mode }));
});
afterAll(async () => {
  await Promise.all([...servers.values()].map((server) => server.close()));
});

describe('doctor: write mode', () => {
  it('reads the mode the server reports, and says what it means', async () => {
    for (const mode of WRITE_MODES) {
      const server = servers.get(mode)!;
      const found = await doctor(server.url, server);
      expect(found).toMatchObject({ status: 'ok', summary: `${mode}: reported by the server at GET /api/trpc/public.traceReadConfig` });
      expect(found.details.length).toBeGreaterThan(0);
    }
    expect((await doctor(servers.get('events_only')!.url, servers.get('events_only')!)).details[1]).toContain('POST /api/public/ingestion takes score and log events only');
  });

  it('without that route: infers it from the answers, asking only what it must', async () => {
    const expected: Record<WriteMode, { summary: string; asked: string[] }> = {
      events_only: { summary: 'events_only: GET /api/public/traces answers the 404 of events_only mode', asked: ['GET /api/public/traces'] },
      dual: { summary: 'dual: GET /api/public/traces is not removed and GET /api/public/v2/metrics answers', asked: ['GET /api/public/traces', 'GET /api/public/v2/metrics'] },
      legacy: { summary: 'legacy: GET /api/public/v2/metrics answers that it needs a v4 write mode', asked: ['GET /api/public/traces', 'GET /api/public/v2/metrics'] },
    };
    for (const mode of WRITE_MODES) {
      const server = servers.get(mode)!;
      const front = await withoutTrpc(server.url);
      try {
        const found = await doctor(front.url, server);
        expect(found).toMatchObject({ status: 'ok', summary: expected[mode].summary });
        const probes = front.seen.filter((line) => line.startsWith('GET /api/public/traces') || line.startsWith('GET /api/public/v2/'));
        expect(probes).toEqual(expected[mode].asked);
      } finally {
        await front.close();
      }
    }
  });

  it('says when it cannot tell: no key, and the v3 routes are there', async () => {
    const server = servers.get('dual')!;
    const front = await withoutTrpc(server.url);
    try {
      const found = await doctor(front.url, server, false);
      expect(found).toMatchObject({ status: 'skip', summary: 'not known: the server does not report it, GET /api/public/traces is not removed, and without a key the v4 routes cannot be asked' });
    } finally {
      await front.close();
    }
  });
});
