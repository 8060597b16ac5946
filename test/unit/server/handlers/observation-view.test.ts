// The v2 object written from a page row (input, output and metadata pasted as stored) against
// JSON.stringify of observationV2 over the whole record: the same text, for any stored values,
// field groups, trace and prices.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OBSERVATION_FIELD_GROUPS, observationV2, observationV2Json, type Prices } from '../../../../src/server/handlers/observation-view.js';
import type { ObservationRecord, TraceRecord } from '../../../../src/server/records.js';
import { Store } from '../../../../src/server/store/index.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
// Strings with quotes, backslashes, control characters, line separators and astral characters.
const text = fc.string({ unit: fc.constantFrom('a', 'é', '"', '\\', '\n', '\u0000', '\u2028', '😀', '/', 'llmobs-') });
const value = fc.oneof(text, fc.jsonValue(), fc.constant(null), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.dictionary(text, fc.jsonValue()));

const observation = fc.record({
  name: fc.option(text, { nil: null }),
  input: fc.option(value, { nil: undefined }),
  output: fc.option(value, { nil: undefined }),
  metadata: fc.option(fc.oneof(fc.dictionary(text, fc.jsonValue()), fc.constant(null)), { nil: undefined }),
  totalCost: fc.option(fc.double({ min: 0, max: 10, noNaN: true }), { nil: null }),
  ms: fc.option(fc.integer({ min: 0, max: 10_000_000 }), { nil: null }),
  parent: fc.boolean(),
  traced: fc.boolean(),
});

describe('observationV2Json', () => {
  it('writes the same text as observationV2 over the whole record', () => {
    fc.assert(
      fc.property(fc.array(observation, { minLength: 1, maxLength: 8 }), fc.subarray([...OBSERVATION_FIELD_GROUPS]), fc.boolean(), (drawn, groups, priced) => {
        const { store } = Store.open({ now: () => new Date(T0) });
        try {
          const trace: TraceRecord = {
            id: 't1', projectId: 'p', timestamp: iso(T0), name: 'chat', userId: 'u1', sessionId: null, release: 'r1', version: null, environment: 'default',
            public: true, bookmarked: false, tags: ['a'], metadata: {}, input: null, output: null, createdAt: iso(T0), updatedAt: iso(T0),
          };
          const records = drawn.map((o, i): ObservationRecord => {
            const record: ObservationRecord = {
              id: `o${i}`, projectId: 'p', traceId: o.traced ? 't1' : null, parentObservationId: o.parent ? 'o0' : null, type: 'GENERATION', name: o.name,
              environment: 'default', startTime: iso(T0 + i), endTime: o.ms === null ? null : iso(T0 + i + o.ms), completionStartTime: null, level: 'DEFAULT',
              statusMessage: null, version: null, input: o.input, output: o.output, metadata: o.metadata as Record<string, unknown>, providedModelName: 'm',
              internalModelId: priced ? 'model-1' : null, modelParameters: { temperature: 0.2 }, providedUsageDetails: {}, providedCostDetails: {},
              usageDetails: { input: 1 }, costDetails: { total: o.totalCost ?? 0 }, totalCost: o.totalCost, usagePricingTierId: null, usagePricingTierName: null,
              promptId: null, promptName: null, promptVersion: null, createdAt: iso(T0), updatedAt: iso(T0),
            };
            // A key left undefined is not stored, as JSON.stringify leaves it out.
            return JSON.parse(JSON.stringify(record)) as ObservationRecord;
          });
          store.write((tx) => {
            tx.traces.put(trace);
            for (const record of records) tx.observations.put(record);
          });
          const prices: Prices | undefined = priced ? { input: 0.0000025, output: 1e-5, total: null } : undefined;
          const rows = store.read((tx) => tx.observations.pageRows({}, undefined, 100, { io: groups.includes('io'), metadata: groups.includes('metadata') }));
          const whole = store.read((tx) => tx.observations.page({}, undefined, 100));
          expect(rows.length).toBe(records.length);
          rows.forEach((row, i) => {
            const traceOf = (id: string | null) => (id === 't1' ? trace : undefined);
            const { json, observation: rest } = observationV2Json(row, groups, traceOf, () => prices);
            expect(json).toBe(JSON.stringify(observationV2(whole[i]!, groups, traceOf(whole[i]!.traceId), prices)));
            expect(rest.id).toBe(whole[i]!.id);
          });
        } finally {
          store.close();
        }
      }),
      { numRuns: 150 },
    );
  });
});
