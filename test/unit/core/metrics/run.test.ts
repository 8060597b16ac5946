// The metrics engine over rows of the observations view, without HTTP or a store: grouping,
// measures, aggregations and their types, filters, time buckets, order and limit; and, as
// properties, against a plain reference of the same grouping and sums.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MetricsRow, MetricsQueryError, parseMetricsQuery, runMetricsQuery, sumOfKeys } from '../../../../src/core/metrics/index.js';
import { at, metricsRow } from './support/metrics-rows.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const ROWS: MetricsRow[] = [
  metricsRow({
    id: 'o1',
    traceId: 't1',
    name: 'chat',
    providedModelName: 'gpt-4o',
    startTime: at(10 * HOUR),
    endTime: at(10 * HOUR + 2000),
    usageDetails: { input: 10, Input_Cached: 2, output: 5, total: 17 },
    costDetails: { input: 0.001, output: 0.002, total: 0.003 },
    totalCost: 0.003,
    metadata: { step: 2, kind: 'first' },
    traceName: 'support',
    userId: 'u1',
    tags: ['a', 'b'],
  }),
  metricsRow({
    id: 'o2',
    traceId: 't2',
    name: 'chat',
    providedModelName: 'claude-x',
    startTime: at(10 * HOUR + 30 * 60_000),
    completionStartTime: at(10 * HOUR + 30 * 60_000 + 500),
    endTime: at(10 * HOUR + 30 * 60_000 + 3000),
    usageDetails: { input: 100, output: 50, total: 150 },
    costDetails: { total: 0.01 },
    totalCost: 0.01,
    traceName: 'support',
    userId: 'u2',
    tags: ['a'],
  }),
  metricsRow({ id: 'o3', type: 'SPAN', name: 'retrieve', startTime: at(11 * HOUR + 30 * 60_000), environment: 'staging' }),
  // At the end of the range: outside it.
  metricsRow({ id: 'o4', providedModelName: 'gpt-4o', startTime: at(DAY), totalCost: 1, userId: 'u1' }),
];

const run = (query: Record<string, unknown>, rows: Iterable<MetricsRow> = ROWS) =>
  runMetricsQuery(parseMetricsQuery(JSON.stringify({ view: 'observations', fromTimestamp: at(0), toTimestamp: at(DAY), ...query })), rows);
const count = [{ measure: 'count', aggregation: 'count' }];

