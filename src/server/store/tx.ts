// What a request sees of the store: one object per kind of record, all inside the request's one
// transaction (see Store.read / Store.write). Nothing here knows about HTTP.
import type { ApiKeyRecord, ProjectRecord } from '../records.js';
import { DailyMetricsStore } from './daily-metrics.js';
import { EventStore } from './events.js';
import { IntegrationStore } from './integrations.js';
import { MetricsV1Store } from './metrics-v1.js';
import { ModelStore } from './models.js';
import { ObservationStore } from './observations.js';
import { PromptStore } from './prompts.js';
import type { Statements } from './sqlite.js';
import { ScoreStore } from './scores.js';
import { TraceStore } from './traces.js';

export class ProjectStore {
  constructor(private readonly sql: Statements) {}

  get(): ProjectRecord | undefined {
    const row = this.sql.row<{ record: string }>('SELECT record FROM project LIMIT 1');
    return row && (JSON.parse(row.record) as ProjectRecord);
  }

  apiKeys(): ApiKeyRecord[] {
    return this.sql
      .rows<{ id: string; public_key: string; secret_key: string; created_at: string }>('SELECT id, public_key, secret_key, created_at FROM api_keys ORDER BY rowid')
      .map((row) => ({ id: row.id, publicKey: row.public_key, secretKey: row.secret_key, createdAt: row.created_at }));
  }

  create(project: ProjectRecord, keys: readonly ApiKeyRecord[]): void {
    this.sql.run('INSERT INTO project (id, record) VALUES (?, ?)', project.id, JSON.stringify(project));
    for (const key of keys) {
      this.sql.run('INSERT INTO api_keys (id, public_key, secret_key, created_at) VALUES (?, ?, ?, ?)', key.id, key.publicKey, key.secretKey, key.createdAt);
    }
  }
}

/**
 * Reads one slice of a long answer or sum in a read transaction of its own, after the event loop
 * has had its turn (http/json-stream.ts readSlices).
 */
export type ReadSlice = <T>(fn: (tx: Tx) => T) => Promise<T>;

export class Tx {
  readonly project: ProjectStore;
  readonly prompts: PromptStore;
  readonly models: ModelStore;
  readonly traces: TraceStore;
  readonly observations: ObservationStore;
  readonly scores: ScoreStore;
  readonly events: EventStore;
  readonly integrations: IntegrationStore;
  readonly metricsV1: MetricsV1Store;
  readonly dailyMetrics: DailyMetricsStore;

  constructor(sql: Statements) {
    this.project = new ProjectStore(sql);
    this.prompts = new PromptStore(sql);
    this.models = new ModelStore(sql);
    this.traces = new TraceStore(sql);
    this.observations = new ObservationStore(sql);
    this.scores = new ScoreStore(sql);
    this.events = new EventStore(sql);
    this.integrations = new IntegrationStore(sql);
    this.metricsV1 = new MetricsV1Store(sql);
    this.dailyMetrics = new DailyMetricsStore(sql);
  }
}
