#!/usr/bin/env node
// The floor the local server is measured against: what a minimal correct server does with the
// same requests, and nothing more. A bare node:http server; one libsql database in WAL with
// synchronous=NORMAL (the durability of llmobs server: a commit survives the process dying);
// each ingested event stored as one row (its body's JSON once, beside the columns its reads
// use); answers built with plain SQL from the stored JSON, without parsing it.
//
// What it does not do, and llmobs server does: validate events against the service's schemas,
// merge create and update events, match models, tokenize, price, keep the v1/v2 shapes, filters,
// field groups. Its rates are a ceiling for a store of this kind, not a competitor.
//
//   node bench/floor-server.mjs --data-dir DIR [--port 0]
// prints one JSON line {url, publicKey, secretKey, dataDir}; stops on SIGTERM (checkpointing the WAL).
// Routes: POST /api/public/ingestion, GET /api/public/traces/{id}, GET /api/public/v2/observations
// (limit, cursor), GET /api/public/v2/metrics (sum and count of cost and tokens by model, name or
// type), GET /api/public/health, and POST /api/public/otel/v1/traces (OTLP/JSON), which inflates
// gzip with Node's zlib on its thread pool (at most 64 MB), parses the JSON and stores each span
// as one row (its JSON once, model and usage from its attributes).
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { gunzip } from 'node:zlib';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    body_id TEXT,
    trace_id TEXT,
    start_time TEXT,
    model TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    total_cost REAL,
    body TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS events_by_trace ON events (trace_id, start_time);
  CREATE INDEX IF NOT EXISTS events_by_time ON events (start_time DESC, id DESC);
`;

export const PUBLIC_KEY = 'pk-lf-floor';
export const SECRET_KEY = 'sk-lf-floor';
const AUTH = `Basic ${Buffer.from(`${PUBLIC_KEY}:${SECRET_KEY}`).toString('base64')}`;

/** Opens (creating) the floor's database in a directory. */
export function openFloor(dataDir) {
  mkdirSync(dataDir, { recursive: true });
  const Database = createRequire(import.meta.url)('libsql');
  const db = new Database(join(dataDir, 'floor.db'));
  db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL');
  db.exec(SCHEMA);
  return db;
}

/** A statement that stores events (objects as sent on the batch route), one row each; repeats of an id are skipped. */
export function eventWriter(db) {
  const insert = db.prepare(
    `INSERT INTO events (id, type, body_id, trace_id, start_time, model, input_tokens, output_tokens, total_cost, body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  );
  return (event) => {
    const body = event.body;
    const trace = event.type === 'trace-create';
    insert.run([
      event.id,
      event.type,
      body.id ?? null,
      (trace ? body.id : body.traceId) ?? null,
      (trace ? body.timestamp : body.startTime) ?? event.timestamp,
      body.model ?? null,
      body.usageDetails?.input ?? null,
      body.usageDetails?.output ?? null,
      body.costDetails?.total ?? null,
      JSON.stringify(body),
    ]);
  };
}

/**
 * A statement that stores OTLP/JSON spans, one row each (the span's JSON once; model and usage
 * read from the attributes the Langfuse SDKs set); a repeated span id is skipped.
 */
export function spanWriter(db) {
  const insert = db.prepare(
    `INSERT INTO events (id, type, body_id, trace_id, start_time, model, input_tokens, output_tokens, total_cost, body)
     VALUES (?, 'span', ?, ?, ?, ?, ?, ?, NULL, ?) ON CONFLICT (id) DO NOTHING`,
  );
  return (span) => {
    let model = null;
    let usage = {};
    for (const { key, value } of span.attributes ?? []) {
      if (key === 'langfuse.observation.model.name') model = value?.stringValue ?? null;
      else if (key === 'langfuse.observation.usage_details') usage = JSON.parse(value?.stringValue ?? '{}');
    }
    const start = new Date(Number(BigInt(span.startTimeUnixNano ?? 0) / 1_000_000n)).toISOString();
    insert.run([span.spanId, span.spanId, span.traceId, start, model, usage.input ?? null, usage.output ?? null, JSON.stringify(span)]);
  };
}

function send(res, status, text) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

const METRIC_COLUMNS = { totalCost: 'total_cost', inputTokens: 'input_tokens', outputTokens: 'output_tokens', count: '1' };
const DIMENSION_COLUMNS = { providedModelName: 'model', name: "body ->> '$.name'", type: 'type' };

