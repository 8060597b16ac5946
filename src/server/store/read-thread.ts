// The server's side of the read thread (read-worker.ts): requests go to it as messages and come
// back as promises. The thread is started on first use, and only where it can read what the
// server writes: a database file (an in-memory database is the server's connection's alone), and
// the built server (dist/read-worker.mjs; run from source, reads stay on the event loop).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { type MetricsAnswerRow, MetricsQueryError } from '../../core/metrics/index.js';
import type { ReadAnswer, ReadRequest } from './read-worker.js';

export class ReadThread {
  private readonly pending = new Map<number, { resolve: (data: MetricsAnswerRow[]) => void; reject: (error: Error) => void }>();
  private next = 0;
  /** Set once the thread has failed: reads then stay on the event loop. */
  failed = false;

  private constructor(private readonly worker: Worker) {
    worker.unref();
    worker.on('message', (answer: ReadAnswer) => {
      const waiting = this.pending.get(answer.id);
      if (!waiting) return;
      this.pending.delete(answer.id);
      if ('error' in answer) waiting.reject(answer.refused ? new MetricsQueryError(answer.error) : new Error(`the read thread: ${answer.error}`));
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
    return new Promise((resolve, reject) => {
      const id = this.next++;
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, metricsQuery } satisfies ReadRequest);
    });
  }

  /** Stops the thread; a read under way is abandoned. */
  stop(): void {
    this.failed = true;
    void this.worker.terminate();
  }
}
