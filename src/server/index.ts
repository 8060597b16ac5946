// A local Langfuse-compatible API server on node:http, for trying llmobs without an account,
// for tests, and for rehearsing CI pipelines. `startServer({ port: 0, ephemeral: true })` is the
// programmatic entry used by the test suite.
//
// Layers: http/ (routing, body limits, CORS, auth, error bodies), handlers/ (one module per
// resource; they use src/core and the store, never SQL), store/ (the database, migrations, one
// transaction per request).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { DEFAULT_WRITE_MODE, isWriteMode, WRITE_MODES, type WriteMode } from '../api/write-mode.js';
import { UsageError } from '../errors.js';
import { experimentRoutes } from './handlers/experiments.js';
import { API_VERSION, healthRoutes } from './handlers/health.js';
import { integrationRoutes } from './handlers/integrations.js';
import { metricsRoutes } from './handlers/metrics.js';
import { metricsDailyRoutes } from './handlers/metrics-daily.js';
import { metricsV1Routes } from './handlers/metrics-v1.js';
import { modelRoutes, projectDefinitions } from './handlers/models.js';
import { observationRoutes } from './handlers/observations.js';
import { projectRoutes } from './handlers/projects.js';
import { promptRoutes } from './handlers/prompts.js';
import { removedRoutes } from './handlers/removed-routes.js';
import { scoreRoutes } from './handlers/scores.js';
import { traceReadConfigRoutes } from './handlers/trace-read-config.js';
import { traceRoutes } from './handlers/traces.js';
import { uiLinkRoutes } from './handlers/ui-link.js';
import { ingestRoutes } from './ingest/routes.js';
import { BodyBudget, DEFAULT_BODY_BUDGET_BYTES } from './http/body.js';
import { handleRequest } from './http/pipeline.js';
import type { HandlerContext, Route } from './http/router.js';
import type { BlobIntegrationRecord } from './store/integrations.js';
import type { MigrationProgress } from './store/migration-progress.js';
import { Store } from './store/index.js';

export const ROUTES: Route[] = [
  ...healthRoutes,
  ...projectRoutes,
  ...modelRoutes,
  ...promptRoutes,
  ...traceRoutes,
  ...observationRoutes,
  ...metricsRoutes,
  ...metricsV1Routes,
  ...metricsDailyRoutes,
  ...scoreRoutes,
  ...experimentRoutes,
  ...integrationRoutes,
  ...ingestRoutes,
  ...removedRoutes,
  ...traceReadConfigRoutes,
  ...uiLinkRoutes,
];

/** The routes a server in this write mode has. */
export function routesFor(writeMode: WriteMode): Route[] {
  return ROUTES.filter((route) => !route.writeModes || route.writeModes.includes(writeMode));
}

export interface ServerOptions {
  port?: number;
  host?: string;
  /** Where the database and keys are kept; ignored with `ephemeral`. Required unless ephemeral. */
  dataDir?: string | undefined;
  ephemeral?: boolean;
  /** One line per request. */
  log?: (line: string) => void;
  now?: () => Date;
  /** Caps every route's body limit (the real limits: 1 MB, 4.5 MB for ingestion). */
  bodyLimitBytes?: number;
  /**
   * The Langfuse version to behave as (default: the newest this server implements). An older one
   * turns off what came later, e.g. "4.16.0" has no PUT /api/public/models/{id}.
   */
  apiVersion?: string;
  /**
   * Accept `Authorization: Bearer <secret key>` as the service specification shows it. Off by
   * default, as on a Langfuse server (401), so a pipeline that passes here passes there.
   */
  bearerSecretKey?: boolean;
  /** Most spans one OTLP export may carry (20,000); a larger export gets a 413. */
  maxSpansPerExport?: number;
  /**
   * Events whose records one transaction of a large ingestion request writes (500): such a
   * request is written a part at a time, with the event loop's turn between parts.
   */
  ingestPartEvents?: number;
  /**
   * Bytes of request bodies held at once, all requests together (256 MB); a request that would
   * go over gets a 503, which SDKs retry. Each route still has its own limit (1 MB, 4.5 MB, 32 MB).
   */
  maxBufferedBodyBytes?: number;
  /**
   * The Langfuse v4 write mode to behave as (src/api/write-mode.ts): `events_only` by default, as
   * Langfuse Cloud and self-hosted v4 run; `dual` also answers the v3 read routes and takes trace
   * and observation events on the batch route; `legacy` is a v3 deployment (no v4 read routes).
   * The store is the same whatever the mode.
   */
  writeMode?: WriteMode;
  /**
   * Also serve the web UI (src/server/ui) on its own port (0 picks a free one). `assetsDir`: where
   * its built pages are, when not beside the built server (tests of the sources).
   */
  ui?: { port: number; assetsDir?: string } | undefined;
  /** Told of a migration of the data directory that rewrites rows, while it runs. */
  migrationProgress?: MigrationProgress | undefined;
}

