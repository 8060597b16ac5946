// The per-trace numbers of traces list over the v2 APIs: one Metrics API v2 query that passes
// the service's high-cardinality rule (packages/shared/src/features/query/validateQuery.ts), and
// the count without the span Langfuse makes of a trace written in dual mode (`t-<traceId>`,
// convertTraceToStagingObservation in repositories/definitions.ts).
import { describe, expect, it } from 'vitest';
import { highCardinalityProblem, parseMetricsQuery } from '../../../../src/core/metrics/index.js';
import { observationCount, readTraceMetrics, traceMetricsQuery } from '../../../../src/core/traces/list-metrics.js';

describe('traceMetricsQuery', () => {
  it('is a top-N query grouped by traceId over the listed ids, from an hour before the earliest', () => {
    const query = traceMetricsQuery(['a', 'b'], new Date('2026-05-01T10:00:00Z'), new Date('2026-05-02T00:00:00Z'));
    expect(highCardinalityProblem(query)).toBeNull();
    expect(() => parseMetricsQuery(JSON.stringify(query))).not.toThrow();
    expect(query).toMatchObject({ fromTimestamp: '2026-05-01T09:00:00.000Z', toTimestamp: '2026-05-02T00:01:00.000Z', config: { row_limit: 2 }, filters: [{ column: 'traceId', operator: 'any of', value: ['a', 'b'], type: 'stringOptions' }] });
  });
});

describe('readTraceMetrics and observationCount', () => {
  it('read numbers sent as strings, latency in seconds, and leave out the synthetic trace span', () => {
    const metrics = readTraceMetrics([{ traceId: 'a', sum_totalCost: '0.5', count_count: '4', max_latency: '2500' }, { traceId: 'b', sum_totalCost: null, count_count: 1, max_latency: null }]);
    expect(metrics.get('a')).toEqual({ totalCost: 0.5, count: 4, longest: 2.5 });
    expect(metrics.get('b')).toEqual({ totalCost: null, count: 1, longest: null });
    expect(observationCount(metrics.get('a')!, 'a', ['t-a'])).toBe(3);
    expect(observationCount(metrics.get('a')!, 'a', ['root'])).toBe(4);
  });
});
