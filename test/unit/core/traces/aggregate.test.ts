// A trace made of its observations as Langfuse v4 makes one: EVENTS_AGGREGATION_FIELDS in
// packages/shared/src/server/queries/clickhouse-sql/event-query-builder.ts and the trace name
// of packages/shared/src/eventsTable.ts (eventsTableTraceNameAggregationSql).
import { describe, expect, it } from 'vitest';
import { TraceAggregate } from '../../../../src/core/traces/aggregate.js';

const o = (fields: Record<string, unknown>) => ({ traceId: 't', parentObservationId: null, startTime: '2026-05-01T10:00:00.000Z', endTime: null, updatedAt: '2026-05-01T10:00:05.000Z', ...fields });

describe('TraceAggregate', () => {
  it('takes the latest non-empty value, the root\'s input and output, the sum of costs and the span of times', () => {
    const aggregate = new TraceAggregate();
    aggregate.add(o({ id: 'root', name: 'handle', input: 'in', output: 'out', startTime: '2026-05-01T10:00:00.000Z', endTime: '2026-05-01T10:00:02.000Z', userId: 'u-old', tags: ['a'], updatedAt: '2026-05-01T10:00:01.000Z' }));
    aggregate.add(o({ id: 'child', parentObservationId: 'root', name: 'llm', input: 'child in', startTime: '2026-05-01T10:00:01.000Z', endTime: '2026-05-01T10:00:04.000Z', userId: 'u-new', tags: [], totalCost: '0.25', environment: '' }));
    aggregate.add(o({ id: 'late', parentObservationId: 'root', startTime: '2026-05-01T10:00:06.000Z', totalCost: 0.5, environment: 'prod', updatedAt: '2026-05-01T10:00:00.000Z' }));
    expect(aggregate.fields()).toMatchObject({
      // No trace name was sent: the root's name.
      name: 'handle',
      timestamp: '2026-05-01T10:00:00.000Z',
      input: 'in',
      output: 'out',
      userId: 'u-new',
      tags: ['a'],
      environment: 'prod',
      // greatest(max(start_time), max(end_time)) - min(start_time)
      latency: 6,
      totalCost: 0.75,
      rootObservationId: 'root',
    });
  });

  it('prefers a trace name to a root\'s name, and has no input without a root', () => {
    const aggregate = new TraceAggregate();
    aggregate.add(o({ id: 'orphan', parentObservationId: 'gone', name: 'step', traceName: 'checkout', input: 'x' }));
    expect(aggregate.fields()).toMatchObject({ name: 'checkout', input: null, output: null, rootObservationId: null, totalCost: null });
    expect(aggregate.fields({ input: 'read apart', output: null, metadata: {} })).toMatchObject({ input: 'read apart', metadata: {} });
  });
});