describe('runMetricsQuery', () => {
  // Without an orderBy the first metric sorts, descending, nulls last (QueryBuilder
  // .validateAndProcessOrderBy in packages/shared/src/features/query/server/queryBuilder.ts;
  // ClickHouse's ORDER BY puts NULL last in either direction).
  // An observation without a cost has a total cost of 0 in the events table (cost_details['total'],
  // eventsObservationsView in packages/shared/src/features/query/dataModel.ts), so its group sums to 0.
  it('groups by a dimension, with 64-bit integers as strings and decimals as numbers; a group without costs sums to 0', () => {
    const answer = run({
      dimensions: [{ field: 'providedModelName' }],
      metrics: [
        { measure: 'totalCost', aggregation: 'sum' },
        { measure: 'inputTokens', aggregation: 'sum' },
        { measure: 'outputTokens', aggregation: 'sum' },
        { measure: 'totalTokens', aggregation: 'sum' },
        { measure: 'count', aggregation: 'count' },
      ],
    });
    expect(answer).toEqual([
      { providedModelName: 'claude-x', sum_totalCost: 0.01, sum_inputTokens: '100', sum_outputTokens: '50', sum_totalTokens: '150', count_count: '1' },
      { providedModelName: 'gpt-4o', sum_totalCost: 0.003, sum_inputTokens: '12', sum_outputTokens: '5', sum_totalTokens: '17', count_count: '1' },
      { providedModelName: null, sum_totalCost: 0, sum_inputTokens: '0', sum_outputTokens: '0', sum_totalTokens: '0', count_count: '1' },
    ]);
  });

  // No GROUP BY in the service's query: ClickHouse answers one row over no rows, with its
  // aggregates' values over an empty set (Nullable columns give null, the others zero, NaN null).
  it('answers one row over no rows without dimensions or buckets, with ClickHouse’s empty aggregates', () => {
    const metrics = [
      { measure: 'count', aggregation: 'count' },
      { measure: 'totalCost', aggregation: 'sum' },
      { measure: 'inputCost', aggregation: 'sum' },
      { measure: 'inputTokens', aggregation: 'sum' },
      { measure: 'latency', aggregation: 'max' },
      { measure: 'latency', aggregation: 'avg' },
      { measure: 'latency', aggregation: 'p95' },
      { measure: 'traceId', aggregation: 'uniq' },
      { measure: 'totalTokens', aggregation: 'histogram' },
    ];
    const empty = { count_count: '0', sum_totalCost: null, sum_inputCost: 0, sum_inputTokens: '0', max_latency: null, avg_latency: null, p95_latency: null, uniq_traceId: '0', histogram_totalTokens: [] };
    expect(run({ metrics }, [])).toEqual([empty]);
    // Filtered down to nothing: the same row.
    expect(run({ metrics, filters: [{ column: 'name', operator: '=', value: 'none', type: 'string' }] })).toEqual([empty]);
    // With a dimension there are no groups, hence no rows.
    expect(run({ metrics, dimensions: [{ field: 'name' }] }, [])).toEqual([]);
  });

  it('reads latencies in milliseconds and skips what an observation lacks', () => {
    const [row] = run({
      metrics: [
        { measure: 'latency', aggregation: 'avg' },
        { measure: 'latency', aggregation: 'count' },
        { measure: 'latency', aggregation: 'max' },
        { measure: 'timeToFirstToken', aggregation: 'p50' },
        { measure: 'streamingLatency', aggregation: 'sum' },
        { measure: 'tokensPerSecond', aggregation: 'avg' },
        { measure: 'uniqueUserIds', aggregation: 'uniq' },
        { measure: 'inputCost', aggregation: 'sum' },
      ],
    });
    expect(row).toEqual({
      avg_latency: 2500,
      count_latency: '2',
      max_latency: '3000',
      p50_timeToFirstToken: 500,
      sum_streamingLatency: '2500',
      avg_tokensPerSecond: (17 / 2 + 150 / 3) / 2,
      uniq_uniqueUserIds: '2',
      sum_inputCost: 0.001,
    });
  });

  it('fills every time bucket of the range in order when there is no orderBy', () => {
    const answer = run({ metrics: count, timeDimension: { granularity: 'hour' } });
    expect(answer).toHaveLength(24);
    expect(answer.slice(9, 12)).toEqual([
      { time_dimension: '2026-03-01T09:00:00Z', count_count: '0' },
      { time_dimension: '2026-03-01T10:00:00Z', count_count: '2' },
      { time_dimension: '2026-03-01T11:00:00Z', count_count: '1' },
    ]);
    // A bucket without rows holds WITH FILL's default of each column's type: NULL for an
    // aggregate of a Nullable column (latency, totalCost), else zero.
    const days = run({
      metrics: [{ measure: 'totalCost', aggregation: 'sum' }, { measure: 'latency', aggregation: 'histogram' }, { measure: 'latency', aggregation: 'avg' }, { measure: 'inputCost', aggregation: 'sum' }, { measure: 'inputTokens', aggregation: 'avg' }],
      timeDimension: { granularity: 'day' },
      toTimestamp: at(3 * DAY),
    });
    expect(days).toEqual([
      { time_dimension: '2026-03-01', sum_totalCost: 0.003 + 0.01, histogram_latency: [[2000, 2500, 1], [2500, 3000, 1]], avg_latency: 2500, sum_inputCost: 0.001, avg_inputTokens: (12 + 100 + 0) / 3 },
      { time_dimension: '2026-03-02', sum_totalCost: 1, histogram_latency: [], avg_latency: null, sum_inputCost: 0, avg_inputTokens: 0 },
      { time_dimension: '2026-03-03', sum_totalCost: null, histogram_latency: [], avg_latency: null, sum_inputCost: 0, avg_inputTokens: 0 },
    ]);
  });

  // A Nullable column's sum, minimum and maximum over a group whose values are all NULL are
  // NULL in ClickHouse (latency without an end time, time to first token without a completion
  // start); a column that is never NULL sums to zero.
  it('answers null for sum, min and max of a nullable measure over a group without values', () => {
    const answer = run({
      dimensions: [{ field: 'type' }],
      metrics: ['sum', 'min', 'max'].flatMap((aggregation) => ['latency', 'timeToFirstToken', 'streamingLatency', 'tokensPerSecond'].map((measure) => ({ measure, aggregation }))).concat({ measure: 'inputTokens', aggregation: 'sum' }),
      filters: [{ column: 'type', operator: '=', value: 'SPAN', type: 'string' }],
    });
    expect(answer).toEqual([
      {
        type: 'SPAN',
        sum_latency: null, sum_timeToFirstToken: null, sum_streamingLatency: null, sum_tokensPerSecond: null,
        min_latency: null, min_timeToFirstToken: null, min_streamingLatency: null, min_tokensPerSecond: null,
        max_latency: null, max_timeToFirstToken: null, max_streamingLatency: null, max_tokensPerSecond: null,
        sum_inputTokens: '0',
      },
    ]);
    // A group with one value answers it.
    expect(run({ dimensions: [{ field: 'type' }], metrics: [{ measure: 'timeToFirstToken', aggregation: 'sum' }], filters: [{ column: 'type', operator: '=', value: 'GENERATION', type: 'string' }] })).toEqual([{ type: 'GENERATION', sum_timeToFirstToken: '500' }]);
  });

  it('sorts by orderBy (64-bit integer strings by value, nulls last either way) instead of filling, then cuts at the row limit', () => {
    const byUser = run({ dimensions: [{ field: 'userId' }], metrics: [{ measure: 'inputTokens', aggregation: 'sum' }], orderBy: [{ field: 'sum_inputTokens', direction: 'desc' }], config: { row_limit: 10 } });
    expect(byUser.map((row) => row.userId)).toEqual(['u2', 'u1', null]);
    const byModel = run({ dimensions: [{ field: 'providedModelName' }], metrics: count, orderBy: [{ field: 'providedModelName', direction: 'asc' }], config: { row_limit: 2 } });
    expect(byModel).toEqual([
      { providedModelName: 'claude-x', count_count: '1' },
      { providedModelName: 'gpt-4o', count_count: '1' },
    ]);
    expect(run({ dimensions: [{ field: 'providedModelName' }], metrics: count, orderBy: [{ field: 'providedModelName', direction: 'desc' }] }).map((row) => row.providedModelName)).toEqual(['gpt-4o', 'claude-x', null]);
    const hourly = run({ metrics: count, timeDimension: { granularity: 'hour' }, orderBy: [{ field: 'count_count', direction: 'desc' }] });
    expect(hourly).toEqual([
      { time_dimension: '2026-03-01T10:00:00Z', count_count: '2' },
      { time_dimension: '2026-03-01T11:00:00Z', count_count: '1' },
    ]);
  });

  it('filters on dimensions, the start time, metadata and tags', () => {
    // `id` is a high-cardinality dimension: a top-N query (row limit, descending on a measure).
    const ids = (filters: unknown[]) =>
      run({ dimensions: [{ field: 'id' }], metrics: count, filters, orderBy: [{ field: 'count_count', direction: 'desc' }, { field: 'id', direction: 'asc' }], config: { row_limit: 100 } }).map((row) => row.id);
    expect(ids([{ column: 'name', type: 'string', operator: 'starts with', value: 'ret' }])).toEqual(['o3']);
    expect(ids([{ column: 'providedModelName', type: 'stringOptions', operator: 'none of', value: ['gpt-4o'] }])).toEqual(['o2', 'o3']);
    expect(ids([{ column: 'tags', type: 'arrayOptions', operator: 'all of', value: ['a', 'b'] }])).toEqual(['o1']);
    expect(ids([{ column: 'tags', type: 'arrayOptions', operator: 'any of', value: ['a'] }])).toEqual(['o1', 'o2']);
    expect(ids([{ column: 'metadata', type: 'stringObject', key: 'step', operator: '=', value: '2' }])).toEqual(['o1']);
    expect(ids([{ column: 'start_time', type: 'datetime', operator: '>=', value: at(10 * HOUR + 1) }])).toEqual(['o2', 'o3']);
    expect(ids([{ column: 'userId', type: 'null', operator: 'is null', value: '' }])).toEqual(['o3']);
    expect(ids([{ column: 'environment', type: 'string', operator: '=', value: 'staging' }])).toEqual(['o3']);
    // A column ending in "Name" that the view does not know: the service filters the name.
    expect(ids([{ column: 'observationName', type: 'string', operator: '=', value: 'chat' }])).toEqual(['o1', 'o2']);
  });

  // QueryBuilder.validateFilters and mapMetrics: an unknown "…Name" column is the `name`
  // dimension, a string; a measure of type string takes count and uniq only.
  it('refuses, before any row, a filter type the dimension does not take and an aggregation the measure does not take', () => {
    const filters = [{ column: 'observationName', type: 'number', operator: '=', value: 1 }];
    expect(() => run({ metrics: count, filters }, [])).toThrow(
      new MetricsQueryError("Invalid filter for field 'observationName': Filter type 'number' is not supported for dimension type 'string'. Expected 'string' or 'stringOptions'."),
    );
    expect(() => run({ metrics: [{ measure: 'traceId', aggregation: 'histogram' }] }, [])).toThrow(
      new MetricsQueryError('Aggregation "histogram" is not valid for measure "traceId" (type: string). Valid aggregations: count, uniq'),
    );
  });
});

