// A reverse proxy in front of a server that checks every 2xx answer (and, if asked, every request)
// that passes through it against the Langfuse contract (test/helpers/contract.ts): point a client
// (an official SDK, llmobs, fetch) at its URL and read `problems()` afterwards. Bodies that are not
// JSON (OTLP/protobuf) are not checked.
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { checkRequest, checkResponse, type ContractIssue } from './contract.js';

/** A request header that exempts one request from the request check (one refused on purpose). */
export const SKIP_REQUEST_CHECK = 'x-contract-skip-request-check';

export interface Exchange {
  method: string;
  path: string;
  status: number;
  issues: ContractIssue[];
}

export interface ContractProxy {
  url: string;
  /** Every request that passed, with what the contract says about it. */
  exchanges: Exchange[];
  /** The exchanges with issues, as "METHOD path status: where: what" lines. */
  problems(): string[];
  close(): Promise<void>;
}

function json(buffer: Buffer, headers: Record<string, string | string[] | undefined>): unknown {
  const type = String(headers['content-type'] ?? '');
  if (buffer.length === 0 || !type.includes('json')) return undefined;
  const bytes = headers['content-encoding'] === 'gzip' ? gunzipSync(buffer) : buffer;
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
}

const collect = (stream: NodeJS.ReadableStream): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });

/** `requests`: check requests too (clients of our own; official SDKs send what they send). */
export async function startContractProxy(target: string, options: { requests?: boolean } = {}): Promise<ContractProxy> {
  const exchanges: Exchange[] = [];
  const server = createServer(async (req, res) => {
    const body = await collect(req);
    const url = new URL(req.url ?? '/', target);
    const { [SKIP_REQUEST_CHECK]: _skip, ...headers } = req.headers;
    const upstream = httpRequest(url, { method: req.method, headers: { ...headers, host: url.host } }, async (answer) => {
      const answerBody = await collect(answer);
      const method = req.method ?? 'GET';
      const path = url.pathname + url.search;
      const issues: ContractIssue[] = [];
      const requestJson = json(body, req.headers);
      const jsonRequest = body.length === 0 || String(req.headers['content-type'] ?? '').includes('json');
      if (options.requests && jsonRequest && req.headers[SKIP_REQUEST_CHECK] === undefined) issues.push(...checkRequest(method, path, body.length ? requestJson : undefined));
      const status = answer.statusCode ?? 0;
      // A JSON answer is checked; so is the absence of a body where JSON was sent. (An OTLP/protobuf
      // export gets a protobuf answer, which the contract does not describe.)
      if (status >= 200 && status < 300) {
        const answerJson = json(answerBody, answer.headers);
        if (answerJson !== undefined || (answerBody.length === 0 && jsonRequest)) issues.push(...checkResponse(method, path, status, answerJson));
      }
      exchanges.push({ method, path, status, issues });
      res.writeHead(status, answer.headers);
      res.end(answerBody);
    });
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    problems: () => exchanges.flatMap((e) => e.issues.map((i) => `${e.method} ${e.path} ${e.status}: ${i.path}: ${i.message}`)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
