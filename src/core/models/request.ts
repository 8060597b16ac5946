import type { ModelDraft, PricingTierInput } from './draft.js';
import type { ModelUnit } from './types.js';

/** The body of `POST /api/public/models` (and `PUT /api/public/models/{id}` on newer servers). */
export interface CreateModelBody {
  modelName: string;
  matchPattern: string;
  unit: ModelUnit;
  startDate?: string;
  tokenizerId?: 'openai' | 'claude';
  tokenizerConfig?: unknown;
  inputPrice?: number;
  outputPrice?: number;
  totalPrice?: number;
  pricingTiers?: PricingTierInput[];
}

const FLAT = { input: 'inputPrice', output: 'outputPrice', total: 'totalPrice' } as const;

/** How a flat usageType -> price map is sent: flat price fields, or a default "Standard" tier. */
export type PricingFields = Pick<CreateModelBody, 'inputPrice' | 'outputPrice' | 'totalPrice' | 'pricingTiers'>;

/**
 * Prices go out as the deprecated flat fields only when every usage type is input, output or
 * total (the server turns them into the default tier); any other usage type needs a default
 * "Standard" tier, because the flat fields cannot carry it.
 */
export function pricingFields<P>(prices: Record<string, P>): { inputPrice?: P; outputPrice?: P; totalPrice?: P } | { pricingTiers: Array<Omit<PricingTierInput, 'prices'> & { prices: Record<string, P> }> } {
  const keys = Object.keys(prices);
  if (keys.length === 0) return {};
  if (keys.every((k) => Object.prototype.hasOwnProperty.call(FLAT, k))) {
    const flat: { inputPrice?: P; outputPrice?: P; totalPrice?: P } = {};
    for (const k of keys) flat[FLAT[k as keyof typeof FLAT]] = prices[k];
    return flat;
  }
  return { pricingTiers: [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { ...prices } }] };
}

/**
 * Builds the create body from a checked draft (see `pricingFields` for the prices). The tokenizer
 * settings go under `tokenizerConfig`, the only name the server reads.
 */
export function buildCreateModelBody(draft: ModelDraft): CreateModelBody {
  const body: CreateModelBody = { modelName: draft.modelName, matchPattern: draft.matchPattern, unit: draft.unit };
  if (draft.startDate !== null) body.startDate = draft.startDate;
  if (draft.tokenizerId !== null) body.tokenizerId = draft.tokenizerId;
  if (draft.tokenizerConfig !== undefined) body.tokenizerConfig = draft.tokenizerConfig;
  if (draft.pricingTiers) {
    body.pricingTiers = draft.pricingTiers.map((t) => ({ ...t, conditions: [...t.conditions], prices: { ...t.prices } }));
    return body;
  }
  // The flat fields cannot carry a total next to input or output (the server refuses
  // totalPrice with inputPrice/outputPrice), but a default tier can: it is what the server stores
  // for flat prices anyway, and its cost calculation is the same.
  if (draft.prices['total'] !== undefined && (draft.prices['input'] !== undefined || draft.prices['output'] !== undefined)) {
    body.pricingTiers = [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { ...draft.prices } }];
    return body;
  }
  return Object.assign(body, pricingFields(draft.prices));
}
