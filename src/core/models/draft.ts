import type { DefinitionIssue } from './issues.js';
import { error, warning } from './issues.js';
import type { KnownCondition, ModelDefinition, ModelUnit, PricingTier, PricingTierCondition } from './types.js';
import { flatPricesFromTiers, pricesFromTiers } from './types.js';

/**
 * A model definition as a user wrote it (file or flags), with field names already mapped to the
 * API's camelCase names but values not yet checked. `checkModelDraft` turns it into a `ModelDraft`.
 */
export interface ModelDraftInput {
  modelName: unknown;
  matchPattern: unknown;
  unit: unknown;
  startDate: unknown;
  tokenizerId: unknown;
  tokenizerConfig: unknown;
  /** Flat map usageType -> price, merged from `pricing`, `prices` and the input/output/total price fields. */
  prices: Record<string, unknown> | undefined;
  pricingTiers: unknown;
}

/** A tier to send: only the kinds of condition llmobs can check. */
export type PricingTierInput = Omit<PricingTier, 'id' | 'conditions'> & { conditions: KnownCondition[] };

/** A checked definition, ready to be turned into a request body or a local definition. */
export interface ModelDraft {
  modelName: string;
  matchPattern: string;
  unit: ModelUnit;
  startDate: string | null;
  tokenizerId: 'openai' | 'claude' | null;
  /** `undefined` means "not given" (omitted from the request), `null` is sent as null. */
  tokenizerConfig: unknown;
  /** Flat prices; empty when `pricingTiers` carries the prices. */
  prices: Record<string, number>;
  pricingTiers: PricingTierInput[] | null;
}

// Each API field and the spellings accepted for it in files. The first spelling is the API's.
const ALIASES = {
  modelName: ['modelName', 'name', 'model_name'],
  matchPattern: ['matchPattern', 'match_pattern'],
  unit: ['unit'],
  startDate: ['startDate', 'start_date'],
  tokenizerId: ['tokenizerId', 'tokenizer', 'tokenizer_id'],
  tokenizerConfig: ['tokenizerConfig', 'tokenization_config', 'tokenizer_config'],
  pricingTiers: ['pricingTiers', 'pricing_tiers'],
} as const;

const FLAT_PRICE_KEYS: Record<string, string> = {
  inputPrice: 'input',
  input_price: 'input',
  outputPrice: 'output',
  output_price: 'output',
  totalPrice: 'total',
  total_price: 'total',
};

