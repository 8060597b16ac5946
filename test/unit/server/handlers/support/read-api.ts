// The read API's records for the handler tests (API.md sections 5-7): three traces with
// observations and scores, seeded through the store into a data directory, and a server over it.
import { afterAll, beforeAll } from 'vitest';
import { builtInDefinitions } from '../../../../../src/data/catalogue.js';
import type { ObservationRecord, ScoreRecord, TraceRecord } from '../../../../../src/server/records.js';
import { type RunningServer, type ServerOptions, startServer } from '../../../../../src/server/index.js';
import { Store } from '../../../../../src/server/store/index.js';
import { tempDir } from '../../../../helpers/cli.js';
import { apiCaller } from '../../../../helpers/server-api.js';

export let server: RunningServer;
export let projectId: string;
export const call = apiCaller(() => server);
export const get = async (path: string) => call('GET', path, undefined, { unchecked: true });

export const T0 = '2026-03-01T10:00:00.000Z';
export const at = (seconds: number) => new Date(Date.parse(T0) + seconds * 1000).toISOString();
export const gpt4o = builtInDefinitions().find((d) => d.modelName === 'gpt-4o' && d.inputPrice !== null)!;

function trace(id: string, fields: Partial<TraceRecord>): TraceRecord {
  return {
    id, projectId, timestamp: T0, name: null, userId: null, sessionId: null, release: null, version: null, environment: 'default',
    public: false, bookmarked: false, tags: [], metadata: {}, input: null, output: null, createdAt: T0, updatedAt: T0, ...fields,
  };
}

function observation(id: string, fields: Partial<ObservationRecord>): ObservationRecord {
  return {
    id, projectId, traceId: null, parentObservationId: null, type: 'SPAN', name: null, environment: 'default', startTime: T0, endTime: null,
    completionStartTime: null, level: 'DEFAULT', statusMessage: null, version: null, input: null, output: null, metadata: {},
    providedModelName: null, internalModelId: null, modelParameters: null, providedUsageDetails: {}, providedCostDetails: {},
    usageDetails: {}, costDetails: {}, totalCost: null, usagePricingTierId: null, usagePricingTierName: null, promptId: null,
    promptName: null, promptVersion: null, createdAt: T0, updatedAt: T0, ...fields,
  };
}

function score(id: string, fields: Partial<ScoreRecord>): ScoreRecord {
  return {
    id, projectId, timestamp: T0, name: 'quality', value: 0.9, stringValue: null, dataType: 'NUMERIC', source: 'API', traceId: null,
    observationId: null, sessionId: null, datasetRunId: null, comment: null, metadata: {}, environment: 'default', configId: null,
    queueId: null, authorUserId: null, createdAt: T0, updatedAt: T0, ...fields,
  };
}

/**
 * Registers the hooks in the calling file: a server over the seeded data directory, in the write
 * mode the file's routes need (events_only, Langfuse's default, unless told).
 */
export function useReadApi(options: Pick<ServerOptions, 'writeMode'> = {}): void {
  beforeAll(async () => {
    const dir = tempDir();
    const { store } = Store.open({ dataDir: dir, now: () => new Date(T0) });
    projectId = store.project.id;
    store.write((tx) => {
      tx.traces.put(trace('t1', { name: 'chat', userId: 'u1', sessionId: 's1', tags: ['a', 'b'], environment: 'production', input: { q: 'hi' }, output: 'hello', metadata: { k: 'v' }, release: 'r1' }));
      tx.traces.put(trace('t2', { name: 'batch', userId: 'u2', tags: ['a'], timestamp: at(3600), createdAt: at(3600), updatedAt: at(3600) }));
      tx.traces.put(trace('t3', { name: 'old', userId: 'u1', timestamp: '2026-02-27T08:00:00.000Z' }));
      tx.observations.put(observation('o1', { traceId: 't1', name: 'root', environment: 'production', startTime: T0, endTime: at(2) }));
      tx.observations.put(
        observation('o2', {
          traceId: 't1', parentObservationId: 'o1', type: 'GENERATION', name: 'llm', environment: 'production', startTime: at(0.25), endTime: at(1.5),
          completionStartTime: at(0.75), providedModelName: 'gpt-4o', internalModelId: gpt4o.id, input: [{ role: 'user', content: 'hi' }], output: 'hello',
          usageDetails: { input: 10, input_cached_tokens: 2, output: 5, total: 17 }, costDetails: { input: 0.000025, output: 0.00005, total: 0.000075 },
          totalCost: 0.000075, usagePricingTierName: 'Standard', promptName: 'greeting', promptVersion: 2,
        }),
      );
      tx.observations.put(
        observation('o3', {
          traceId: 't2', type: 'GENERATION', name: 'llm', startTime: at(3600), endTime: at(3603), providedModelName: 'claude-x',
          usageDetails: { input: 100, output: 50, total: 150 }, costDetails: { total: 0.001 }, totalCost: 0.001, metadata: { step: 2 },
        }),
      );
      tx.scores.put(score('sc1', { traceId: 't1', value: 0.9 }));
      tx.scores.put(score('sc2', { traceId: 't1', observationId: 'o2', name: 'ok', dataType: 'BOOLEAN', value: 1, stringValue: 'True', timestamp: at(1) }));
      tx.scores.put(score('sc3', { traceId: 't2', name: 'label', dataType: 'CATEGORICAL', value: null, stringValue: 'good', timestamp: at(2), comment: 'fine' }));
    });
    store.close();
    server = await startServer({ port: 0, dataDir: dir, ...options });
  });
  afterAll(() => server.close());
}
