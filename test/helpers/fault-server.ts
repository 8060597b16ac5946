// A small loopback server that misbehaves on purpose: scripted statuses, delays, HTML pages and
// connections cut in the middle of a body. Records every request it receives.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FaultStep {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  delayMs?: number;
  /** Sends the headers and part of the body, then destroys the socket. */
  resetMidBody?: boolean;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FaultServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startFaultServer(script: (index: number, request: RecordedRequest) => FaultStep): Promise<FaultServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(recorded);
      const step = script(requests.length - 1, recorded);
      const respond = () => {
        const body = step.body ?? '';
        if (step.resetMidBody) {
          res.writeHead(step.status ?? 200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body) + 1000), ...step.headers });
          res.write(body.slice(0, Math.max(1, Math.floor(body.length / 2))));
          setTimeout(() => res.socket?.destroy(), 20);
          return;
        }
        res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...step.headers });
        res.end(body);
      };
      if (step.delayMs) setTimeout(respond, step.delayMs);
      else respond();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export const PROJECTS_BODY = JSON.stringify({ data: [{ id: 'p1', name: 'fault-project', organization: { id: 'o1', name: 'org' }, metadata: {} }] });
