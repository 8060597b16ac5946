// Cost reports from Metrics API rows.
import { describe, expect, it } from 'vitest';
import { buildQuery, buildReport, bucketTime, checkBudget, checkRequest, type ReportRequest } from '../../../../src/core/spend/report.js';
import { metricsQueryProblem } from '../../../helpers/contract-data.js';

const request = (over: Partial<ReportRequest> = {}): ReportRequest => ({
  from: new Date('2026-05-01T00:00:00Z'),
  to: new Date('2026-05-04T00:00:00Z'),
  by: ['model'],
  time: null,
  types: null,
  environments: [],
  ...over,
});

describe('the metrics query', () => {
  it('is one query the server accepts, for every grouping', () => {
    for (const by of [[], ['model'], ['user'], ['model', 'environment', 'prompt', 'name', 'type', 'trace', 'release', 'level']] as const) {
      for (const time of by.includes('user' as never) ? [null] : ([null, 'day', 'hour', 'week', 'month'] as const)) {
        const query = buildQuery(request({ by: [...by], time, environments: ['production'], types: time === 'hour' ? ['GENERATION'] : null }));
        expect(metricsQueryProblem(JSON.stringify(query)), JSON.stringify({ by, time })).toBeNull();
      }
    }
  });

  it('asks for cost, tokens and count, the largest answer, top-N by cost, and leaves out spans and events', () => {
    const query = buildQuery(request({ by: ['user'] }));
    expect(query.dimensions).toEqual([{ field: 'userId' }]);
    expect(query.metrics.map((m) => `${m.aggregation}_${m.measure}`)).toEqual(['sum_totalCost', 'sum_inputTokens', 'sum_outputTokens', 'count_count']);
    expect(query.filters).toEqual([{ column: 'type', operator: 'none of', value: ['SPAN', 'EVENT'], type: 'stringOptions' }]);
    expect(query.orderBy).toEqual([{ field: 'sum_totalCost', direction: 'desc' }]);
    expect(query.config.row_limit).toBe(1000);
    expect([query.fromTimestamp, query.toTimestamp]).toEqual(['2026-05-01T00:00:00.000Z', '2026-05-04T00:00:00.000Z']);
  });

  it('refuses what the API would refuse, before anything is sent', () => {
    expect(checkRequest(request({ by: ['user'], time: 'day' }))).toContain('cannot be combined');
    expect(checkRequest(request({ from: new Date('2026-05-04T00:00:00Z') }))).toContain('empty');
    expect(checkRequest(request())).toBeNull();
  });
});

describe('the report', () => {
  it('groups rows, reads numeric strings, sorts by cost and fills every day of the range', () => {
    const rows = [
      { providedModelName: 'gpt-4o', time_dimension: '2026-05-01 00:00:00', sum_totalCost: '1.5', sum_inputTokens: '1000', sum_outputTokens: '100', count_count: '10' },
      { providedModelName: 'gpt-4o', time_dimension: '2026-05-03T00:00:00Z', sum_totalCost: 0.5, sum_inputTokens: 500, sum_outputTokens: 50, count_count: 5 },
      { providedModelName: null, time_dimension: '2026-05-03T00:00:00.000Z', sum_totalCost: '3', sum_inputTokens: '0', sum_outputTokens: '0', count_count: '1' },
      { providedModelName: 'broken', sum_totalCost: 'n/a', count_count: 'x' },
    ];
    const report = buildReport(request({ time: 'day' }), rows);
    expect(report.total).toEqual({ cost: 5, inputTokens: 1500, outputTokens: 150, count: 16 });
    expect(report.groups.map((g) => [g.group.model, g.cost, g.share])).toEqual([[null, 3, 0.6], ['gpt-4o', 2, 0.4]]);
    expect(report.buckets.map((b) => [b.bucket.slice(0, 10), b.cost])).toEqual([['2026-05-01', 1.5], ['2026-05-02', 0], ['2026-05-03', 3.5]]);
    expect(report.unreadable).toBe(1);
    expect(report.truncated).toBe(false);
  });

  it('breaks ties in the order of the text, the same in every locale', () => {
    const rows = ['b', 'a', 'B', 'é', 'e'].map((model) => ({ providedModelName: model, sum_totalCost: 1, count_count: 1 }));
    // Code-unit order: capitals before small letters, accented letters last (a collator would say a, b, B, e, é).
    expect(buildReport(request(), rows).groups.map((g) => g.group.model)).toEqual(['B', 'a', 'b', 'e', 'é']);
  });

  it('says when the answer may be cut', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => ({ providedModelName: `m${i}`, sum_totalCost: 1, count_count: 1 }));
    expect(buildReport(request(), rows).truncated).toBe(true);
  });

  it('reads bucket times in the forms ClickHouse sends them', () => {
    expect(bucketTime('2026-05-01 00:00:00')).toBe('2026-05-01T00:00:00.000Z');
    expect(bucketTime('2026-05-01')).toBe('2026-05-01T00:00:00.000Z');
    expect(bucketTime('2026-05-01T10:00:00+02:00')).toBe('2026-05-01T08:00:00.000Z');
    expect(bucketTime('garbage')).toBeNull();
  });

  it('checks a budget', () => {
    expect(checkBudget(120, 100)).toMatchObject({ exceeded: true, over: 20, used: 1.2 });
    expect(checkBudget(100, 100)).toMatchObject({ exceeded: false, over: 0 });
    expect(checkBudget(0.000000000001 + 100, 100).exceeded).toBe(false);
  });
});
