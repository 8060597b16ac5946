// The data commands against the real local server (`llmobs server`): records are put in its
// store (as ingestion would leave them), then the built binary reads them back through the read
// API. Totals must equal what was stored; re-pricing must equal `llmobs estimate`.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInDefinitions } from '../../src/data/catalogue.js';
import type { ObservationRecord, TraceRecord } from '../../src/server/records.js';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { Store } from '../../src/server/store/index.js';
import { llmobs, profileEnv } from '../helpers/bin.js';
import { tempDir } from '../helpers/cli.js';
import { CHAT_OBSERVATIONS, CHAT_TRACE } from '../helpers/data-fixtures.js';
import { type SeedObservation, syntheticGenerations } from '../helpers/fake-data-api.js';

let server: RunningServer;
let env: Record<string, string | undefined>;
const GENERATIONS = syntheticGenerations(1500, { start: '2026-05-01T00:00:00.000Z', stepMs: 20 * 60_000 });
const ALL = [...CHAT_OBSERVATIONS, ...GENERATIONS];
const definitionId = new Map(builtInDefinitions().map((d) => [d.modelName, d.id]));

function record(o: SeedObservation, projectId: string): ObservationRecord {
  const costs = o.costDetails ?? {};
  return {
    id: o.id, projectId, traceId: o.traceId, parentObservationId: o.parentObservationId ?? null, type: (o.type ?? 'SPAN') as ObservationRecord['type'],
    name: o.name ?? null, environment: o.environment ?? 'default', startTime: o.startTime, endTime: o.endTime ?? null, completionStartTime: null,
    level: o.level ?? 'DEFAULT', statusMessage: o.statusMessage ?? null, version: null, input: o.input ?? null, output: o.output ?? null, metadata: {},
    providedModelName: o.providedModelName ?? null, internalModelId: o.providedModelName ? (definitionId.get(o.providedModelName) ?? null) : null,
    modelParameters: o.modelParameters ?? null, providedUsageDetails: o.usageDetails ?? {}, providedCostDetails: {}, usageDetails: o.usageDetails ?? {},
    costDetails: costs, totalCost: costs.total ?? null, usagePricingTierId: null, usagePricingTierName: null, promptId: null, promptName: null,
    promptVersion: null, createdAt: o.startTime, updatedAt: o.startTime,
  };
}

function trace(id: string, projectId: string, fields: Partial<TraceRecord>): TraceRecord {
  const t = fields.timestamp ?? '2026-05-01T00:00:00.000Z';
  return { id, projectId, timestamp: t, name: null, userId: null, sessionId: null, release: null, version: null, environment: 'default', public: false, bookmarked: false, tags: [], metadata: {}, input: null, output: null, createdAt: t, updatedAt: t, ...fields };
}

beforeAll(async () => {
  const dir = tempDir();
  const { store } = Store.open({ dataDir: dir, now: () => new Date('2026-06-01T00:00:00.000Z') });
  const projectId = store.project.id;
  store.write((tx) => {
    tx.traces.put(trace(CHAT_TRACE.id, projectId, { ...CHAT_TRACE, environment: 'production', metadata: {}, tags: CHAT_TRACE.tags ?? [] } as Partial<TraceRecord>));
    for (const id of new Set(GENERATIONS.map((g) => g.traceId!))) tx.traces.put(trace(id, projectId, { timestamp: GENERATIONS.find((g) => g.traceId === id)!.startTime, name: 'synthetic' }));
    for (const o of ALL) tx.observations.put(record(o, projectId));
  });
  store.close();
  // traces get/list read v3 routes, observations export and cost report v4 ones.
  server = await startServer({ port: 0, dataDir: dir, writeMode: 'dual' });
  env = await profileEnv(server);
});

afterAll(() => server.close());

const costOf = (list: SeedObservation[]) => list.reduce((sum, o) => sum + (o.costDetails?.total ?? 0), 0);

