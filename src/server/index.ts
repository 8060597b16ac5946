// A local Langfuse-compatible API server on node:http, for trying llmobs without an account,
// for tests, and for rehearsing CI pipelines. `startServer({ port: 0, ephemeral: true })` is the
// programmatic entry used by the test suite.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { UsageError } from '../errors.js';
import { VERSION } from '../version.js';
import { authenticate } from './auth.js';
import { HttpError, methodNotAllowed } from './errors.js';
import { API_VERSION, healthRoutes } from './handlers/health.js';
import { modelRoutes } from './handlers/models.js';
import { projectRoutes } from './handlers/projects.js';
import { promptRoutes } from './handlers/prompts.js';
import { type HandlerContext, matchRoute, type Route, type ServerReply } from './router.js';
import { DataStore, recordLockUrl } from './store.js';

export const DEFAULT_BODY_LIMIT = 4.5 * 1024 * 1024;

export const ROUTES: Route[] = [...healthRoutes, ...projectRoutes, ...modelRoutes, ...promptRoutes];

export interface ServerOptions {
  port?: number;
  host?: string;
  /** Where state and keys are kept; ignored with `ephemeral`. Required unless ephemeral. */
  dataDir?: string | undefined;
  ephemeral?: boolean;
  /** One line per request. */
  log?: (line: string) => void;
  now?: () => Date;
  bodyLimitBytes?: number;
  /**
   * The Langfuse version to behave as (default: the newest this server implements). An older one
   * turns off what came later, e.g. "4.16.0" has no PUT /api/public/models/{id}.
   */
  apiVersion?: string;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  keys: { publicKey: string; secretKey: string };
  project: { id: string; name: string };
  dataDir: string | undefined;
  /** True when this start created the project and its keys. */
  created: boolean;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const now = options.now ?? (() => new Date());
  if (!options.ephemeral && !options.dataDir) throw new UsageError('startServer needs a dataDir unless ephemeral');
  const { store, created } = DataStore.open({ dataDir: options.ephemeral ? undefined : options.dataDir, now });
  const context: HandlerContext = { store, now, apiVersion: options.apiVersion ?? API_VERSION };
  const limit = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT;
  const log = options.log;

  const server = createServer((req, res) => {
    const started = performance.now();
    handle(req, res, context, limit)
      .catch((error: unknown) => {
        log?.(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        send(res, { status: 500, body: { message: 'Internal Server Error', error: error instanceof Error ? error.message : String(error) } });
      })
      .finally(() => {
        log?.(`${req.method} ${req.url} ${res.statusCode} ${Math.round(performance.now() - started)}ms`);
      });
  });
  server.keepAliveTimeout = 5_000;

  const host = options.host ?? '127.0.0.1';
  try {
    await listen(server, options.port ?? 3000, host);
  } catch (error) {
    await store.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (store.dataDir) recordLockUrl(store.dataDir, url);
  const key = store.state.apiKeys[0]!;

  let closing: Promise<void> | undefined;
  return {
    url,
    host,
    port,
    keys: { publicKey: key.publicKey, secretKey: key.secretKey },
    project: { id: store.state.project.id, name: store.state.project.name },
    dataDir: store.dataDir,
    created,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => store.close());
      return closing;
    },
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off('listening', onListening);
      if (error.code === 'EADDRINUSE') reject(new UsageError(`port ${port} on ${host} is already in use`, { hint: 'Pick another with --port (0 picks a free one).' }));
      else if (error.code === 'EACCES') reject(new UsageError(`not allowed to listen on ${host}:${port}`, { hint: 'Ports below 1024 need privileges; pick another with --port.' }));
      else if (error.code === 'EADDRNOTAVAIL') reject(new UsageError(`${host} is not an address of this machine`, { hint: 'Use --host 127.0.0.1 (or 0.0.0.0 for every interface).' }));
      else reject(error);
    };
    const onListening = () => {
      server.off('error', onError);
      resolve();
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, context: HandlerContext, limit: number): Promise<void> {
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'http://local');
  const match = matchRoute(ROUTES, method, url.pathname);
  if (!match) {
    drain(req);
    send(res, { status: 404, body: { message: `Route not found: ${method} ${url.pathname}`, error: 'LangfuseNotFoundError' } });
    return;
  }
  const { route, handler, params } = match;
  if (!handler) {
    drain(req);
    send(res, replyFor(methodNotAllowed(route.methodNotAllowedClass ?? true)));
    return;
  }

  let key;
  if (route.auth !== 'none') {
    const auth = authenticate(req.headers.authorization, context.store.state.apiKeys, route.auth);
    if (!auth.ok) {
      drain(req);
      send(res, { status: auth.status, body: auth.body });
      return;
    }
    key = auth.key;
  }

  let body: unknown;
  try {
    body = await readJsonBody(req, limit);
  } catch (error) {
    if (error instanceof HttpError) {
      send(res, replyFor(error), error.status === 413);
      return;
    }
    throw error;
  }

  try {
    const reply = await handler({ method, path: url.pathname, params, query: url.searchParams, headers: req.headers, body, key }, context);
    send(res, reply);
  } catch (error) {
    if (error instanceof HttpError) send(res, replyFor(error));
    else throw error;
  }
}

function replyFor(error: HttpError): ServerReply {
  return { status: error.status, body: error.body, headers: error.headers };
}

function send(res: ServerResponse, reply: ServerReply, closeConnection = false): void {
  if (res.headersSent) return;
  const headers: Record<string, string> = { 'x-llmobs-server': VERSION, ...reply.headers };
  if (closeConnection) headers.connection = 'close';
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(reply.body);
  res.writeHead(reply.status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

function drain(req: IncomingMessage): void {
  req.resume();
}

function readJsonBody(req: IncomingMessage, limit: number): Promise<unknown> {
  const tooLarge = () => new HttpError(413, { message: `Body exceeded ${limit / (1024 * 1024)}mb limit`, error: 'PayloadTooLargeError' });
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('error', (error) => {
      if (!failed) reject(error);
    });
    req.on('end', () => {
      if (failed) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new HttpError(400, { message: 'Invalid JSON in request body', error: 'InvalidRequestError' }));
      }
    });
  });
}
