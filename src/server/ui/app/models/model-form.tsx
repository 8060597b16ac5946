// Add, edit or clone a model definition: name, match pattern, tokenizer, the usage types it
// prices, and its pricing tiers with their conditions and a price for each usage type. Prices are
// entered per 1M units and sent per unit, as the API takes them.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { type Condition, isUsageCondition, type Model, OPERATORS, type UsageCondition } from './types.js';

interface ConditionDraft {
  source: 'usage' | 'model_parameters' | 'metadata';
  pattern: string;
  operator: UsageCondition['operator'];
  value: string;
  caseSensitive: boolean;
  key: string;
  values: string;
}

interface TierDraft {
  name: string;
  isDefault: boolean;
  priority: string;
  conditions: ConditionDraft[];
  /** Per 1M units, as typed. */
  prices: Record<string, string>;
}

const MILLION = 1_000_000;
const perMillion = (price: number) => String(Number((price * MILLION).toPrecision(12)));
const perUnit = (text: string) => Number((Number(text) / MILLION).toPrecision(12));

function conditionDraft(c?: Condition): ConditionDraft {
  const empty: ConditionDraft = { source: 'usage', pattern: '', operator: 'gt', value: '', caseSensitive: false, key: '', values: '' };
  if (!c) return empty;
  if (isUsageCondition(c)) return { ...empty, pattern: c.usageDetailPattern, operator: c.operator, value: String(c.value), caseSensitive: c.caseSensitive ?? false };
  return { ...empty, source: c.source, key: c.key, values: c.values.join(', ') };
}

function condition(d: ConditionDraft): Condition {
  if (d.source === 'usage') return { usageDetailPattern: d.pattern, operator: d.operator, value: Number(d.value), caseSensitive: d.caseSensitive };
  return { source: d.source, key: d.key, operator: 'in', values: d.values.split(',').map((v) => v.trim()).filter(Boolean) };
}

const split = (text: string) => [...new Set(text.split(',').map((t) => t.trim()).filter(Boolean))];