// Rows with a few models, users and types, in and around a two-day range.
const rowArbitrary = fc
  .record({
    model: fc.constantFrom('gpt-4o', 'claude', null),
    user: fc.constantFrom('u1', 'u2', 'u3', null),
    type: fc.constantFrom('GENERATION', 'SPAN', 'EVENT'),
    offset: fc.integer({ min: -DAY, max: 3 * DAY }),
    usage: fc.dictionary(fc.constantFrom('input', 'Input_Cached', 'output', 'output_reasoning', 'total', 'other'), fc.nat({ max: 10_000 })),
    cost: fc.option(fc.integer({ min: 0, max: 1_000_000 }).map((n) => n / 1_000_000)),
  });

type RowSeed = typeof rowArbitrary extends fc.Arbitrary<infer T> ? T : never;

const toRows = (seeds: RowSeed[]) =>
  seeds.map((seed, i) =>
    metricsRow({
      id: `o${i}`,
      startTime: at(seed.offset),
      type: seed.type,
      providedModelName: seed.model,
      userId: seed.user,
      usageDetails: seed.usage,
      costDetails: seed.cost === null ? {} : { total: seed.cost },
      totalCost: seed.cost,
    }),
  );

const DIMENSION_FIELDS = { providedModelName: (r: MetricsRow) => r.observation.providedModelName, userId: (r: MetricsRow) => r.userId, type: (r: MetricsRow) => r.observation.type };

