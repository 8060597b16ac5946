// The observations view aggregated in SQL against the metrics engine over the same stored rows:
// the same groups, in the same order, with the same values (float sums within rounding: SQLite
// compensates its sums). Random stores with ties in start times and models, random queries: from
// a seeded generator, and as a fast-check property that shrinks a failure to a small store.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { finishMetricsQuery, type MetricsQuery, parseMetricsQuery, queryRange, runMetricsQuery } from '../../../../src/core/metrics/index.js';
import type { ObservationRecord, TraceRecord } from '../../../../src/server/records.js';
import { Store } from '../../../../src/server/store/index.js';
import { pick, type Rng, rng } from '../../../helpers/rng.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

function seed(r: Rng): Store {
  const { store } = Store.open({ now: () => new Date(T0) });
  store.write((tx) => {
    const traces = ['t1', 't2', 't3', 't4'];
    for (const [i, id] of traces.entries()) {
      const trace: TraceRecord = {
        id, projectId: 'p', timestamp: iso(T0), name: pick(r, ['chat', 'batch', null, '']), userId: pick(r, ['u1', 'u2', null]), sessionId: pick(r, ['s1', null]),
        release: pick(r, ['r1', null]), version: pick(r, ['v1', null]), environment: 'default', public: false, bookmarked: false,
        tags: pick(r, [[], ['a'], ['a', 'b'], ['b']]), metadata: {}, input: null, output: null, createdAt: iso(T0), updatedAt: iso(T0 + i),
      };
      tx.traces.put(trace);
    }
    const count = 20 + Math.floor(r() * 60);
    for (let i = 0; i < count; i++) {
      // Few distinct times, so that rows and groups tie on them.
      const start = T0 + Math.floor(r() * 6) * 3_600_000 * pick(r, [1, 7, 30]);
      const usage: Record<string, number> = r() < 0.8 ? { input: Math.floor(r() * 500), output: Math.floor(r() * 90), total: Math.floor(r() * 600) } : {};
      const cost: Record<string, number> = r() < 0.7 ? { input: r() / 1000, output: r() / 300, total: r() / 100 } : {};
      const observation: ObservationRecord = {
        id: `o${(i * 37) % 101}-${i}`, projectId: 'p', traceId: pick(r, [...traces, null, 'missing']), parentObservationId: r() < 0.5 ? null : 'o1',
        type: pick(r, ['GENERATION', 'SPAN', 'EVENT']), name: pick(r, ['llm', 'tool', null, '']), environment: pick(r, ['default', 'production', '']),
        startTime: iso(start), endTime: r() < 0.8 ? iso(start + Math.floor(r() * 5000)) : null, completionStartTime: r() < 0.5 ? iso(start + Math.floor(r() * 2000)) : null,
        level: pick(r, ['DEFAULT', 'ERROR']), statusMessage: null, version: pick(r, ['1', null]), input: null, output: null, metadata: { k: pick(r, ['v', 'w']) },
        providedModelName: pick(r, ['gpt-4o', 'claude-x', null]), internalModelId: null, modelParameters: null, providedUsageDetails: usage, providedCostDetails: cost,
        usageDetails: usage, costDetails: cost, totalCost: cost.total ?? null, usagePricingTierId: null, usagePricingTierName: null, promptId: null,
        promptName: pick(r, ['p1', null]), promptVersion: pick(r, [1, 2, null]), createdAt: iso(start), updatedAt: iso(start),
      };
      tx.observations.put(observation);
    }
  });
  return store;
}

const DIMENSIONS = ['providedModelName', 'name', 'type', 'level', 'environment', 'traceName', 'tags', 'release', 'traceVersion', 'promptName', 'promptVersion', 'startTimeMonth', 'version'];
const MEASURES = ['count', 'latency', 'streamingLatency', 'inputTokens', 'outputTokens', 'totalTokens', 'outputTokensPerSecond', 'tokensPerSecond', 'inputCost', 'outputCost', 'totalCost', 'timeToFirstToken'];
const AGGREGATIONS = ['sum', 'avg', 'count', 'max', 'min', 'p50', 'p90', 'p99', 'histogram', 'uniq'];

