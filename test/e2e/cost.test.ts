// `llmobs cost report` and `cost recompute` as a user runs them, against a fake Langfuse server:
// a report adds up to the observations' costs and its budget gate exits 9; re-pricing gives, per
// model, what `llmobs estimate` gives for the same generations.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv, runInProcess, tempDir } from '../helpers/cli.js';
import { CHAT_OBSERVATIONS, CHAT_TRACE } from '../helpers/data-fixtures.js';
import { type FakeDataServer, type SeedObservation, startFakeDataServer, syntheticGenerations } from '../helpers/fake-data-api.js';

const MAY = syntheticGenerations(3000, { start: '2026-05-01T00:00:00.000Z', stepMs: 15 * 60_000, models: ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet-20241022', 'my-own-model'] });
const UNPRICED: SeedObservation = { id: 'gen-unmatched', traceId: 'trace-x', type: 'GENERATION', startTime: '2026-05-20T00:00:00.000Z', providedModelName: 'acme-large', internalModelId: null, usageDetails: { input: 10, output: 5, total: 15 }, costDetails: {} };
// my-own-model matches no built-in definition: stored without cost, as the server would.
for (const o of MAY) if (o.providedModelName === 'my-own-model') Object.assign(o, { internalModelId: null, costDetails: {} });
const ALL = [...MAY, ...CHAT_OBSERVATIONS, UNPRICED];
const costOf = (list: SeedObservation[]) => list.reduce((sum, o) => sum + (o.costDetails?.total ?? 0), 0);

let server: FakeDataServer;
let strings: FakeDataServer;
let env: Record<string, string | undefined>;
const metricsRequests = (s: FakeDataServer) => s.requests.filter((r) => r.path.startsWith('/api/public/v2/metrics')).length;
const envFor = (s: FakeDataServer) => isolatedEnv({ LANGFUSE_HOST: s.url, LANGFUSE_PUBLIC_KEY: s.keys.publicKey, LANGFUSE_SECRET_KEY: s.keys.secretKey });

beforeAll(async () => {
  server = await startFakeDataServer();
  strings = await startFakeDataServer({ numericStrings: true, cloud: true });
  for (const s of [server, strings]) {
    s.addTrace(CHAT_TRACE, CHAT_OBSERVATIONS);
    s.addObservations([...MAY, UNPRICED]);
  }
  env = envFor(server);
});

afterAll(async () => {
  expect(server.contractIssues).toEqual([]);
  await Promise.all([server.close(), strings.close()]);
});

describe('cost report', () => {
  it('adds up to the sum of the observations\' costs, per model, with tokens and counts, in one request', async () => {
    const before = metricsRequests(server);
    const result = await llmobs(['cost', 'report', '--month', '2026-05', '--json', '--no-cache'], { env });
    expect(result.exitCode).toBe(0);
    expect(metricsRequests(server) - before).toBe(1);
    const report = JSON.parse(result.stdout);
    const generations = ALL.filter((o) => o.type !== 'SPAN' && o.type !== 'EVENT' && Date.parse(o.startTime) < Date.parse('2026-06-01T00:00:00Z'));
    expect(report.total.cost).toBeCloseTo(costOf(generations), 10);
    expect(report.total.count).toBe(generations.length);
    const gpt = report.groups.find((g: { group: { model: string } }) => g.group.model === 'gpt-4o');
    const gptRows = generations.filter((o) => o.providedModelName === 'gpt-4o');
    expect(gpt.cost).toBeCloseTo(costOf(gptRows), 10);
    expect(gpt.inputTokens).toBe(gptRows.reduce((s, o) => s + (o.usageDetails?.input ?? 0), 0));
    expect(report.groups.map((g: { cost: number }) => g.cost)).toEqual([...report.groups.map((g: { cost: number }) => g.cost)].sort((a, b) => b - a));
    expect([report.from, report.to]).toEqual(['2026-05-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z']);
  });

  it('per day: every day of the range, summing to the total; CSV rows per model and day', async () => {
    const json = JSON.parse((await llmobs(['cost', 'report', '--from', '2026-05-01', '--to', '2026-05-15', '--by', 'day', '--json'], { env })).stdout);
    expect(json.buckets).toHaveLength(14);
    expect(json.buckets.reduce((s: number, b: { cost: number }) => s + b.cost, 0)).toBeCloseTo(json.total.cost, 10);
    const csv = (await llmobs(['cost', 'report', '--from', '2026-05-01', '--to', '2026-05-15', '--by', 'model', '--by', 'day', '--csv'], { env })).stdout.trimEnd().split('\n');
    expect(csv[0]).toBe('model,day,cost,inputTokens,outputTokens,count');
    const sum = csv.slice(1).reduce((s, row) => s + Number(row.split(',')[2]), 0);
    expect(sum).toBeCloseTo(json.total.cost, 10);
  });

  it('--budget: exit 9 and by how much when the total is over it, 0 within it', async () => {
    const total = JSON.parse((await runInProcess(['cost', 'report', '--month', '2026-05', '--json'], { env })).stdout).total.cost as number;
    const over = await llmobs(['cost', 'report', '--month', '2026-05', '--budget', '1'], { env });
    expect(over.exitCode).toBe(9);
    const by = /exceeds the budget of \$1\.00 by \$([\d.]+) \(([\d.]+)% of the budget\)/.exec(over.stderr);
    expect(Number(by?.[1])).toBeCloseTo(total - 1, 3);
    expect(Number(by?.[2])).toBeCloseTo(total * 100, 0);
    const within = await runInProcess(['cost', 'report', '--month', '2026-05', '--budget', '$1000'], { env });
    expect(within.exitCode).toBe(0);
    expect(within.stderr).toMatch(/Within the budget of \$1,000\.00: [\d.]+% used/);
    const asJson = await runInProcess(['cost', 'report', '--month', '2026-05', '--budget', '1', '--json'], { env });
    expect(asJson.exitCode).toBe(9);
    expect(JSON.parse(asJson.stdout).budget).toMatchObject({ limit: 1, exceeded: true });
    expect(JSON.parse(asJson.stderr.trimEnd().split('\n').at(-1)!).error).toMatchObject({ code: 'precondition_failed', exitCode: 9 });
  });

  it('answers an identical report from a cache for a few minutes; --no-cache asks again', async () => {
    const cacheEnv = { ...envFor(server), LLMOBS_CACHE_DIR: tempDir() };
    const before = metricsRequests(server);
    const first = await runInProcess(['cost', 'report', '--from', '7d', '--by', 'environment'], { env: cacheEnv });
    const second = await runInProcess(['cost', 'report', '--from', '7d', '--by', 'environment'], { env: cacheEnv });
    expect(metricsRequests(server) - before).toBe(1);
    expect(second.stdout).toBe(first.stdout);
    expect(second.stderr).toContain('From the cache');
    const files = readdirSync(cacheEnv.LLMOBS_CACHE_DIR!);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(cacheEnv.LLMOBS_CACHE_DIR!, files[0]!), 'utf8')).not.toContain(server.keys.secretKey);
    await runInProcess(['cost', 'report', '--from', '7d', '--by', 'environment', '--no-cache'], { env: cacheEnv });
    await runInProcess(['cost', 'report', '--from', '7d', '--by', 'model'], { env: cacheEnv });
    expect(metricsRequests(server) - before).toBe(3);
  });

  it('reads numbers sent as strings, and ClickHouse\'s bucket times', async () => {
    const a = JSON.parse((await runInProcess(['cost', 'report', '--month', '2026-05', '--by', 'model,day', '--json'], { env })).stdout);
    const b = JSON.parse((await runInProcess(['cost', 'report', '--month', '2026-05', '--by', 'model,day', '--json'], { env: envFor(strings) })).stdout);
    expect(b.total.cost).toBeCloseTo(a.total.cost, 10);
    expect(b.buckets.map((x: { bucket: string }) => x.bucket)).toEqual(a.buckets.map((x: { bucket: string }) => x.bucket));
  });

  it('per user (top users by cost) is one query; per user and day is refused before anything is sent', async () => {
    const users = JSON.parse((await llmobs(['cost', 'report', '--month', '2026-05', '--by', 'user', '--json'], { env })).stdout);
    expect(users.groups.length).toBeGreaterThan(5);
    const before = metricsRequests(server);
    const refused = await llmobs(['cost', 'report', '--by', 'user,day'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('cannot be combined');
    for (const args of [['--by', 'cost'], ['--month', '2026-13'], ['--budget', 'lots'], ['--from', '2026-05-02', '--to', '2026-05-01'], ['--month', 'last', '--from', '1d']]) {
      expect((await runInProcess(['cost', 'report', ...args], { env })).exitCode, args.join(' ')).toBe(2);
    }
    expect(metricsRequests(server)).toBe(before);
  });

  it('asks the v1 metrics API where v2 is not there (a Langfuse v3 server), with the same answer', async () => {
    const v3 = await startFakeDataServer({ metricsV2: false });
    v3.addTrace(CHAT_TRACE, CHAT_OBSERVATIONS);
    v3.addObservations([...MAY, UNPRICED]);
    try {
      const a = JSON.parse((await runInProcess(['cost', 'report', '--month', '2026-05', '--by', 'model,release', '--json'], { env })).stdout);
      const b = await runInProcess(['cost', 'report', '--month', '2026-05', '--by', 'model,release', '--json', '--verbose'], { env: envFor(v3) });
      expect(b.exitCode).toBe(0);
      expect(b.stderr).toContain('asking the v1 metrics API instead');
      expect(JSON.parse(b.stdout).groups).toEqual(a.groups);
      expect(a.groups.find((g: { group: { release: string | null } }) => g.group.release === '1.4.0')).toBeDefined();
      expect(v3.requests.map((r) => r.path.split('?')[0])).toEqual(['/api/public/v2/metrics', '/api/public/metrics']);
      expect(v3.contractIssues).toEqual([]);
    } finally {
      await v3.close();
    }
  });

  it('draws a bar chart on a terminal', async () => {
    const tty = await runInProcess(['cost', 'report', '--month', '2026-05', '--by', 'model'], { env: { ...env, FORCE_COLOR: '0' }, tty: true });
    expect(tty.exitCode).toBe(0);
    const bars = tty.stdout.split('\n').filter((l) => l.includes('█'));
    expect(bars.length).toBeGreaterThanOrEqual(3);
    expect(bars[0]).toMatch(/^\S.*█+.*\$[\d.]+$/);
    expect(tty.stdout).toMatch(/^total\s+\$[\d.]+\s+100\.0%/m);
  });
});

describe('cost recompute', () => {
  let dir: string;
  let file: string;
  beforeAll(async () => {
    dir = tempDir();
    file = join(dir, 'may.jsonl');
    const exported = await llmobs(['observations', 'export', '--output', file], { env });
    expect(exported.exitCode).toBe(0);
  });

  it('gives per model what estimate --batch gives for the same exported lines, and the stored cost next to it', async () => {
    const result = await llmobs(['cost', 'recompute', '--offline', '--input', file, '--json'], { env });
    expect(result.exitCode).toBe(0);
    const models = JSON.parse(result.stdout) as Array<{ model: string; generations: number; storedCost: number; recomputedCost: number; difference: number; unmatchedNow: number; unmatchedBefore: number }>;
    const batch = await llmobs(['estimate', '--batch', file, '--json', '--offline'], { env });
    const summary = JSON.parse(batch.stdout.trimEnd().split('\n').at(-1)!).summary;
    for (const m of summary.models) {
      const mine = models.find((x) => x.model === m.model)!;
      expect(mine.generations, m.model).toBe(m.generations);
      expect(mine.recomputedCost, m.model).toBeCloseTo(m.totalCost, 12);
    }
    // Spans and events without a model or cost are not generations.
    expect(models.reduce((s, m) => s + m.generations, 0)).toBe(ALL.filter((o) => o.providedModelName).length);
    const gpt = models.find((m) => m.model === 'gpt-4o')!;
    expect(gpt.storedCost).toBeCloseTo(costOf(ALL.filter((o) => o.providedModelName === 'gpt-4o')), 12);
    expect(gpt.difference).toBe(0);
    expect(models.find((m) => m.model === 'my-own-model')).toMatchObject({ unmatchedNow: 750, unmatchedBefore: 750, recomputedCost: 0 });
    expect(models.find((m) => m.model === 'acme-large')).toMatchObject({ unmatchedNow: 1, unmatchedBefore: 1 });
  });

  it('prices with new definitions from their start date on, writes one line per generation, and says what matches nothing', async () => {
    const models = join(dir, 'prices.yaml');
    writeFileSync(models, [
      '- modelName: gpt-4o-cheaper',
      "  matchPattern: '(?i)^gpt-4o$'",
      '  startDate: 2026-05-16T00:00:00Z',
      '  unit: TOKENS',
      '  inputPrice: 0.000001',
      '  outputPrice: 0.000004',
      '- modelName: my-own-model',
      "  matchPattern: '(?i)^my-own-model$'",
      '  unit: TOKENS',
      '  inputPrice: 0.000002',
      '  outputPrice: 0.000008',
    ].join('\n'));
    const out = join(dir, 'per-generation.jsonl');
    const dated = await llmobs(['cost', 'recompute', '--offline', '--input', file, '--models-file', models, '--output', out, '--json'], { env });
    expect(dated.exitCode).toBe(0);
    const gpt = (JSON.parse(dated.stdout) as Array<{ model: string; definitions: string[]; recomputedCost: number; storedCost: number }>).find((m) => m.model === 'gpt-4o')!;
    expect(gpt.definitions).toEqual(['gpt-4o', 'gpt-4o-cheaper']);
    const lines = readFileSync(out, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(ALL.filter((o) => o.providedModelName).length);
    const early = lines.find((l) => l.model === 'gpt-4o' && l.startTime < '2026-05-16');
    const late = lines.find((l) => l.model === 'gpt-4o' && l.startTime >= '2026-05-16');
    expect(Object.keys(early)).toEqual(['id', 'traceId', 'startTime', 'model', 'definition', 'storedCost', 'recomputedCost', 'difference']);
    expect([early.definition, early.difference]).toEqual(['gpt-4o', 0]);
    expect(late.definition).toBe('gpt-4o-cheaper');
    expect(late.recomputedCost).toBeLessThan(late.storedCost);
    const sum = lines.filter((l) => l.model === 'gpt-4o').reduce((s, l) => s + l.recomputedCost, 0);
    expect(gpt.recomputedCost).toBeCloseTo(sum, 12);

    const server_ = await runInProcess(['cost', 'recompute', '--offline', '--input', file, '--models-file', models, '--ignore-start-dates', '--json'], { env });
    const all = (JSON.parse(server_.stdout) as Array<{ model: string; definitions: string[] }>).find((m) => m.model === 'gpt-4o')!;
    expect(all.definitions).toEqual(['gpt-4o-cheaper']);

    const text = await runInProcess(['cost', 'recompute', '--offline', '--input', file, '--models-file', models], { env });
    expect(text.stderr).toContain('no definition matches "acme-large" (1)');
    expect(text.stderr).toMatch(/Matched no definition when ingested: .*"my-own-model" \(750\).*"my-own-model" has one now/);
  });

  it('reads the same generations from the API', async () => {
    const before = server.requests.length;
    const fromApi = JSON.parse((await llmobs(['cost', 'recompute', '--offline', '--from', '2026-04-01', '--to', '2026-07-01', '--json'], { env })).stdout) as Array<{ model: string; recomputedCost: number; generations: number }>;
    const fromFile = JSON.parse((await runInProcess(['cost', 'recompute', '--offline', '--input', file, '--json'], { env })).stdout) as typeof fromApi;
    expect(fromApi.map((m) => [m.model, m.generations, m.recomputedCost])).toEqual(fromFile.map((m) => [m.model, m.generations, m.recomputedCost]));
    const q = new URL(server.requests.slice(before).find((r) => r.path.startsWith('/api/public/v2/observations'))!.path, 'http://x').searchParams;
    expect([q.get('type'), q.get('fields'), q.get('fromStartTime'), q.get('toStartTime')]).toEqual(['GENERATION', 'core,basic,time,io,metadata,model,usage', '2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z']);
  });

  it('refuses what it cannot read, saying why', async () => {
    const csv = join(dir, 'x.csv');
    writeFileSync(csv, 'id,providedModelName\ng1,gpt-4o\n');
    const fromCsv = await llmobs(['cost', 'recompute', '--offline', '--input', csv], { env });
    expect(fromCsv.exitCode).toBe(2);
    expect(fromCsv.stderr).toContain('CSV cannot carry usage maps');
    expect((await runInProcess(['cost', 'recompute', '--offline', '--input', join(dir, 'missing.jsonl')], { env })).exitCode).toBe(6);
    expect((await runInProcess(['cost', 'recompute', '--offline', '--input', file, '--from', '7d'], { env })).exitCode).toBe(2);
    const mixed = join(dir, 'mixed.jsonl');
    writeFileSync(mixed, `${readFileSync(file, 'utf8').split('\n').slice(0, 3).join('\n')}\nnot json\n`);
    const partly = await llmobs(['cost', 'recompute', '--offline', '--input', mixed, '--json'], { env });
    expect(partly.exitCode).toBe(2);
    expect(partly.stderr).toContain('line 4: not a JSON object');
    expect(JSON.parse(partly.stdout).length).toBeGreaterThan(0);
  });
});