describe('runMetricsQuery, as properties', () => {
  it('groups and sums as a plain reference does: every row of the range counted once, in the group of its dimensions', () => {
    const fields = fc.subarray(Object.keys(DIMENSION_FIELDS) as Array<keyof typeof DIMENSION_FIELDS>);
    const excluded = fc.subarray(['GENERATION', 'SPAN', 'EVENT']);
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 60 }), fields, excluded, (seeds, dims, none) => {
        const rows = toRows(seeds);
        const filters = none.length ? [{ column: 'type', type: 'stringOptions', operator: 'none of', value: none }] : [];
        const answer = run({
          dimensions: dims.map((field) => ({ field })),
          metrics: [
            { measure: 'count', aggregation: 'count' },
            { measure: 'inputTokens', aggregation: 'sum' },
            { measure: 'totalCost', aggregation: 'sum' },
          ],
          filters,
          toTimestamp: at(2 * DAY),
          orderBy: [{ field: 'count_count', direction: 'desc' }],
          config: { row_limit: 1000 },
        }, rows);

        const reference = new Map<string, { count: number; input: number; costs: number[] }>();
        for (const row of rows) {
          const t = Date.parse(row.observation.startTime);
          if (t < Date.parse(at(0)) || t >= Date.parse(at(2 * DAY)) || none.includes(row.observation.type)) continue;
          const key = JSON.stringify(dims.map((d) => DIMENSION_FIELDS[d](row)));
          const entry = reference.get(key) ?? { count: 0, input: 0, costs: [] };
          entry.count++;
          for (const [k, v] of Object.entries(row.observation.usageDetails)) if (k.toLowerCase().includes('input')) entry.input += v;
          entry.costs.push(row.observation.totalCost ?? 0);
          reference.set(key, entry);
        }
        // Without dimensions the answer has one row even over no rows, as the service's.
        if (dims.length === 0 && reference.size === 0) reference.set('[]', { count: 0, input: 0, costs: [] });
        expect(answer).toHaveLength(reference.size);
        for (const row of answer) {
          const entry = reference.get(JSON.stringify(dims.map((d) => row[d])))!;
          expect(row.count_count).toBe(String(entry.count));
          expect(row.sum_inputTokens).toBe(String(entry.input));
          if (entry.costs.length === 0) expect(row.sum_totalCost).toBeNull();
          else expect(row.sum_totalCost).toBeCloseTo(entry.costs.reduce((a, b) => a + b, 0), 12);
        }
      }),
    );
  });

  it('answers every bucket of the range once, in order, with the rows counted in their bucket (up to the row limit)', () => {
    const granularity = fc.constantFrom('minute', 'hour', 'day', 'week', 'month');
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 40 }), granularity, fc.integer({ min: 1, max: 90 * DAY }), fc.integer({ min: 1, max: 200 }), (seeds, unit, length, limit) => {
        const rows = toRows(seeds);
        const answer = run({ metrics: count, timeDimension: { granularity: unit }, toTimestamp: at(length), config: { row_limit: limit } }, rows);
        const buckets = answer.map((row) => row.time_dimension as string);
        expect([...buckets].sort()).toEqual(buckets);
        expect(new Set(buckets).size).toBe(buckets.length);
        expect(answer.length).toBeLessThanOrEqual(limit);
        const inRange = rows.filter((r) => r.observation.startTime >= at(0) && r.observation.startTime < at(length));
        // With all the buckets answered, every row of the range is counted.
        if (answer.length < limit) expect(answer.reduce((sum, row) => sum + Number(row.count_count), 0)).toBe(inRange.length);
      }),
    );
  });

  it('cuts a sorted answer at the row limit: the first rows of the answer without a limit', () => {
    fc.assert(
      fc.property(fc.array(rowArbitrary, { maxLength: 60 }), fc.integer({ min: 1, max: 10 }), fc.constantFrom('asc', 'desc'), (seeds, limit, direction) => {
        const rows = toRows(seeds);
        const query = { dimensions: [{ field: 'providedModelName' }, { field: 'type' }], metrics: [{ measure: 'totalTokens', aggregation: 'sum' }], orderBy: [{ field: 'sum_totalTokens', direction }] };
        const whole = run({ ...query, config: { row_limit: 1000 } }, rows);
        const values = whole.map((row) => Number(row.sum_totalTokens));
        expect(values).toEqual([...values].sort((a, b) => (direction === 'asc' ? a - b : b - a)));
        expect(run({ ...query, config: { row_limit: limit } }, rows)).toEqual(whole.slice(0, limit));
      }),
    );
  });
});

