// The data commands over traffic sent the way applications send it: batch ingestion
// (POST /api/public/ingestion) to `llmobs server`, which infers usage and cost as the service
// does. What llmobs reads back must add up, and re-pricing with the same definitions must change
// nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs, profileEnv } from '../helpers/bin.js';
import { runInProcess, tempDir } from '../helpers/cli.js';
import { basicAuth } from '../helpers/server-api.js';

let server: RunningServer;
let env: Record<string, string | undefined>;
let exported: Array<Record<string, any>>;
const dir = tempDir();
const file = join(dir, 'all.jsonl');

const T0 = Date.parse('2026-05-03T09:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms).toISOString();
const chat = [{ role: 'system', content: 'You answer in one short sentence.' }, { role: 'user', content: 'What is the capital of Australia?' }];
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro'];
const BULK = 240;

function events() {
  let n = 0;
  const event = (type: string, body: Record<string, unknown>, timestamp = at(0)) => ({ id: `evt-${++n}`, type, timestamp, body });
  const list = [
    event('trace-create', { id: 'trace-ingested', name: 'support-answer', userId: 'user-7', sessionId: 'sess-1', tags: ['ingested'], environment: 'production', input: { question: 'capital of Australia?' }, output: 'Canberra.' }),
    event('span-create', { id: 'span-root', traceId: 'trace-ingested', name: 'handle', startTime: at(0), endTime: at(2000), environment: 'production' }),
    event('generation-create', { id: 'gen-usage', traceId: 'trace-ingested', parentObservationId: 'span-root', name: 'answer', model: 'gpt-4o', startTime: at(100), endTime: at(900), input: chat, output: 'Canberra.', usageDetails: { input: 120, output: 30 }, environment: 'production' }),
    event('generation-create', { id: 'gen-tokenized', traceId: 'trace-ingested', parentObservationId: 'span-root', name: 'check', model: 'gpt-4o-mini', startTime: at(1000), endTime: at(1500), input: chat, output: 'Canberra is the capital of Australia.', environment: 'production' }),
    event('event-create', { id: 'evt-guard', traceId: 'trace-ingested', parentObservationId: 'gen-tokenized', name: 'guard', startTime: at(1200), level: 'ERROR', statusMessage: 'blocked word', environment: 'production' }),
  ];
  // Traffic over a week: every model, usage sent, a trace per generation.
  for (let i = 0; i < BULK; i++) {
    const t = at(-i * 45 * 60_000);
    list.push(event('trace-create', { id: `bulk-trace-${i}`, name: 'bulk', userId: `user-${i % 5}`, environment: i % 3 ? 'production' : 'staging', timestamp: t }, t));
    list.push(event('generation-create', { id: `bulk-gen-${i}`, traceId: `bulk-trace-${i}`, name: 'call', model: MODELS[i % MODELS.length], startTime: t, endTime: t, usageDetails: { input: 500 + i, output: 40 + (i % 9) }, environment: i % 3 ? 'production' : 'staging' }, t));
  }
  return list;
}

beforeAll(async () => {
  // Traces over the batch route, read back with v3 (traces) and v4 (observations v2, metrics) routes.
  server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
  const batch = events();
  for (let i = 0; i < batch.length; i += 100) {
    const response = await fetch(`${server.url}/api/public/ingestion`, { method: 'POST', headers: { authorization: basicAuth(server), 'content-type': 'application/json' }, body: JSON.stringify({ batch: batch.slice(i, i + 100) }) });
    expect(response.status).toBe(207);
    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([]);
  }
  env = await profileEnv(server);
  const result = await llmobs(['observations', 'export', '--output', file, '--page-size', '100'], { env });
  expect(result.exitCode).toBe(0);
  exported = readFileSync(file, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
});

afterAll(() => server.close());

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v));

describe('over ingested traffic', () => {
  it('exports every observation sent, once', () => {
    expect(exported).toHaveLength(4 + BULK);
    expect(new Set(exported.map((o) => o.id)).size).toBe(4 + BULK);
    const tokenized = exported.find((o) => o.id === 'gen-tokenized')!;
    // The server counted the chat input: the export carries the usage and cost it stored.
    expect(num(tokenized.usageDetails.input)).toBeGreaterThan(0);
    expect(num(tokenized.totalCost)).toBeGreaterThan(0);
  });

  it('traces get: the tree, and totals equal to what the server stored', async () => {
    const result = await llmobs(['traces', 'get', 'trace-ingested', '--json'], { env });
    expect(result.exitCode).toBe(0);
    const json = JSON.parse(result.stdout);
    const own = exported.filter((o) => o.traceId === 'trace-ingested');
    expect(json.totals.cost).toBeCloseTo(own.reduce((s, o) => s + num(o.totalCost), 0), 12);
    expect(json.totals).toMatchObject({ observations: 4, errors: 1 });
    const tree = await llmobs(['traces', 'get', 'trace-ingested'], { env });
    expect(tree.stdout.split('\n').filter((l) => /^\d\t/.test(l)).map((l) => l.split('\t').slice(0, 3).join(' '))).toEqual(['0 span-root SPAN', '1 gen-usage GENERATION', '1 gen-tokenized GENERATION', '2 evt-guard EVENT']);
  });

  it('cost report adds up to the stored costs, per model', async () => {
    const report = JSON.parse((await runInProcess(['cost', 'report', '--from', '2026-04-20', '--to', '2026-05-10', '--by', 'model', '--json'], { env })).stdout);
    const generations = exported.filter((o) => o.type === 'GENERATION');
    expect(report.total.cost).toBeCloseTo(generations.reduce((s, o) => s + num(o.totalCost), 0), 10);
    expect(report.total.count).toBe(generations.length);
    for (const model of MODELS) {
      const group = report.groups.find((g: { group: { model: string } }) => g.group.model === model);
      expect(group.cost, model).toBeCloseTo(generations.filter((o) => o.providedModelName === model).reduce((s, o) => s + num(o.totalCost), 0), 10);
    }
  });

  it('cost recompute with the same definitions changes nothing, from the file and from the API', async () => {
    const fromFile = JSON.parse((await llmobs(['cost', 'recompute', '--input', file, '--json'], { env })).stdout) as Array<{ model: string; generations: number; storedCost: number; recomputedCost: number; difference: number }>;
    expect(fromFile.map((m) => m.model).sort()).toEqual(MODELS.slice().sort());
    for (const m of fromFile) expect(m.difference, m.model).toBe(0);
    const fromApi = JSON.parse((await runInProcess(['cost', 'recompute', '--from', '2026-04-20', '--to', '2026-05-10', '--json'], { env })).stdout) as typeof fromFile;
    expect(fromApi).toEqual(fromFile);
  });
});