export function startFloor({ dataDir, port = 0 }) {
  const db = openFloor(dataDir);
  const write = eventWriter(db);
  const traceRows = db.prepare('SELECT body FROM events WHERE trace_id = ? AND type <> ? ORDER BY start_time').pluck();
  const pageFirst = db.prepare("SELECT id, start_time, body FROM events WHERE type <> 'trace-create' ORDER BY start_time DESC, id DESC LIMIT ?").raw();
  const pageAfter = db.prepare("SELECT id, start_time, body FROM events WHERE type <> 'trace-create' AND (start_time, id) < (?, ?) ORDER BY start_time DESC, id DESC LIMIT ?").raw();
  const metricStatements = new Map();

  const handlers = {
    ingest(text) {
      const { batch } = JSON.parse(text);
      const successes = [];
      const errors = [];
      db.exec('BEGIN IMMEDIATE');
      try {
        for (const event of batch) {
          if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.body !== 'object' || event.body === null) {
            errors.push({ id: typeof event?.id === 'string' ? event.id : 'unknown', status: 400 });
            continue;
          }
          write(event);
          successes.push({ id: event.id, status: 201 });
        }
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
      return [207, JSON.stringify({ successes, errors })];
    },
    trace(id) {
      const rows = traceRows.all([id, 'trace-create']);
      if (rows.length === 0) return [404, '{"message":"not found"}'];
      return [200, `{"id":${JSON.stringify(id)},"observations":[${rows.join(',')}]}`];
    },
    observations(query) {
      const limit = Math.min(1000, Number(query.get('limit') ?? 50));
      const cursor = query.get('cursor');
      let rows;
      if (cursor) {
        const { t, id } = JSON.parse(Buffer.from(cursor, 'base64url').toString());
        rows = pageAfter.all([t, id, limit + 1]);
      } else rows = pageFirst.all([limit + 1]);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const next = rows.length > limit && last ? `{"cursor":"${Buffer.from(JSON.stringify({ t: last[1], id: last[0] })).toString('base64url')}"}` : '{}';
      return [200, `{"data":[${page.map((row) => row[2]).join(',')}],"meta":${next}}`];
    },
    metrics(query) {
      const q = JSON.parse(query.get('query'));
      const dims = (q.dimensions ?? []).map((d) => d.field);
      const select = [...dims.map((field) => `${DIMENSION_COLUMNS[field]} AS "${field}"`), ...q.metrics.map((m) => `${m.aggregation === 'count' ? 'COUNT' : 'SUM'}(${METRIC_COLUMNS[m.measure]}) AS "${m.aggregation}_${m.measure}"`)];
      const sql = `SELECT ${select.join(', ')} FROM events WHERE type <> 'trace-create' AND start_time >= ? AND start_time < ?${dims.length ? ` GROUP BY ${dims.map((_, i) => i + 1).join(', ')}` : ''}`;
      let statement = metricStatements.get(sql);
      if (!statement) metricStatements.set(sql, (statement = db.prepare(sql)));
      const data = statement.all([new Date(q.fromTimestamp).toISOString(), new Date(q.toTimestamp).toISOString()]);
      for (const row of data) delete row._metadata;
      return [200, JSON.stringify({ data })];
    },
  };

  const inflate = promisify(gunzip);
  const writeSpan = spanWriter(db);
  const otel = async (req, bytes) => {
    const raw = req.headers['content-encoding']?.includes('gzip') ? await inflate(bytes, { maxOutputLength: 64 * 1024 * 1024 }) : bytes;
    const { resourceSpans = [] } = JSON.parse(raw.toString('utf8'));
    let spans = 0;
    db.exec('BEGIN IMMEDIATE');
    try {
      for (const resource of resourceSpans) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) writeSpan(span);
          spans += scope.spans?.length ?? 0;
        }
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
    return [200, JSON.stringify({ spans })];
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://floor');
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      try {
        if (url.pathname === '/api/public/health') return send(res, 200, '{"status":"OK","version":"floor"}');
        if (req.headers.authorization !== AUTH) return send(res, 401, '{"message":"Unauthorized"}');
        let answer;
        if (req.method === 'POST' && url.pathname === '/api/public/ingestion') answer = handlers.ingest(Buffer.concat(chunks).toString('utf8'));
        else if (req.method === 'GET' && url.pathname.startsWith('/api/public/traces/')) answer = handlers.trace(decodeURIComponent(url.pathname.slice('/api/public/traces/'.length)));
        else if (req.method === 'GET' && url.pathname === '/api/public/v2/observations') answer = handlers.observations(url.searchParams);
        else if (req.method === 'GET' && url.pathname === '/api/public/v2/metrics') answer = handlers.metrics(url.searchParams);
        else if (req.method === 'POST' && url.pathname === '/api/public/otel/v1/traces') answer = await otel(req, Buffer.concat(chunks));
        else answer = [404, '{"message":"Route not found"}'];
        send(res, answer[0], answer[1]);
      } catch (error) {
        send(res, 500, JSON.stringify({ message: String(error?.message ?? error) }));
      }
    });
  });
  server.keepAliveTimeout = 10_000;
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => {
              db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
              db.close();
              done();
            });
            server.closeAllConnections();
          }),
      });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' }, port: { type: 'string', default: '0' } } });
  if (!values['data-dir']) {
    console.error('usage: node bench/floor-server.mjs --data-dir DIR [--port 0]');
    process.exit(2);
  }
  const floor = await startFloor({ dataDir: values['data-dir'], port: Number(values.port) });
  console.log(JSON.stringify({ url: floor.url, publicKey: PUBLIC_KEY, secretKey: SECRET_KEY, dataDir: values['data-dir'] }));
  process.on('SIGTERM', async () => {
    await floor.close();
    process.exit(0);
  });
}
