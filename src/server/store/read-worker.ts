// A thread of its own for the reads that take long however they are written (a metrics query
// over a million observations): it reads the database over a
// read-only connection of its own, so the server's event loop goes on answering meanwhile. WAL
// lets readers and the writer work at once; each read sees the last state committed before it
// began. It is started by the server (offthread.ts) when the database is a file.
import { parentPort, workerData } from 'node:worker_threads';
import { type MetricsAnswerRow, MetricsQueryError, parseMetricsQuery, queryRange } from '../../core/metrics/index.js';
import { metricsAnswer } from './metrics-answer.js';
import { ObservationStore } from './observations.js';
import { ScoreStore } from './scores.js';
import { openSqlite, Statements } from './sqlite.js';

export interface ReadRequest {
  id: number;
  /** The metrics query's JSON, as the route received it. */
  metricsQuery: string;
}

/** `refused`: the query's own fault (MetricsQueryError), answered 400 as on the event loop. */
export type ReadAnswer = { id: number; data: MetricsAnswerRow[] } | { id: number; error: string; refused: boolean };

const db = openSqlite((workerData as { path: string }).path);
db.exec('PRAGMA query_only = ON; PRAGMA busy_timeout = 5000; PRAGMA cache_size = -32768');
const statements = new Statements(db);
const stores = { observations: new ObservationStore(statements), scores: new ScoreStore(statements) };

function metrics(text: string): MetricsAnswerRow[] {
  const query = parseMetricsQuery(text);
  const { from, to } = queryRange(query);
  return metricsAnswer(query, stores, from, to);
}

parentPort!.on('message', (request: ReadRequest) => {
  let answer: ReadAnswer;
  try {
    db.exec('BEGIN');
    try {
      answer = { id: request.id, data: metrics(request.metricsQuery) };
    } finally {
      db.exec('COMMIT');
    }
  } catch (error) {
    answer = { id: request.id, error: error instanceof Error ? error.message : String(error), refused: error instanceof MetricsQueryError };
  }
  parentPort!.postMessage(answer);
});