export function ModelForm({ mode, model, onCancel, onSaved }: { mode: 'add' | 'edit' | 'clone'; model: Model | undefined; onCancel: () => void; onSaved: (model: Model) => void }) {
  const [modelName, setModelName] = useState(model?.modelName ?? '');
  const [matchPattern, setMatchPattern] = useState(model?.matchPattern ?? '');
  const [startDate, setStartDate] = useState(model?.startDate ? model.startDate.slice(0, 10) : '');
  const [tokenizerId, setTokenizerId] = useState(model?.tokenizerId ?? '');
  const [tokenizerConfig, setTokenizerConfig] = useState(model?.tokenizerConfig ? JSON.stringify(model.tokenizerConfig, null, 2) : '');
  const firstTiers = model?.pricingTiers ?? [];
  const [usageTypes, setUsageTypes] = useState((firstTiers.find((t) => t.isDefault)?.prices ? Object.keys(firstTiers.find((t) => t.isDefault)!.prices) : ['input', 'output']).join(', '));
  const [tiers, setTiers] = useState<TierDraft[]>(
    firstTiers.length > 0
      ? firstTiers.map((t) => ({ name: t.name, isDefault: t.isDefault, priority: String(t.priority), conditions: t.conditions.map(conditionDraft), prices: Object.fromEntries(Object.entries(t.prices).map(([k, v]) => [k, perMillion(v)])) }))
      : [{ name: 'Standard', isDefault: true, priority: '0', conditions: [], prices: {} }],
  );
  const [problem, setProblem] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const types = split(usageTypes);

  const updateTier = (i: number, change: Partial<TierDraft>) => setTiers(tiers.map((t, j) => (j === i ? { ...t, ...change } : t)));
  const updateCondition = (i: number, k: number, change: Partial<ConditionDraft>) =>
    updateTier(i, { conditions: tiers[i]!.conditions.map((c, j) => (j === k ? { ...c, ...change } : c)) });

  const submit = async (event: Event) => {
    event.preventDefault();
    setProblem(null);
    let config: unknown = null;
    if (tokenizerConfig.trim()) {
      try {
        config = JSON.parse(tokenizerConfig) as unknown;
      } catch {
        setProblem('Tokenizer config: not valid JSON.');
        return;
      }
    }
    const missing = tiers.flatMap((t) => types.filter((type) => (t.prices[type] ?? '').trim() === '' || Number.isNaN(Number(t.prices[type]))).map((type) => `${t.name}: ${type}`));
    if (missing.length > 0) {
      setProblem(`Give every tier a price for every usage type (missing: ${missing.join('; ')}).`);
      return;
    }
    const body = {
      modelName: modelName.trim(),
      matchPattern,
      startDate: startDate ? new Date(`${startDate}T00:00:00.000Z`).toISOString() : null,
      unit: 'TOKENS',
      tokenizerId: tokenizerId || null,
      tokenizerConfig: config,
      pricingTiers: tiers.map((t) => ({
        name: t.name.trim(),
        isDefault: t.isDefault,
        priority: t.isDefault ? 0 : Number(t.priority),
        conditions: t.isDefault ? [] : t.conditions.map(condition),
        prices: Object.fromEntries(types.map((type) => [type, perUnit(t.prices[type]!)])),
      })),
    };
    setSaving(true);
    try {
      const saved = mode === 'edit' && model ? await api.put<Model>(`/api/public/models/${encodeURIComponent(model.id)}`, body) : await api.post<Model>('/api/public/models', body);
      onSaved(saved);
    } catch (e) {
      setProblem(e instanceof Error ? e.message : String(e));
    } finally {
      setSaving(false);
    }
  };

  const title = mode === 'edit' ? `Edit ${model?.modelName ?? ''}` : mode === 'clone' ? `Clone ${model?.modelName ?? ''}` : 'Add model definition';
  return (
    <form class="panel" aria-label={title} onSubmit={submit}>
      <h2>{title}</h2>
      <div class="form-grid">
        <label>
          Model name
          <input required value={modelName} onInput={(e) => setModelName((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Match pattern
          <input required class="mono" value={matchPattern} placeholder="(?i)^(openai/)?(gpt-4o)$" onInput={(e) => setMatchPattern((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Start date (optional)
          <input type="date" value={startDate} onInput={(e) => setStartDate((e.target as HTMLInputElement).value)} />
        </label>
        <label>
          Tokenizer
          <select aria-label="Tokenizer" value={tokenizerId} onChange={(e) => setTokenizerId((e.target as HTMLSelectElement).value)}>
            <option value="">None</option>
            <option value="openai">openai</option>
            <option value="claude">claude</option>
          </select>
        </label>
      </div>
      <label class="wide">
        Tokenizer config (JSON)
        <textarea value={tokenizerConfig} placeholder='{"tokenizerModel": "gpt-4o"}' onInput={(e) => setTokenizerConfig((e.target as HTMLTextAreaElement).value)} />
      </label>
      <label class="wide">
        Usage types (comma-separated)
        <input value={usageTypes} onInput={(e) => setUsageTypes((e.target as HTMLInputElement).value)} />
      </label>
      {tiers.map((tier, i) => (
        <fieldset aria-label={`Pricing tier ${tier.name || i + 1}`}>
          <legend>Pricing tier {tier.isDefault ? '(default)' : i + 1}</legend>
          <div class="form-grid">
            <label>
              Tier name
              <input required value={tier.name} onInput={(e) => updateTier(i, { name: (e.target as HTMLInputElement).value })} />
            </label>
            {tier.isDefault ? null : (
              <label>
                Priority
                <input type="number" min="1" max="999" required value={tier.priority} onInput={(e) => updateTier(i, { priority: (e.target as HTMLInputElement).value })} />
              </label>
            )}
            {types.map((type) => (
              <label>
                {type} price per 1M units
                <input inputMode="decimal" value={tier.prices[type] ?? ''} onInput={(e) => updateTier(i, { prices: { ...tier.prices, [type]: (e.target as HTMLInputElement).value } })} />
              </label>
            ))}
          </div>
          {tier.isDefault ? null : (
            <>
              {tier.conditions.length === 0 ? <p class="muted">Non-default tiers require at least one condition.</p> : null}
              {tier.conditions.map((c, k) => (
                <div class="form-grid condition" role="group" aria-label={`Condition ${k + 1}`}>
                  <label>
                    Source
                    <select value={c.source} onChange={(e) => updateCondition(i, k, { source: (e.target as HTMLSelectElement).value as ConditionDraft['source'] })}>
                      <option value="usage">Usage details</option>
                      <option value="model_parameters">Model parameters</option>
                      <option value="metadata">Metadata</option>
                    </select>
                  </label>
                  {c.source === 'usage' ? (
                    <>
                      <label>
                        Usage type pattern
                        <input required class="mono" value={c.pattern} onInput={(e) => updateCondition(i, k, { pattern: (e.target as HTMLInputElement).value })} />
                      </label>
                      <label>
                        Operator
                        <select value={c.operator} onChange={(e) => updateCondition(i, k, { operator: (e.target as HTMLSelectElement).value as UsageCondition['operator'] })}>
                          {Object.entries(OPERATORS).map(([id, sign]) => (
                            <option value={id}>{sign}</option>
                          ))}
                        </select>
                      </label>
                      <label>
                        Value
                        <input type="number" required value={c.value} onInput={(e) => updateCondition(i, k, { value: (e.target as HTMLInputElement).value })} />
                      </label>
                      <label class="toggle">
                        <input type="checkbox" checked={c.caseSensitive} onChange={(e) => updateCondition(i, k, { caseSensitive: (e.target as HTMLInputElement).checked })} /> Case sensitive
                      </label>
                    </>
                  ) : (
                    <>
                      <label>
                        Key
                        <input required value={c.key} onInput={(e) => updateCondition(i, k, { key: (e.target as HTMLInputElement).value })} />
                      </label>
                      <label>
                        Values (any of, comma-separated)
                        <input required value={c.values} onInput={(e) => updateCondition(i, k, { values: (e.target as HTMLInputElement).value })} />
                      </label>
                    </>
                  )}
                  <button type="button" onClick={() => updateTier(i, { conditions: tier.conditions.filter((_, j) => j !== k) })}>
                    Remove condition
                  </button>
                </div>
              ))}
              <button type="button" onClick={() => updateTier(i, { conditions: [...tier.conditions, conditionDraft()] })}>
                Add condition
              </button>{' '}
              <button type="button" class="danger" onClick={() => setTiers(tiers.filter((_, j) => j !== i))}>
                Remove tier
              </button>
            </>
          )}
        </fieldset>
      ))}
      <p>
        <button type="button" onClick={() => setTiers([...tiers, { name: `Tier ${tiers.length + 1}`, isDefault: false, priority: String(tiers.length), conditions: [conditionDraft()], prices: {} }])}>
          Add pricing tier
        </button>
      </p>
      {problem ? <p role="alert">{problem}</p> : null}
      <p>
        <button type="submit" class="primary" disabled={saving}>
          Save model definition
        </button>{' '}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </p>
    </form>
  );
}
