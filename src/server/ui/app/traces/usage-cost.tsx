// Usage and cost of one observation per usage type, with the model definition that priced it and
// the pricing tier chosen, and that tier's price for each usage type.
import { api } from '../api.js';
import { formatCost, formatNumber } from '../format.js';
import { useData } from '../parts/use-data.js';
import { href } from '../router.js';
import type { Observation } from './observation-tree.js';

interface Tier {
  id: string;
  name: string;
  isDefault: boolean;
  prices: Record<string, number>;
}

interface Model {
  id: string;
  modelName: string;
  matchPattern: string;
  isLangfuseManaged: boolean;
  pricingTiers: Tier[];
}

export function UsageCost({ observation }: { observation: Observation }) {
  const modelId = observation.modelId;
  const { data: model } = useData(modelId ?? '', () => (modelId ? api.get<Model>(`/api/public/models/${encodeURIComponent(modelId)}`) : Promise.resolve(undefined)));
  const keys = [...new Set([...Object.keys(observation.usageDetails), ...Object.keys(observation.costDetails)])];
  if (keys.length === 0 && !modelId) return null;
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
      <table class="grid">
        <thead>
          <tr>
            <th>Usage type</th>
            <th class="num">Units</th>
            <th class="num">Price per 1M</th>
            <th class="num">Cost</th>
          </tr>
        </thead>
        <tbody>
          {keys.map((key) => (
            <tr>
              <td>{key}</td>
              <td class="num">{formatNumber(observation.usageDetails[key])}</td>
              <td class="num">{tier?.prices[key] !== undefined ? `$${Number((tier.prices[key]! * 1e6).toPrecision(6))}` : ''}</td>
              <td class="num">{formatCost(observation.costDetails[key])}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