describe('against llmobs server', () => {
  it('traces get: the tree and totals of what was stored', async () => {
    const result = await llmobs(['traces', 'get', CHAT_TRACE.id, '--json'], { env });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout);
    expect(json.source).toBe('traces');
    expect(json.observations).toHaveLength(CHAT_OBSERVATIONS.length);
    expect(json.totals.cost).toBeCloseTo(costOf(CHAT_OBSERVATIONS), 12);
    expect(json.totals).toMatchObject({ tokens: { input: 1600, output: 120, total: 1720 }, errors: 1, warnings: 1 });
    const tree = await llmobs(['traces', 'get', CHAT_TRACE.id], { env });
    expect(tree.stdout.split('\n').filter((l) => /^\d\t/.test(l)).map((l) => l.split('\t').slice(0, 2).join(' '))).toEqual(['0 obs-root', '1 obs-retrieve', '1 obs-llm-1', '2 obs-tool', '1 obs-llm-2', '1 obs-fail']);
    const missing = await llmobs(['traces', 'get', 'no-such-trace'], { env });
    expect(missing.exitCode).toBe(8);
    expect(missing.stderr).toContain('--wait');
  });

  it('traces list with filters and --limit', async () => {
    const result = await llmobs(['traces', 'list', '--user', 'user-42', '--json'], { env });
    expect(JSON.parse(result.stdout).data.map((t: { id: string }) => t.id)).toEqual([CHAT_TRACE.id]);
    const some = await llmobs(['traces', 'list', '--limit', '120', '--name', 'synthetic', '--json'], { env });
    const json = JSON.parse(some.stdout);
    expect(json.data).toHaveLength(120);
    expect(json.meta.totalItems).toBe(new Set(GENERATIONS.map((g) => g.traceId)).size);
    expect(some.stderr).toContain('Showing 120 of');
  });

  it('observations export: every observation once, across pages', async () => {
    const file = join(tempDir(), 'all.jsonl');
    const result = await llmobs(['observations', 'export', '--output', file, '--page-size', '400'], { env });
    expect(result.exitCode).toBe(0);
    const ids = readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l).id as string);
    expect(ids).toHaveLength(ALL.length);
    expect(new Set(ids).size).toBe(ALL.length);
    const list = await llmobs(['observations', 'list', '--trace', CHAT_TRACE.id, '--format', 'csv', '--fields', 'id,type'], { env });
    expect(list.stdout.trimEnd().split('\n').slice(1).sort()).toEqual(CHAT_OBSERVATIONS.map((o) => `${o.id},${o.type}`).sort());
  });

  it('cost report: the total is the sum of the stored costs; the budget gate exits 9', async () => {
    const result = await llmobs(['cost', 'report', '--month', '2026-05', '--by', 'model', '--json'], { env });
    expect(result.exitCode).toBe(0);
    const report = JSON.parse(result.stdout);
    const may = ALL.filter((o) => o.startTime < '2026-06-01' && o.type !== 'SPAN' && o.type !== 'EVENT');
    expect(report.total.cost).toBeCloseTo(costOf(may), 10);
    expect(report.total.count).toBe(may.length);
    const days = JSON.parse((await llmobs(['cost', 'report', '--month', '2026-05', '--by', 'day', '--json'], { env })).stdout);
    expect(days.buckets).toHaveLength(31);
    expect(days.buckets.reduce((s: number, b: { cost: number }) => s + b.cost, 0)).toBeCloseTo(report.total.cost, 10);
    const gate = await llmobs(['cost', 'report', '--month', '2026-05', '--budget', '0.01', '--no-cache'], { env });
    expect(gate.exitCode).toBe(9);
    expect(gate.stderr).toContain('exceeds the budget of $0.01');
  });

  it('cost report over a range without observations: a total of nothing, and no groups', async () => {
    const json = await llmobs(['cost', 'report', '--month', '2020-01', '--json', '--no-cache'], { env });
    expect(json.exitCode).toBe(0);
    const report = JSON.parse(json.stdout);
    expect([report.total, report.groups]).toEqual([{ cost: 0, inputTokens: 0, outputTokens: 0, count: 0 }, []]);
    const table = await llmobs(['cost', 'report', '--month', '2020-01', '--no-cache'], { env });
    expect(table).toMatchObject({ exitCode: 0, stdout: '', stderr: '' });
  });

  it('cost recompute from the API equals estimate --batch over the same exported generations', async () => {
    const file = join(tempDir(), 'generations.jsonl');
    expect((await llmobs(['observations', 'export', '--output', file, '--type', 'GENERATION'], { env })).exitCode).toBe(0);
    const fromApi = JSON.parse((await llmobs(['cost', 'recompute', '--from', '2026-04-01', '--to', '2026-07-01', '--json'], { env })).stdout) as Array<{ model: string; generations: number; recomputedCost: number; difference: number }>;
    const batch = await llmobs(['estimate', '--batch', file, '--json'], { env });
    const summary = JSON.parse(batch.stdout.trimEnd().split('\n').at(-1)!).summary;
    expect(fromApi.map((m) => m.model).sort()).toEqual(summary.models.map((m: { model: string }) => m.model).sort());
    for (const m of summary.models) {
      const mine = fromApi.find((x) => x.model === m.model)!;
      expect([mine.generations, mine.recomputedCost]).toEqual([m.generations, expect.closeTo(m.totalCost, 12)]);
      // Stored with the built-in prices, re-priced with them: nothing changes.
      expect(mine.difference).toBe(0);
    }
  });
});
