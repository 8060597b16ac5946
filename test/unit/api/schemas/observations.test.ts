import { describe, expect, it } from 'vitest';

describe('the hand check of observations', () => {
  it('agrees with the zod schema it stands for, item by item', async () => {
    const { ObservationV2Schema, observationIssues } = await import('../../../../src/api/schemas/observations.js');
    const values = [undefined, null, 'x', '', 1, true, {}, []];
    const samples: unknown[] = [null, 'text', 3, [], { id: 1 }, {}];
    for (const id of values) for (const traceId of values) for (const type of values) samples.push({ id, traceId, type, startTime: '2026-05-01T00:00:00Z', extra: { any: 'thing' } });
    for (const startTime of values) for (const parentObservationId of values) samples.push({ id: 'a', startTime, parentObservationId });
    for (const sample of samples) {
      expect(observationIssues([sample]).length === 0, JSON.stringify(sample)).toBe(ObservationV2Schema.safeParse(sample).success);
    }
    expect(observationIssues([{ id: 'a' }, { id: 2 }, 'x', { id: 'b', type: 5 }])).toEqual(['data.1.id: expected a string', 'data.2: expected an object', 'data.3.type: expected a string or null']);
  });
});