// Read-only fields of the API shape: a definition fetched with GET can be fed back unchanged.
const READ_ONLY = new Set(['id', 'createdAt', 'created_at', 'updatedAt', 'updated_at', 'isLangfuseManaged', 'is_langfuse_managed', 'projectId', 'project_id']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Maps a definition written in the spec's snake_case shape, the API's camelCase shape, or a mix,
 * to API field names. Reports what the server would silently drop (unknown or misspelt keys).
 */
export function normalizeDraftInput(raw: unknown): { input: ModelDraftInput; issues: DefinitionIssue[] } {
  const issues: DefinitionIssue[] = [];
  const input: ModelDraftInput = {
    modelName: undefined,
    matchPattern: undefined,
    unit: undefined,
    startDate: undefined,
    tokenizerId: undefined,
    tokenizerConfig: undefined,
    prices: undefined,
    pricingTiers: undefined,
  };
  if (!isRecord(raw)) {
    issues.push(error('not-an-object', 'A model definition must be an object.'));
    return { input, issues };
  }
  const used = new Set<string>();
  for (const [field, spellings] of Object.entries(ALIASES) as [keyof typeof ALIASES, readonly string[]][]) {
    let seen: string | undefined;
    for (const key of spellings) {
      if (!(key in raw)) continue;
      used.add(key);
      if (seen === undefined) {
        seen = key;
        input[field] = raw[key];
      } else if (!sameValue(raw[seen], raw[key])) {
        issues.push(error('conflicting-fields', `"${seen}" and "${key}" both set ${field} to different values.`, field));
      }
    }
  }

  // A Map, so that usage types such as "toString" or "__proto__" are plain keys.
  const prices = new Map<string, unknown>();
  const addPrice = (usageType: string, value: unknown, from: string): void => {
    if (prices.has(usageType) && !sameValue(prices.get(usageType), value)) {
      issues.push(error('conflicting-fields', `The price of "${usageType}" is given twice with different values (${from}).`, `prices.${usageType}`));
      return;
    }
    prices.set(usageType, value);
  };
  for (const key of ['pricing', 'prices']) {
    if (!(key in raw)) continue;
    used.add(key);
    const map = raw[key];
    if (map === null || map === undefined) continue;
    if (!isRecord(map)) {
      issues.push(error('price-map-invalid', `"${key}" must map usage types to prices.`, 'prices'));
      continue;
    }
    for (const [usageType, value] of Object.entries(map)) {
      // The API's read shape wraps each price: {"input": {"price": 0.1}}.
      const price = isRecord(value) && Object.keys(value).length === 1 && 'price' in value ? value['price'] : value;
      addPrice(usageType, price, key);
    }
  }
  for (const [key, usageType] of Object.entries(FLAT_PRICE_KEYS)) {
    if (!(key in raw)) continue;
    used.add(key);
    if (raw[key] === null || raw[key] === undefined) continue;
    addPrice(usageType, raw[key], key);
  }
  if (prices.size > 0) input.prices = Object.fromEntries(prices);
  dropReadMirrors(input);

  for (const key of Object.keys(raw)) {
    if (used.has(key) || READ_ONLY.has(key)) continue;
    if (key === 'tokenizationConfig') {
      issues.push(
        error('misspelt-tokenizer-config', 'The server ignores "tokenizationConfig" without an error; the field is "tokenizerConfig".', 'tokenizerConfig'),
      );
    } else {
      issues.push(warning('unknown-field', `"${key}" is not a model field; the server would drop it silently.`, key));
    }
  }
  return { input, issues };
}

/**
 * A definition read from the API states its default tier's prices three times: in `pricingTiers`,
 * in `prices` and in the flat inputPrice/outputPrice/totalPrice mirrors. The copies are read-only,
 * not a second pricing approach, so a fetched definition can be fed back unchanged. Flat prices
 * that disagree with the default tier stay, and are reported as a conflict by the checks.
 */
function dropReadMirrors(input: ModelDraftInput): void {
  const tiers = input.pricingTiers;
  if (!Array.isArray(tiers) || input.prices === undefined) return;
  // Models created before pricing tiers existed are read with an empty tier list.
  if (tiers.length === 0) {
    input.pricingTiers = undefined;
    return;
  }
  const defaultTier = tiers.find((t) => isRecord(t) && t['isDefault'] === true) as Record<string, unknown> | undefined;
  const defaultPrices = defaultTier?.['prices'];
  if (!isRecord(defaultPrices)) return;
  const mirrors = Object.entries(input.prices).every(([usageType, price]) => Object.hasOwn(defaultPrices, usageType) && sameValue(defaultPrices[usageType], price));
  if (mirrors) input.prices = undefined;
}

/** The spec's snake_case shape of a model definition. */
export interface SpecModelDefinition {
  name: string;
  match_pattern: string;
  tokenizer?: string | null;
  tokenization_config?: unknown;
  pricing?: Record<string, number>;
  start_date?: string | null;
  unit?: ModelUnit | null;
}

/** Identity fields a local definition needs but a draft does not carry. */
export interface LocalIdentity {
  id?: string;
  createdAt?: string | null;
  isLangfuseManaged?: boolean;
}

function defaultTier(id: string, prices: Record<string, number>): PricingTier {
  return { id: `${id}_tier_default`, name: 'Standard', isDefault: true, priority: 0, conditions: [], prices };
}

function finishDefinition(
  base: Omit<ModelDefinition, 'prices' | 'inputPrice' | 'outputPrice' | 'totalPrice'>,
): ModelDefinition {
  return { ...base, ...flatPricesFromTiers(base.pricingTiers), prices: pricesFromTiers(base.pricingTiers) };
}

/**
 * Converts the spec's snake_case shape to the API shape, the way the server would store it:
 * `pricing` becomes the default "Standard" tier, and the flat price mirrors come from that tier.
 */
export function specToDefinition(spec: SpecModelDefinition, identity: LocalIdentity = {}): ModelDefinition {
  const id = identity.id ?? `local:${spec.name}`;
  const prices = spec.pricing ?? {};
  return finishDefinition({
    id,
    modelName: spec.name,
    matchPattern: spec.match_pattern,
    startDate: spec.start_date ?? null,
    unit: spec.unit ?? null,
    tokenizerId: spec.tokenizer ?? null,
    tokenizerConfig: spec.tokenization_config ?? null,
    isLangfuseManaged: identity.isLangfuseManaged ?? false,
    createdAt: identity.createdAt ?? null,
    pricingTiers: Object.keys(prices).length > 0 ? [defaultTier(id, { ...prices })] : [],
  });
}

/** A checked draft as the definition the server would hold after creating it. */
export function draftToDefinition(draft: ModelDraft, identity: LocalIdentity = {}): ModelDefinition {
  const id = identity.id ?? `local:${draft.modelName}`;
  const tiers: PricingTier[] = draft.pricingTiers
    ? draft.pricingTiers.map((t, i) => ({
        ...t,
        id: t.isDefault ? `${id}_tier_default` : `${id}_tier_${i}`,
        conditions: t.conditions.map((c): PricingTierCondition => ({ ...c })),
        prices: { ...t.prices },
      }))
    : Object.keys(draft.prices).length > 0
      ? [defaultTier(id, { ...draft.prices })]
      : [];
  return finishDefinition({
    id,
    modelName: draft.modelName,
    matchPattern: draft.matchPattern,
    startDate: draft.startDate === null ? null : new Date(draft.startDate).toISOString(),
    unit: draft.unit,
    tokenizerId: draft.tokenizerId,
    tokenizerConfig: draft.tokenizerConfig === undefined ? null : draft.tokenizerConfig,
    isLangfuseManaged: identity.isLangfuseManaged ?? false,
    createdAt: identity.createdAt ?? null,
    pricingTiers: tiers,
  });
}
