// A v1 observation in the v2 shape (web/src/features/public-api/types/observations.ts:
// APIObservation, transformDbToApiObservation, APIObservationV2).
import { describe, expect, it } from 'vitest';
import { FIELD_GROUPS, GROUP_NAMES } from '../../../../src/core/observations/fields.js';
import { v1AsV2 } from '../../../../src/core/observations/v1-as-v2.js';

const V1 = {
  id: 'o1', traceId: 't1', projectId: 'p', environment: 'default', type: 'GENERATION', startTime: '2026-05-01T10:00:00.000Z', endTime: '2026-05-01T10:00:01.000Z',
  name: 'llm', metadata: { k: 'v' }, parentObservationId: null, level: 'DEFAULT', statusMessage: null, version: null, createdAt: 'c', updatedAt: 'u',
  model: 'gpt-4o', modelParameters: { temperature: 0 }, input: [{ role: 'user', content: 'hi' }], output: 'hello', completionStartTime: null,
  promptId: null, promptName: null, promptVersion: null, latency: 1, timeToFirstToken: null, usageDetails: { input: 10, output: 2, total: 12 },
  costDetails: { total: 0.5 }, usagePricingTierId: 'tier', usagePricingTierName: 'Standard', calculatedInputCost: null, calculatedOutputCost: null,
  calculatedTotalCost: 0.5, unit: 'TOKENS', inputPrice: 0.0000025, outputPrice: 0.00001, totalPrice: null, promptTokens: 10, completionTokens: 2,
  totalTokens: 12, modelId: 'm1', usage: { unit: 'TOKENS', input: 10, output: 2, total: 12 },
};

describe('v1AsV2', () => {
  it('gives the fields of the groups asked for, under their v2 names, io as raw text', () => {
    const all = v1AsV2(V1, GROUP_NAMES);
    expect(Object.keys(all).sort()).toEqual(GROUP_NAMES.flatMap((group) => [...FIELD_GROUPS[group]]).sort());
    expect(all).toMatchObject({ providedModelName: 'gpt-4o', internalModelId: 'm1', totalCost: 0.5, input: '[{"role":"user","content":"hi"}]', output: 'hello', isRootObservation: true, modelId: 'm1', inputPrice: '0.0000025', totalPrice: null });
    // What v1 leaves out of its objects.
    expect(all).toMatchObject({ userId: null, sessionId: null, traceName: null, tags: [], release: null });
  });

  it('fills the enrichment fields only with the model group, and has no cost where v1 says 0 for none', () => {
    const core = v1AsV2({ ...V1, costDetails: {}, calculatedTotalCost: 0 }, ['core', 'usage']);
    expect(Object.keys(core)).toEqual([...FIELD_GROUPS.core, ...FIELD_GROUPS.usage, 'modelId', 'inputPrice', 'outputPrice', 'totalPrice']);
    expect(core).toMatchObject({ totalCost: null, modelId: null, inputPrice: null });
  });
});
