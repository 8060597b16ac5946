// A loopback reverse proxy in front of a real (local) server that misbehaves on cue: answers a
// request itself (a 429, a 500), cuts the connection before the request reaches the server, or
// lets the server do the work and then cuts the connection before the answer arrives.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  body: string;
}

export type FaultAction =
  | { kind: 'pass' }
  | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: string }
  /** The connection is cut before the server sees the request. */
  | { kind: 'reset-before' }
  /** The server handles the request; the connection is cut before its answer is passed on. */
  | { kind: 'reset-after' };

export interface FaultProxy {
  url: string;
  /** Every request that reached the proxy, with what was done to it (and the status of an answer passed on). */
  seen: Array<ProxiedRequest & { action: FaultAction['kind']; status?: number }>;
  close(): Promise<void>;
}

/** `target` may be a function: each request goes where it says at the time (a server swapped for another). */
export async function startFaultProxy(target: string | (() => string), decide: (request: ProxiedRequest, index: number) => FaultAction): Promise<FaultProxy> {
  const seen: FaultProxy['seen'] = [];
  const server = createServer((req, res) => {
    const upstream = new URL(typeof target === 'string' ? target : target());
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method ?? 'GET', path: req.url ?? '/', body: Buffer.concat(chunks).toString('utf8') };
      const action = decide(request, seen.length);
      const entry: FaultProxy['seen'][number] = { ...request, action: action.kind };
      seen.push(entry);
      if (action.kind === 'answer') {
        res.writeHead(action.status, { 'content-type': 'application/json', ...action.headers });
        res.end(action.body ?? JSON.stringify({ message: `injected ${action.status}` }));
        return;
      }
      if (action.kind === 'reset-before') {
        req.socket.destroy();
        return;
      }
      const forward = httpRequest(
        { host: upstream.hostname, port: upstream.port, method: request.method, path: request.path, headers: { ...req.headers, host: upstream.host } },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            if (action.kind === 'reset-after') {
              req.socket.destroy();
              return;
            }
            entry.status = answer.statusCode;
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            res.end(Buffer.concat(body));
          });
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(request.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