describe('sumOfKeys', () => {
  it('sums the keys that contain the part in any case, and nothing that is not a finite number', () => {
    expect(sumOfKeys({ input: 1, Input_Cached: 2, cache_read_input_tokens: 4, output: 8 }, 'input')).toBe(7);
    expect(sumOfKeys({ input: Number.NaN, input_x: '3' as unknown as number }, 'input')).toBe(0);
    expect(sumOfKeys(null, 'input')).toBe(0);
  });

  it('splits a map: the keys with the part and the keys without add up to the whole, whatever their case', () => {
    const key = fc.stringMatching(/^[a-zA-Z_]{0,12}$/);
    fc.assert(
      fc.property(fc.dictionary(key, fc.nat({ max: 1_000_000 })), (details) => {
        const without = Object.entries(details).filter(([k]) => !k.toLowerCase().includes('input')).reduce((sum, [, v]) => sum + v, 0);
        const whole = Object.values(details).reduce((sum, v) => sum + v, 0);
        expect(sumOfKeys(details, 'input') + without).toBe(whole);
        const upper = Object.fromEntries(Object.entries(details).map(([k, v]) => [k.toUpperCase(), v]));
        if (Object.keys(upper).length === Object.keys(details).length) expect(sumOfKeys(upper, 'input')).toBe(sumOfKeys(details, 'input'));
      }),
    );
  });
});
