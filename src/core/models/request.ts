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

/**
 * Builds the create body from a checked draft. Prices go out as the deprecated flat fields only
 * when every usage type is input, output or total (the server turns them into the default
 * tier); any other usage type needs a default "Standard" tier. The tokenizer settings go under
 * `tokenizerConfig`, the only name the server reads.
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
  const keys = Object.keys(draft.prices);
  if (keys.length > 0 && keys.every((k) => Object.prototype.hasOwnProperty.call(FLAT, k))) {
    for (const k of keys) body[FLAT[k as keyof typeof FLAT]] = draft.prices[k];
  } else if (keys.length > 0) {
    body.pricingTiers = [{ name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { ...draft.prices } }];
  }
  return body;
}
