// Usage and cost of one observation per usage type, with the model definition that priced it and
// the pricing tier chosen, and that tier's price for each usage type.
import { api } from '../api.js';
import type { Model } from '../models/types.js';
import { useData } from '../parts/use-data.js';
import { UsageTable, usageTypes } from '../parts/usage-table.js';
import { href } from '../router.js';
import type { Observation } from './observation-tree.js';

export function UsageCost({ observation }: { observation: Observation }) {
  const modelId = observation.modelId;
  const { data: model } = useData(modelId ?? '', () => (modelId ? api.get<Model>(`/api/public/models/${encodeURIComponent(modelId)}`) : Promise.resolve(undefined)));
  if (usageTypes(observation.usageDetails, observation.costDetails).length === 0 && !modelId) return null;
  const tier = model?.pricingTiers.find((t) => t.id === observation.usagePricingTierId) ?? model?.pricingTiers.find((t) => t.name === observation.usagePricingTierName);
  return (
    <section aria-label="Usage and cost">
      <h3>Usage and cost</h3>
      <p>
        {modelId ? (
          <>
            Priced by{' '}
            <a href={href(['models', modelId])}>{model?.modelName ?? modelId}</a>
            {model ? ` (${model.isLangfuseManaged ? 'Langfuse' : 'user'} maintained, pattern ${model.matchPattern})` : ''}
            {observation.usagePricingTierName ? (
              <>
                , pricing tier <strong>{observation.usagePricingTierName}</strong>
              </>
            ) : null}
          </>
        ) : (
          'No model definition matched: no cost was computed.'
        )}
      </p>
      <UsageTable usage={observation.usageDetails} cost={observation.costDetails} withPrices prices={tier?.prices} />
    </section>
  );
}
