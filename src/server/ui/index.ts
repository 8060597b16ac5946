// The web UI of `llmobs server`: its own port, its own origin, pages built into dist/ui at
// package build time (scripts/build.mjs) and served from there. Loaded only when the server starts
// with a UI: nothing of it is in the path of any other command.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../../errors.js';
import type { HandlerContext, Route } from '../http/router.js';
import { forward, internalApi, sendJson } from './internal-api.js';
import { allowedHosts, checkedHost, SECURITY_HEADERS, sameOrigin, Sessions } from './security.js';
import { uiRoutes } from './ui-api.js';

export interface UiOptions {
  host: string;
  port: number;
  /** Every route of the server, whatever its write mode. */
  routes: readonly Route[];
  context: HandlerContext;
  /** Where the built pages are (default: dist/ui beside this module's file). */
  assetsDir?: string | undefined;
  log?: ((line: string) => void) | undefined;
}

export interface RunningUi {
  /** The URL to open: it carries the one-time token. */
  url: string;
  /** A new one-time URL for another browser (it works for LINK_LIFETIME_MS). */
  link(): string;
  port: number;
  close(): Promise<void>;
}

const NEW_LINK = 'For a new link, run: llmobs server link (it uses the profile of this server).';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

export async function startUi(options: UiOptions): Promise<RunningUi> {
  const assetsDir = options.assetsDir ?? join(dirname(fileURLToPath(import.meta.url)), 'ui');
  const assets = loadAssets(assetsDir);
  // The UI reads every route whatever the mode the server answers clients in: the store is the
  // same in every mode, and its pages need the v2 observations and metrics (not in legacy) and
  // the v3 traces (not in events_only).
  const api = internalApi(options.routes, { ...options.context, writeMode: 'dual' });
  const ui = uiRoutes(api);
  let sessions: Sessions | undefined;
  let allowed = new Set<string>();

  const server = createServer((req, res) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    handle(req, res).catch((error: unknown) => {
      options.log?.(`ui: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      if (!res.headersSent) sendJson(res, { status: 500, body: { message: 'Internal Server Error' } });
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5_000;

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = checkedHost(req, allowed);
    if (!host || !sessions) return refuse(req, res, 421, 'This server answers only to its own address.');
    const url = new URL(req.url ?? '/', `http://${host}`);
    const method = (req.method ?? 'GET').toUpperCase();
    const token = url.searchParams.get('token');
    if (url.pathname === '/' && token !== null && method === 'GET') {
      req.resume();
      const id = sessions.redeem(token);
      if (id === undefined && !sessions.has(req)) return refuse(req, res, 403, `This link was used already or has expired: a link opens the web UI once. ${NEW_LINK}`);
      res.writeHead(303, { location: '/', 'cache-control': 'no-store', ...(id ? { 'set-cookie': sessions.cookie(id) } : {}) });
      res.end();
      return;
    }
    if (!sessions.has(req)) return refuse(req, res, 401, `Open the web UI with the URL that llmobs server printed when it started. ${NEW_LINK}`);
    if (method !== 'GET' && method !== 'HEAD' && !sameOrigin(req, host)) return refuse(req, res, 403, 'Changes are accepted only from the web UI\'s own pages.');

    if (url.pathname.startsWith('/api/public/')) return forward(api, req, res, url);
    if (url.pathname.startsWith('/ui/api/')) return ui(req, res, url);
    req.resume();
    const file = assets.get(url.pathname === '/' ? '/index.html' : url.pathname);
    if (!file || (method !== 'GET' && method !== 'HEAD')) return refuse(req, res, 404, 'Not found.');
    res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length), 'cache-control': 'no-cache' });
    res.end(method === 'HEAD' ? undefined : file.body);
  }

  try {
    await listen(server, options.port, options.host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new UsageError(`port ${options.port} on ${options.host} is already in use`, { hint: 'Pick another with --ui-port (0 picks a free one).' });
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  sessions = new Sessions(port);
  allowed = allowedHosts(options.host, port);
  const bare = options.host.replace(/^\[|\]$/g, '');
  const shown = bare === '0.0.0.0' ? '127.0.0.1' : bare === '::' ? '[::1]' : bare.includes(':') ? `[${bare}]` : bare;
  const origin = `http://${shown}:${port}`;
  const opened = sessions;
  let closing: Promise<void> | undefined;
  return {
    url: `${origin}/?token=${opened.startToken}`,
    link: () => `${origin}/?token=${opened.issue()}`,
    port,
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}

function refuse(req: IncomingMessage, res: ServerResponse, status: number, message: string): void {
  req.resume();
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`${message}\n`);
}

function loadAssets(dir: string): Map<string, { type: string; body: Buffer }> {
  const files = new Map<string, { type: string; body: Buffer }>();
  for (const name of ['index.html', 'app.js', 'app.css']) {
    let body: Buffer;
    try {
      body = readFileSync(join(dir, name));
    } catch {
      throw new UsageError(`the web UI's files are missing from ${dir}`, { hint: 'Build the package (node scripts/build.mjs), or start the server with --no-ui.' });
    }
    files.set(`/${name}`, { type: TYPES[name.slice(name.lastIndexOf('.'))]!, body });
  }
  return files;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
