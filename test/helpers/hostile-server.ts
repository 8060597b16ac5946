// A loopback server whose every answer a test writes by hand (sizes, pages, nesting, delays), and
// the environment that points llmobs at it. Records the URL of every request.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isolatedEnv } from './cli.js';

export interface Hostile {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function serveHostile(handler: (req: IncomingMessage, res: ServerResponse, index: number) => void): Promise<Hostile> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res, requests.length - 1);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** An isolated environment with keys for `url` and retries without waits. */
export const hostileEnv = (url: string, extra: Record<string, string> = {}) =>
  isolatedEnv({ LANGFUSE_HOST: url, LANGFUSE_PUBLIC_KEY: 'pk-lf-1', LANGFUSE_SECRET_KEY: 'sk-lf-1', LLMOBS_RETRY_BASE_MS: '0', ...extra });
