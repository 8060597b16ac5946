// The server's side of the read thread (read-worker.ts): requests go to it as messages and come
// back as promises. The thread is started on first use, and only where it can read what the
// server writes: a database file (an in-memory database is the server's connection's alone), and
// the built server (dist/read-worker.mjs; run from source, reads stay on the event loop).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type MetricsAnswerRow, MetricsQueryError, MetricsResourceError } from '../../core/metrics/index.js';
import type { DailyMetricsFilter, DailyMetricsPage } from './daily-metrics.js';
import type { ObservationFilter } from './observations.js';
import type { ReadAnswer, ReadRequest, TraceStatsRequest } from './read-worker.js';
import type { TraceStatsJson } from './traces.js';

/** A request without its id (the thread numbers them). */
type WithoutId<R> = R extends unknown ? Omit<R, 'id'> : never;
type Asked = WithoutId<ReadRequest>;

export class ReadThread {
  private readonly pending = new Map<number, { resolve: (data: unknown) => void; reject: (error: Error) => void }>();
  private next = 0;
  /** Set once the thread has failed: reads then stay on the event loop. */
  failed = false;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on('message', (answer: ReadAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if ('error' in answer) waiting.reject(answer.refused ? new MetricsQueryError(answer.error) : answer.tooLarge ? new MetricsResourceError() : new Error(`the read thread: ${answer.error}`));
      else waiting.resolve(answer.data);
    });
    const fail = (error: Error) => {
      this.failed = true;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the read thread stopped (exit code ${code})`)));
  }

  /** A thread reading `databasePath`, or undefined where there can be none. */
  static start(databasePath: string): ReadThread | undefined {
    const file = fileURLToPath(new URL('./read-worker.mjs', import.meta.url));
    if (!existsSync(file)) return undefined;
    // Not the process's own Node options: those of a server started with `node -e` or a loader
    // do not apply to a file.
    return new ReadThread(new Worker(file, { workerData: { path: databasePath }, execArgv: [] }));
  }

  /** The answer rows of a metrics query (its JSON text, already checked by the caller). */
  metrics(metricsQuery: string): Promise<MetricsAnswerRow[]> {
    return this.ask({ metricsQuery }) as Promise<MetricsAnswerRow[]>;
  }

  /** The answer rows of a v1 metrics query (its JSON text, already checked by the caller). */
  metricsV1(metricsV1Query: string): Promise<MetricsAnswerRow[]> {
    return this.ask({ metricsV1Query }) as Promise<MetricsAnswerRow[]>;
  }

  /** A page of the daily metrics. */
  dailyMetrics(filter: DailyMetricsFilter, page: number, limit: number): Promise<DailyMetricsPage> {
    return this.ask({ dailyMetrics: { filter, page, limit } }) as Promise<DailyMetricsPage>;
  }

  /** The traces list's stats of its traces (TraceStore.stats), their ids as JSON. */
  traceStats(request: TraceStatsRequest): Promise<Map<string, TraceStatsJson>> {
    return this.ask({ traceStats: request }) as Promise<Map<string, TraceStatsJson>>;
  }

  /** The ids of a page of the v1 observations list (ObservationStore.listIds) and how many its filter picks (count). */
  observationPage(filter: ObservationFilter, page: { limit: number; offset: number }): Promise<{ ids: string[]; total: number }> {
    return this.ask({ observationPage: { filter, page } }) as Promise<{ ids: string[]; total: number }>;
  }

  /** A PASSIVE checkpoint of the database: resolves with SQLite's [busy, frames in the WAL, frames copied]. */
  checkpoint(): Promise<unknown> {
    return this.ask({ checkpoint: true });
  }

  private ask(request: Asked): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id } as ReadRequest);
    });
  }

  /** Stops the thread; a read under way is abandoned. */
  stop(): void {
    this.failed = true;
    void this.worker.terminate();
  }
}
