// "Test model match" answers with the definition, tier and cost that `llmobs estimate` computes
// from the same definitions: the project's own first, then the catalogue.
import { afterEach, describe, expect, it } from 'vitest';
import { engineCounter } from '../../../../src/tokenizer/index.js';
import { estimate } from '../../../../src/core/estimate.js';
import { ROUTES } from '../../../../src/server/index.js';
import { projectDefinitions } from '../../../../src/server/handlers/models.js';
import { Store } from '../../../../src/server/store/index.js';
import { internalApi } from '../../../../src/server/ui/internal-api.js';
import { testModelMatch } from '../../../../src/server/ui/model-match.js';

const opened: Store[] = [];
afterEach(() => {
  for (const store of opened.splice(0)) store.close();
});

function api() {
  const now = () => new Date('2026-11-27T12:00:00.000Z');
  const { store } = Store.open({ now });
  opened.push(store);
  return internalApi(ROUTES, { store, now, apiVersion: '4.35.0', writeMode: 'events_only' });
}

interface Answer {
  match: { matched: boolean; winner: { modelName: string; source: string } | null; losers: Array<{ modelName: string }> };
  pricingTier: { name: string } | null;
  totalCost: number | null;
  costDetails: Record<string, number>;
}

describe('testModelMatch', () => {
  it('matches the catalogue, and a project definition before it, with its tier and cost', () => {
    const ui = api();
    const builtIn = testModelMatch(ui, { model: 'gpt-4o', usage: { input: 1000, output: 100 } }).body as Answer;
    expect(builtIn.match.winner).toMatchObject({ modelName: 'gpt-4o', source: 'built-in' });
    const created = ui.call('POST', '/api/public/models', undefined, {
      modelName: 'my-gpt-4o',
      matchPattern: '(?i)^gpt-4o$',
      unit: 'TOKENS',
      pricingTiers: [
        { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000001, output: 0.000002 } },
        { name: 'Priority', isDefault: false, priority: 1, conditions: [{ source: 'model_parameters', key: 'service_tier', operator: 'in', values: ['priority'] }], prices: { input: 0.00001, output: 0.00002 } },
      ],
    });
    expect(created.status).toBe(200);
    const definitions = ui.context.store.read((tx) => projectDefinitions(tx));
    for (const modelParameters of [undefined, { service_tier: 'priority' }]) {
      const body = { model: 'gpt-4o', usage: { input: 1000, output: 100 }, modelParameters };
      const answer = testModelMatch(ui, body).body as Answer;
      const expected = estimate(body, { definitions, count: engineCounter });
      expect(answer.match.winner).toMatchObject({ modelName: 'my-gpt-4o', source: 'custom' });
      expect(answer.match.losers.map((l) => l.modelName)).toContain('gpt-4o');
      expect(answer.pricingTier?.name).toBe(expected.pricingTier);
      expect(answer.totalCost).toBe(expected.totalCost);
      expect(answer.costDetails).toEqual(expected.costDetails);
    }
    expect((testModelMatch(ui, { model: 'gpt-4o', usage: { input: 1000 }, modelParameters: { service_tier: 'priority' } }).body as Answer).pricingTier?.name).toBe('Priority');
  });

  it('says when nothing matches, and refuses what is not a request', () => {
    const ui = api();
    expect((testModelMatch(ui, { model: 'no-such-model-anywhere' }).body as Answer).match.matched).toBe(false);
    expect(testModelMatch(ui, { usage: {} }).status).toBe(400);
    expect(testModelMatch(ui, { model: 'gpt-4o', usage: [1] }).status).toBe(400);
    expect(testModelMatch(ui, null).status).toBe(400);
  });
});