function randomFilter(r: Rng): unknown {
  switch (Math.floor(r() * 6)) {
    case 0:
      return { column: pick(r, ['providedModelName', 'name', 'promptVersion', 'traceName', 'environment']), type: 'string', operator: pick(r, ['=', 'contains', 'does not contain', 'starts with', 'ends with']), value: pick(r, ['gpt', 'llm', '1', '', 'x', 'chat', 'production']) };
    case 1:
      return { column: pick(r, ['type', 'providedModelName', 'userId', 'promptVersion', 'modelName']), type: 'stringOptions', operator: pick(r, ['any of', 'none of']), value: pick(r, [['GENERATION'], ['gpt-4o', 'claude-x'], ['u1'], ['1', '2'], ['tool']]) };
    case 2:
      return { column: 'tags', type: 'arrayOptions', operator: pick(r, ['any of', 'none of', 'all of']), value: pick(r, [['a'], ['a', 'b'], ['b'], []]) };
    case 3:
      return { column: pick(r, ['name', 'traceName', 'tags', 'promptVersion', 'environment', 'start_time']), type: 'null', operator: pick(r, ['is null', 'is not null']), value: '' };
    case 4:
      return { column: 'start_time', type: 'datetime', operator: pick(r, ['>', '<', '>=', '<=']), value: iso(T0 + Math.floor(r() * 6) * 3_600_000) };
    default:
      return { column: 'userId', type: 'string', operator: '=', value: pick(r, ['u1', 'u2', '']) };
  }
}

function randomQuery(r: Rng): MetricsQuery {
  const dimensions = DIMENSIONS.filter(() => r() < 0.15).map((field) => ({ field }));
  const metrics = Array.from({ length: 1 + Math.floor(r() * 3) }, () => {
    const measure = pick(r, [...MEASURES, 'traceId', 'uniqueUserIds']);
    const aggregation = measure === 'traceId' || measure === 'uniqueUserIds' ? pick(r, ['count', 'uniq']) : pick(r, AGGREGATIONS);
    return { measure, aggregation };
  });
  const query: Record<string, unknown> = {
    view: 'observations',
    dimensions,
    metrics,
    filters: Array.from({ length: Math.floor(r() * 3) }, () => randomFilter(r)),
    fromTimestamp: iso(T0 - 3_600_000),
    toTimestamp: iso(T0 + pick(r, [2, 30, 400]) * 86_400_000),
    // Histograms of more values than twice the bins depend on the order values come in.
    config: { bins: 100, row_limit: 1000 },
  };
  if (r() < 0.3) query['timeDimension'] = { granularity: pick(r, ['hour', 'day', 'week', 'month', 'auto']) };
  // Some draws are queries the service refuses (an empty list with "any of"): draw again.
  try {
    return parseMetricsQuery(JSON.stringify(query));
  } catch {
    return randomQuery(r);
  }
}

function expectSameAnswer(sql: unknown, engine: unknown, path = 'answer'): void {
  if (typeof engine === 'number' && typeof sql === 'number') {
    expect(Math.abs(sql - engine), `${path}: ${sql} vs ${engine}`).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(engine)));
    return;
  }
  if (Array.isArray(engine) && Array.isArray(sql)) {
    expect(sql.length, path).toBe(engine.length);
    engine.forEach((value, i) => expectSameAnswer(sql[i], value, `${path}[${i}]`));
    return;
  }
  if (engine && typeof engine === 'object' && sql && typeof sql === 'object') {
    expect(Object.keys(sql), path).toEqual(Object.keys(engine));
    for (const key of Object.keys(engine)) expectSameAnswer((sql as Record<string, unknown>)[key], (engine as Record<string, unknown>)[key], `${path}.${key}`);
    return;
  }
  expect(sql, path).toEqual(engine);
}

