// Settings → Model Definitions, as on Langfuse: every definition the project prices with (its
// own and the Langfuse-maintained ones), searchable, with prices per unit, 1K or 1M units; add,
// edit and delete the project's own, clone a Langfuse one, and test which one a name matches.
// "Last used" is the start time of the model's latest generation, empty for a model never used.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatPrice, formatTime } from '../format.js';
import { useData } from '../parts/use-data.js';
import { href } from '../router.js';
import { ModelForm } from './model-form.js';
import { TestMatch } from './test-match.js';
import { type Model, PRICE_UNITS } from './types.js';

/** Every page of GET /api/public/models. */
export async function allModels(): Promise<Model[]> {
  const models: Model[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.get<{ data: Model[]; meta: { totalPages: number } }>('/api/public/models', { page, limit: 100 });
    models.push(...answer.data);
    if (page >= answer.meta.totalPages || answer.data.length === 0) return models;
  }
}

/** When each model was last used (the start of its latest generation), by model id. */
async function lastUsedByModel(): Promise<Map<string, string>> {
  const answer = await api.get<{ data: Array<{ modelId: string; lastUsed: string }> }>('/ui/api/models/last-used');
  return new Map(answer.data.map((entry) => [entry.modelId, entry.lastUsed]));
}

type Editing = { mode: 'add' } | { mode: 'edit'; model: Model } | { mode: 'clone'; model: Model };

export function ModelsPage() {
  const { data, error, reload } = useData('models', allModels);
  const lastUsed = useData('models-last-used', lastUsedByModel);
  const [search, setSearch] = useState('');
  const [unit, setUnit] = useState<(typeof PRICE_UNITS)[number]['id']>('1m');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [testing, setTesting] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const scale = PRICE_UNITS.find((u) => u.id === unit)!.scale;
  const needle = search.trim().toLowerCase();
  const shown = (data ?? []).filter((m) => !needle || m.modelName.toLowerCase().includes(needle) || m.matchPattern.toLowerCase().includes(needle));

  const remove = async (model: Model) => {
    if (!window.confirm(`Delete the model definition "${model.modelName}"?`)) return;
    try {
      await api.delete(`/api/public/models/${encodeURIComponent(model.id)}`);
      setMessage(`Deleted "${model.modelName}".`);
      reload();
    } catch (e) {
      setMessage(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <section>
      <h1>Model Definitions</h1>
      <p class="muted">What generations are priced with: a definition's match pattern picks it for a model name, its pricing tiers give the price of each usage type. The project's own definitions come before the Langfuse-maintained ones.</p>
      <div class="toolbar">
        <label>
          Search
          <input type="search" value={search} onInput={(e) => setSearch((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Prices
          <select value={unit} onChange={(e) => setUnit((e.target as HTMLSelectElement).value as typeof unit)}>
            {PRICE_UNITS.map((u) => (
              <option value={u.id}>{u.label}</option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => setTesting(true)}>
          Test model match
        </button>
        <button type="button" class="primary" onClick={() => setEditing({ mode: 'add' })}>
          Add model definition
        </button>
      </div>
      {message ? <p role="status">{message}</p> : null}
      {testing ? <TestMatch onClose={() => setTesting(false)} /> : null}
      {editing ? (
        <ModelForm
          key={editing.mode === 'add' ? 'add' : `${editing.mode}-${editing.model.id}`}
          mode={editing.mode}
          model={editing.mode === 'add' ? undefined : editing.model}
          onCancel={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            setMessage(`Saved "${saved.modelName}".`);
            reload();
          }}
        />
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      <table class="grid" aria-label="Model definitions">
        <thead>
          <tr>
            <th>Model name</th>
            <th>Maintainer</th>
            <th>Match pattern</th>
            <th>Prices {PRICE_UNITS.find((u) => u.id === unit)!.label}</th>
            <th>Tokenizer</th>
            <th title="Start time of the latest generation using this model">Last used</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((model) => {
            const tier = model.pricingTiers.find((t) => t.isDefault) ?? model.pricingTiers[0];
            return (
              <tr>
                <td class="mono">
                  <a href={href(['models', model.id])}>{model.modelName}</a>
                </td>
                <td>{model.isLangfuseManaged ? 'Langfuse' : 'User'}</td>
                <td class="mono">{model.matchPattern}</td>
                <td>
                  {Object.entries(tier?.prices ?? {}).map(([type, price]) => (
                    <div>
                      {type}: {formatPrice(price, scale)}
                    </div>
                  ))}
                  {model.pricingTiers.length > 1 ? <div class="muted">+{model.pricingTiers.length - 1} more tiers</div> : null}
                </td>
                <td>{model.tokenizerId ?? ''}</td>
                <td data-testid="last-used">{formatTime(lastUsed.data?.get(model.id))}</td>
                <td>
                  {model.isLangfuseManaged ? (
                    <button type="button" aria-label={`Clone ${model.modelName}`} onClick={() => setEditing({ mode: 'clone', model })}>
                      Clone
                    </button>
                  ) : (
                    <>
                      <button type="button" aria-label={`Edit ${model.modelName}`} onClick={() => setEditing({ mode: 'edit', model })}>
                        Edit
                      </button>{' '}
                      <button type="button" class="danger" aria-label={`Delete ${model.modelName}`} onClick={() => void remove(model)}>
                        Delete
                      </button>
                    </>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {data && shown.length === 0 ? <p>No model definition matches the search.</p> : null}
    </section>
  );
}
