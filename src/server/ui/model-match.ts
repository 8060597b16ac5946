// "Test model match": a model name with usage, model parameters and metadata gives the definition
// it matches, why, the pricing tier and the cost. The same core as `llmobs models match` (the
// match and its view) and `llmobs estimate` (tier and cost), over the definitions ingestion
// prices with: the project's own and the built-in catalogue.
import { Decimal } from 'decimal.js';
import { estimate } from '../../core/estimate.js';
import { registerPatternEngine } from '../../core/models/engine-slot.js';
import { findModel } from '../../core/models/match.js';
import { matchView } from '../../core/models/match-view.js';
import { PATTERN_ENGINE } from '../../core/models/pattern.js';
import { useDecimal } from '../../core/precision.js';
import { engineCounter } from '../../tokenizer/index.js';
import { projectDefinitions } from '../handlers/models.js';
import type { ServerReply } from '../http/router.js';
import type { InternalApi } from './internal-api.js';

registerPatternEngine(PATTERN_ENGINE);
useDecimal(Decimal);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function testModelMatch(api: InternalApi, body: unknown): ServerReply {
  if (!isRecord(body) || typeof body.model !== 'string') return { status: 400, body: { message: 'model: the model name is required' } };
  for (const key of ['usage', 'modelParameters', 'metadata'] as const) {
    if (body[key] !== undefined && body[key] !== null && !isRecord(body[key])) return { status: 400, body: { message: `${key}: an object` } };
  }
  const model = body.model;
  const definitions = api.context.store.read((tx) => projectDefinitions(tx));
  const result = model === '' ? { model, winner: null, tiedWith: [], losers: [], unevaluated: [] } : findModel(model, definitions);
  const custom = definitions.filter((d) => !d.isLangfuseManaged).length;
  const view = matchView(result, { source: 'project', total: definitions.length, custom, builtIn: definitions.length - custom });
  let priced: ReturnType<typeof estimate> | undefined;
  try {
    priced = estimate({ model, usage: body.usage ?? undefined, modelParameters: body.modelParameters ?? undefined, metadata: body.metadata ?? undefined }, { definitions, count: engineCounter, match: () => result });
  } catch (error) {
    return { status: 400, body: { message: error instanceof Error ? error.message : String(error) } };
  }
  const tier = priced.explain.tier.tier;
  return {
    status: 200,
    body: {
      match: view,
      pricingTier: tier ? { id: tier.id, name: tier.name, isDefault: tier.isDefault } : null,
      usageDetails: priced.usageDetails,
      costDetails: priced.costDetails,
      totalCost: priced.totalCost,
      warnings: priced.warnings,
    },
  };
}