describe('the observations view in SQL', () => {
  it('answers as the engine over the same rows: groups, their order, and values', () => {
    for (let s = 1; s <= 12; s++) {
      const r = rng(s);
      const store = seed(r);
      for (let q = 0; q < 15; q++) {
        const query = randomQuery(r);
        const { from, to } = queryRange(query);
        const groups = store.read((tx) => tx.observations.metrics(query, from, to));
        expect(groups, JSON.stringify(query)).toBeDefined();
        const engine = store.read((tx) => runMetricsQuery(query, [...tx.observations.forMetrics(from, to)]));
        expectSameAnswer(finishMetricsQuery(query, groups!), engine, JSON.stringify(query));
      }
      store.close();
    }
  });

  it('answers as the engine on any store and query (property)', () => {
    const observation = fc.record({
      trace: fc.constantFrom('t1', 't2', 't3', null, 'missing'),
      hour: fc.integer({ min: 0, max: 5 }),
      days: fc.constantFrom(1, 7, 30),
      ms: fc.option(fc.integer({ min: 0, max: 5000 }), { nil: null }),
      ttft: fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
      type: fc.constantFrom('GENERATION', 'SPAN', 'EVENT'),
      name: fc.constantFrom('llm', 'tool', null, ''),
      environment: fc.constantFrom('default', 'production', ''),
      level: fc.constantFrom('DEFAULT', 'ERROR'),
      model: fc.constantFrom('gpt-4o', 'claude-x', null),
      prompt: fc.constantFrom(['p1', 1] as const, ['p1', 2] as const, [null, null] as const),
      usage: fc.option(fc.record({ input: fc.nat(500), output: fc.nat(90), total: fc.nat(600) }), { nil: null }),
      cost: fc.option(fc.record({ input: fc.double({ min: 0, max: 1, noNaN: true }), output: fc.double({ min: 0, max: 1, noNaN: true }), total: fc.double({ min: 0, max: 1, noNaN: true }) }), { nil: null }),
    });
    const trace = fc.record({ name: fc.constantFrom('chat', 'batch', null, ''), userId: fc.constantFrom('u1', 'u2', null), tags: fc.constantFrom([], ['a'], ['a', 'b'], ['b']), release: fc.constantFrom('r1', null) });
    const query = fc.integer().map((seed) => randomQuery(rng(seed)));
    fc.assert(
      fc.property(fc.array(trace, { minLength: 3, maxLength: 3 }), fc.array(observation, { maxLength: 40 }), fc.array(query, { minLength: 1, maxLength: 4 }), (traces, observations, queries) => {
        const { store } = Store.open({ now: () => new Date(T0) });
        try {
          store.write((tx) => {
            traces.forEach((t, i) => {
              tx.traces.put({
                id: `t${i + 1}`, projectId: 'p', timestamp: iso(T0), name: t.name, userId: t.userId, sessionId: null, release: t.release, version: null, environment: 'default',
                public: false, bookmarked: false, tags: [...t.tags], metadata: {}, input: null, output: null, createdAt: iso(T0), updatedAt: iso(T0),
              });
            });
            observations.forEach((o, i) => {
              const start = T0 + o.hour * 3_600_000 * o.days;
              const usage = o.usage ?? {};
              const cost = o.cost ?? {};
              tx.observations.put({
                id: `o${i}`, projectId: 'p', traceId: o.trace, parentObservationId: null, type: o.type, name: o.name, environment: o.environment,
                startTime: iso(start), endTime: o.ms === null ? null : iso(start + o.ms), completionStartTime: o.ttft === null ? null : iso(start + o.ttft),
                level: o.level, statusMessage: null, version: null, input: null, output: null, metadata: {}, providedModelName: o.model, internalModelId: null,
                modelParameters: null, providedUsageDetails: usage, providedCostDetails: cost, usageDetails: usage, costDetails: cost, totalCost: o.cost?.total ?? null,
                usagePricingTierId: null, usagePricingTierName: null, promptId: null, promptName: o.prompt[0], promptVersion: o.prompt[1], createdAt: iso(start), updatedAt: iso(start),
              });
            });
          });
          for (const q of queries) {
            const { from, to } = queryRange(q);
            const groups = store.read((tx) => tx.observations.metrics(q, from, to));
            expect(groups).toBeDefined();
            const engine = store.read((tx) => runMetricsQuery(q, [...tx.observations.forMetrics(from, to)]));
            expectSameAnswer(finishMetricsQuery(q, groups!), engine, JSON.stringify(q));
          }
        } finally {
          store.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('leaves a filter on metadata to the engine', () => {
    const store = seed(rng(1));
    const query = parseMetricsQuery(JSON.stringify({ view: 'observations', metrics: [{ measure: 'count', aggregation: 'count' }], filters: [{ column: 'metadata', type: 'stringObject', key: 'k', operator: '=', value: 'v' }], fromTimestamp: iso(T0), toTimestamp: iso(T0 + 86_400_000) }));
    const { from, to } = queryRange(query);
    expect(store.read((tx) => tx.observations.metrics(query, from, to))).toBeUndefined();
    store.close();
  });
});
