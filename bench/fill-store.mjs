// Fills `llmobs server`'s SQLite store in `dir` with `n` generations (one a second from
// 2026-05-01, 4 per trace), through the store of dist/: the server's own records, without the
// ingestion path. With `traces`, each trace's record is written too (the traces list reads them).
// With `bigTrace`, one more trace, "big-trace", the newest, has that many observations.
// Done by a child process: a process's peak RSS counts its parent's at the fork, so a measuring
// parent stays small.
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function fillStore(dir, n, { traces = false, bigTrace = 0 } = {}) {
  const script = `
    const { Store } = await import(${JSON.stringify(join(root, 'dist', 'store.mjs'))});
    const { store } = Store.open({ dataDir: ${JSON.stringify(dir)}, now: () => new Date() });
    const projectId = store.project.id;
    const base = Date.parse('2026-05-01T00:00:00.000Z');
    const started = performance.now();
    for (let from = 0; from < ${n}; from += 10000) {
      store.write((tx) => {
        for (let i = from; i < Math.min(${n}, from + 10000); i++) {
          const t = new Date(base + i * 1000).toISOString();
          const traceId = 'trace-' + (i >> 2);
          if (${traces} && i % 4 === 0) {
            tx.traces.put({ id: traceId, projectId, timestamp: t, name: 'chat', userId: 'user-' + ((i >> 2) % 97), sessionId: 'session-' + (i >> 5), release: null, version: null, environment: 'production',
              public: false, bookmarked: false, tags: ['bench'], metadata: {}, input: { question: 'Question ' + i }, output: 'Paris', createdAt: t, updatedAt: t });
          }
          tx.observations.put({
            id: 'obs-' + i, projectId, traceId, parentObservationId: null, type: 'GENERATION', name: 'llm-call', environment: 'production', startTime: t, endTime: t,
            completionStartTime: null, level: 'DEFAULT', statusMessage: null, version: null, input: [{ role: 'user', content: 'Question ' + i + ': what is the capital of France?' }], output: 'Paris (' + i + ').',
            metadata: { feature: 'chat' }, providedModelName: 'gpt-4o', internalModelId: null, modelParameters: { temperature: 0.2 }, providedUsageDetails: {}, providedCostDetails: {},
            usageDetails: { input: 900 + (i % 977), output: 80, total: 980 + (i % 977) }, costDetails: { total: 0.001 }, totalCost: 0.001, usagePricingTierId: null, usagePricingTierName: null,
            promptId: null, promptName: null, promptVersion: null, createdAt: t, updatedAt: t,
          });
        }
      });
    }
    // One trace of ${bigTrace} observations, newer than the rest: a root span and its children.
    const bigStart = base + ${n} * 1000;
    for (let from = 0; from < ${bigTrace}; from += 10000) {
      store.write((tx) => {
        if (from === 0) {
          const t = new Date(bigStart).toISOString();
          tx.traces.put({ id: 'big-trace', projectId, timestamp: t, name: 'big', userId: 'user-big', sessionId: null, release: null, version: null, environment: 'production',
            public: false, bookmarked: false, tags: ['bench'], metadata: {}, input: { question: 'A long agent run' }, output: 'Done', createdAt: t, updatedAt: t });
        }
        for (let i = from; i < Math.min(${bigTrace}, from + 10000); i++) {
          const t = new Date(bigStart + i).toISOString();
          tx.observations.put({
            id: 'big-' + i, projectId, traceId: 'big-trace', parentObservationId: i === 0 ? null : 'big-0', type: i === 0 ? 'SPAN' : 'GENERATION', name: 'step', environment: 'production', startTime: t, endTime: t,
            completionStartTime: null, level: 'DEFAULT', statusMessage: null, version: null, input: [{ role: 'user', content: 'Step ' + i + ': what is the capital of France?' }], output: 'Paris (' + i + ').',
            metadata: { feature: 'agent' }, providedModelName: 'gpt-4o', internalModelId: null, modelParameters: { temperature: 0.2 }, providedUsageDetails: {}, providedCostDetails: {},
            usageDetails: { input: 900 + (i % 977), output: 80, total: 980 + (i % 977) }, costDetails: { total: 0.001 }, totalCost: 0.001, usagePricingTierId: null, usagePricingTierName: null,
            promptId: null, promptName: null, promptVersion: null, createdAt: t, updatedAt: t,
          });
        }
      });
    }
    store.close();
    console.error('filled the store with ${n.toLocaleString('en-US')} observations in ' + ((performance.now() - started) / 1000).toFixed(1) + ' s');
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
  if (child.status !== 0) throw new Error('could not fill the store');
}