export interface RunningServer {
  url: string;
  host: string;
  port: number;
  keys: { publicKey: string; secretKey: string };
  /** The organization's key: the blob-storage integration routes take only this one. */
  organizationKeys: { publicKey: string; secretKey: string };
  project: { id: string; name: string };
  /** The project's blob-storage integration and its store secret, as the export that runs it needs them. */
  blobIntegration(): { record: BlobIntegrationRecord; secret: string | null } | undefined;
  /** Records a run of the integration's export (sync times, error, running since). */
  updateBlobIntegration(change: Partial<Pick<BlobIntegrationRecord, 'lastSyncAt' | 'nextSyncAt' | 'lastError' | 'lastErrorAt' | 'runStartedAt'>>): void;
  dataDir: string | undefined;
  /** True when this start created the project and its keys. */
  created: boolean;
  writeMode: WriteMode;
  /** The web UI's URL with its one-time token; null without a UI. */
  uiUrl: string | null;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const now = options.now ?? (() => new Date());
  if (!options.ephemeral && !options.dataDir) throw new UsageError('startServer needs a dataDir unless ephemeral');
  const writeMode = options.writeMode ?? DEFAULT_WRITE_MODE;
  if (!isWriteMode(writeMode)) throw new UsageError(`unknown write mode ${JSON.stringify(writeMode)}: use one of ${WRITE_MODES.join(', ')}`);
  const routes = routesFor(writeMode);
  const { store, created } = Store.open({ dataDir: options.ephemeral ? undefined : options.dataDir, now, migrationProgress: options.migrationProgress });
  // The model definitions are read once here and then kept (updated as they are written), so that
  // the first ingestion request does not parse a project's thousands of definitions.
  store.read((tx) => projectDefinitions(tx));
  const context: HandlerContext = { store, now, apiVersion: options.apiVersion ?? API_VERSION, maxSpansPerExport: options.maxSpansPerExport, ingestPartEvents: options.ingestPartEvents, writeMode };
  const log = options.log;
  const pipeline = {
    bodyLimitBytes: options.bodyLimitBytes,
    bodyBudget: new BodyBudget(options.maxBufferedBodyBytes ?? DEFAULT_BODY_BUDGET_BYTES),
    bearerSecretKey: options.bearerSecretKey ?? false,
    log,
  };

  const server = createServer((req, res) => {
    const started = performance.now();
    handleRequest(req, res, routes, context, pipeline)
      .catch((error: unknown) => {
        log?.(`internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
          res.end(JSON.stringify({ message: 'Internal Server Error', error: error instanceof Error ? error.message : String(error) }));
        }
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
    store.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let ui: { url: string; link(): string; close(): Promise<void> } | undefined;
  if (options.ui) {
    try {
      const { startUi } = await import('./ui/index.js');
      ui = await startUi({ host, port: options.ui.port, assetsDir: options.ui.assetsDir, routes: ROUTES, context, log });
      context.uiLink = ui.link;
    } catch (error) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      store.close();
      throw error;
    }
  }
  store.recordUrl(url);
  const key = store.apiKeys[0]!;

  let closing: Promise<void> | undefined;
  return {
    url,
    host,
    port,
    keys: { publicKey: key.publicKey, secretKey: key.secretKey },
    organizationKeys: { publicKey: store.organizationKeys[0]!.publicKey, secretKey: store.organizationKeys[0]!.secretKey },
    blobIntegration: () =>
      store.read((tx) => {
        const record = tx.integrations.get(store.project.id);
        return record && { record, secret: tx.integrations.secret(store.project.id) };
      }),
    updateBlobIntegration: (change) =>
      store.write((tx) => {
        const record = tx.integrations.get(store.project.id);
        // Deleted while the export ran: nothing to record.
        if (record) tx.integrations.put({ ...record, ...change }, undefined);
      }),
    project: { id: store.project.id, name: store.project.name },
    dataDir: store.dataDir,
    created,
    writeMode,
    uiUrl: ui?.url ?? null,
    close: () => {
      closing ??= Promise.all([
        ui?.close(),
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
      ]).then(() => store.close());
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
