// One model definition: its configuration and every pricing tier with its conditions and prices
// per unit, 1K and 1M units.
import { api } from '../api.js';
import { formatPrice, formatTime } from '../format.js';
import { JsonView } from '../parts/json-view.js';
import { useData } from '../parts/use-data.js';
import { href } from '../router.js';
import { conditionText, type Model, PRICE_UNITS } from './types.js';

export function ModelPage({ id }: { id: string }) {
  const { data: model, error } = useData(id, () => api.get<Model>(`/api/public/models/${encodeURIComponent(id)}`));
  if (error) return <p role="alert">{error}</p>;
  if (!model) return <p aria-busy="true">Loading…</p>;
  return (
    <section>
      <p>
        <a href={href(['models'])}>← Model Definitions</a>
      </p>
      <h1 class="mono">{model.modelName}</h1>
      <dl class="facts">
        <dt>Maintainer</dt>
        <dd>{model.isLangfuseManaged ? 'Langfuse' : 'User'}</dd>
        <dt>Match pattern</dt>
        <dd class="mono">{model.matchPattern}</dd>
        <dt>Start date</dt>
        <dd>{model.startDate ? formatTime(model.startDate) : 'none'}</dd>
        <dt>Unit</dt>
        <dd>{model.unit}</dd>
        <dt>Tokenizer</dt>
        <dd>{model.tokenizerId ?? 'none'}</dd>
        <dt>ID</dt>
        <dd class="mono">{model.id}</dd>
      </dl>
      {model.tokenizerConfig ? <JsonView value={model.tokenizerConfig} label="Tokenizer config" /> : null}
      <h2>Pricing</h2>
      {[...model.pricingTiers].sort((a, b) => a.priority - b.priority).map((tier) => (
        <section aria-label={`Pricing tier ${tier.name}`}>
          <h3>
            {tier.name} {tier.isDefault ? <span class="badge">default</span> : <span class="badge">priority {tier.priority}</span>}
          </h3>
          {tier.conditions.length > 0 ? (
            <ul>
              {tier.conditions.map((c) => (
                <li>{conditionText(c)}</li>
              ))}
            </ul>
          ) : null}
          <table class="grid">
            <thead>
              <tr>
                <th>Usage type</th>
                {PRICE_UNITS.map((u) => (
                  <th class="num">{u.label}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {Object.entries(tier.prices).map(([type, price]) => (
                <tr>
                  <td>{type}</td>
                  {PRICE_UNITS.map((u) => (
                    <td class="num">{formatPrice(price, u.scale)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}
