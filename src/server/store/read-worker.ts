// A thread of its own for the reads that take long however they are written (a metrics query
// over a million observations, the traces list's sums over a long trace): it reads the database over a
// read-only connection of its own, so the server's event loop goes on answering meanwhile. It
// also copies the WAL into the database file (Store.checkpointSoon). WAL
// lets readers and the writer work at once; each read sees the last state committed before it
// began. It is started by the server (read-thread.ts) when the database is a file.
import { parentPort, workerData } from 'node:worker_threads';
import { MetricsQueryError, MetricsResourceError, parseMetricsQuery, queryRange } from '../../core/metrics/index.js';
import { type DailyMetricsFilter, DailyMetricsStore } from './daily-metrics.js';
import { metricsAnswer } from './metrics-answer.js';
import { metricsV1Answer, MetricsV1Store } from './metrics-v1.js';
import { type ObservationFilter, ObservationStore } from './observations.js';
import { ScoreStore } from './scores.js';
import { openSqlite, Statements } from './sqlite.js';
import { statsAsJson, type TraceFilter, TraceStore } from './traces.js';

/**
 * One read: a v2 metrics query (`metricsQuery`), a v1 one (`metricsV1Query`), each the JSON the
 * route received, a page of the daily metrics, the traces list's stats of its traces, or the ids of a page
 * of the v1 observations list and how many observations its filter picks.
 */
export type ReadRequest =
  | { id: number; metricsQuery: string }
  | { id: number; metricsV1Query: string }
  | { id: number; dailyMetrics: { filter: DailyMetricsFilter; page: number; limit: number } }
  | { id: number; traceStats: TraceStatsRequest }
  | { id: number; observationPage: { filter: ObservationFilter; page: { limit: number; offset: number } } }
  | { id: number; checkpoint: true };

/** The arguments of TraceStore.stats. */
export interface TraceStatsRequest {
  ids: readonly string[];
  filter: TraceFilter;
  parts: { ids: boolean; metrics: boolean };
}

/**
 * `refused`: the query's own fault (MetricsQueryError), answered 400 as on the event loop;
 * `tooLarge`: an answer too large to give (MetricsResourceError).
 */
export type ReadAnswer = { id: number; data: unknown } | { id: number; error: string; refused: boolean; tooLarge?: boolean };

const db = openSqlite((workerData as { path: string }).path);
db.exec('PRAGMA query_only = ON; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -32768');
const statements = new Statements(db);
const stores = { observations: new ObservationStore(statements), scores: new ScoreStore(statements) };
const metricsV1 = new MetricsV1Store(statements);
const dailyMetrics = new DailyMetricsStore(statements);
const traces = new TraceStore(statements);

function read(request: Exclude<ReadRequest, { checkpoint: true }>): unknown {
  if ('metricsV1Query' in request) return metricsV1Answer(parseMetricsQuery(request.metricsV1Query, 'v1'), metricsV1);
  if ('traceStats' in request) return statsAsJson(traces.stats(request.traceStats.ids, request.traceStats.filter, request.traceStats.parts));
  if ('dailyMetrics' in request) return dailyMetrics.page(request.dailyMetrics.filter, request.dailyMetrics.page, request.dailyMetrics.limit);
  if ('observationPage' in request) {
    const { filter, page } = request.observationPage;
    return { ids: stores.observations.listIds(filter, page), total: stores.observations.count(filter) };
  }
  const query = parseMetricsQuery(request.metricsQuery);
  const { from, to } = queryRange(query);
  return metricsAnswer(query, stores, from, to);
}

parentPort!.on('message', (request: ReadRequest) => {
  let answer: ReadAnswer;
  // A checkpoint (outside any transaction): the WAL's committed pages copied into the database
  // file, as far as no reader still needs them, without waiting for anyone (PASSIVE).
  if ('checkpoint' in request) {
    try {
      answer = { id: request.id, data: db.prepare('PRAGMA wal_checkpoint(PASSIVE)').raw().get() };
    } catch (error) {
      answer = { id: request.id, error: error instanceof Error ? error.message : String(error), refused: false };
    }
    parentPort!.postMessage(answer);
    return;
  }
  try {
    db.exec('BEGIN');
    try {
      answer = { id: request.id, data: read(request) };
    } finally {
      db.exec('COMMIT');
    }
  } catch (error) {
    answer = { id: request.id, error: error instanceof Error ? error.message : String(error), refused: error instanceof MetricsQueryError, ...(error instanceof MetricsResourceError ? { tooLarge: true } : {}) };
  }
  parentPort!.postMessage(answer);
});
