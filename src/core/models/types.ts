/** Units a model definition can be priced in (`unit` on the API). */
export const MODEL_UNITS = ['TOKENS', 'CHARACTERS', 'MILLISECONDS', 'SECONDS', 'REQUESTS', 'IMAGES'] as const;
export type ModelUnit = (typeof MODEL_UNITS)[number];

export const USAGE_OPERATORS = ['gt', 'gte', 'lt', 'lte', 'eq', 'neq'] as const;
export type UsageOperator = (typeof USAGE_OPERATORS)[number];

export interface UsageCondition {
  usageDetailPattern: string;
  operator: UsageOperator;
  value: number;
  caseSensitive?: boolean;
}

export interface AttributeCondition {
  source: 'model_parameters' | 'metadata';
  key: string;
  operator: 'in';
  values: string[];
}

/** The two kinds of condition Langfuse defines, and the only ones llmobs sends or checks. */
export type KnownCondition = UsageCondition | AttributeCondition;

/**
 * A condition of a kind llmobs does not know (a newer server's), kept as the server sent it: it
 * cannot be evaluated, and it serialises back to `raw`, so a definition read from the server and
 * written out again (JSON output, the definitions cache) keeps it unchanged.
 */
export class UnknownCondition {
  readonly kind = 'unknown';
  constructor(readonly raw: unknown) {}
  toJSON(): unknown {
    return this.raw;
  }

  /** The condition as the server sent it, for messages. */
  text(): string {
    return JSON.stringify(this.raw) ?? String(this.raw);
  }
}

/** A condition as read from the server: a known kind, or one kept unread. */
export type PricingTierCondition = KnownCondition | UnknownCondition;

export interface PricingTier {
  id: string;
  name: string;
  isDefault: boolean;
  priority: number;
  conditions: PricingTierCondition[];
  /** usageType -> price per unit, as the API returns it on `pricingTiers[]`. */
  prices: Record<string, number>;
}

/** A model definition in the API's response shape (GET /api/public/models). */
export interface ModelDefinition {
  id: string;
  modelName: string;
  matchPattern: string;
  startDate: string | null;
  unit: ModelUnit | null;
  inputPrice: number | null;
  outputPrice: number | null;
  totalPrice: number | null;
  tokenizerId: string | null;
  tokenizerConfig: unknown;
  isLangfuseManaged: boolean;
  createdAt: string | null;
  /** Default-tier prices wrapped in `{price}`, as the API returns them. */
  prices: Record<string, { price: number }>;
  pricingTiers: PricingTier[];
}

export function isUnknownCondition(c: PricingTierCondition): c is UnknownCondition {
  return c instanceof UnknownCondition;
}

export function isUsageCondition(c: PricingTierCondition): c is UsageCondition {
  return !isUnknownCondition(c) && 'usageDetailPattern' in c;
}

/** Where a definition comes from: the project's own, or the Langfuse-managed catalogue. */
export type DefinitionSource = 'custom' | 'built-in';

export function definitionSource(d: Pick<ModelDefinition, 'isLangfuseManaged'>): DefinitionSource {
  return d.isLangfuseManaged ? 'built-in' : 'custom';
}

/** `prices` as the API derives it: the default tier's prices, each wrapped in `{price}`. */
export function pricesFromTiers(tiers: readonly PricingTier[]): Record<string, { price: number }> {
  const def = tiers.find((t) => t.isDefault);
  const out: Record<string, { price: number }> = {};
  if (!def) return out;
  for (const [usageType, price] of Object.entries(def.prices)) out[usageType] = { price };
  return out;
}

/** The deprecated flat price mirrors, read from the default tier like the API does. */
export function flatPricesFromTiers(
  tiers: readonly PricingTier[],
): Pick<ModelDefinition, 'inputPrice' | 'outputPrice' | 'totalPrice'> {
  const def = tiers.find((t) => t.isDefault);
  return {
    inputPrice: def?.prices['input'] ?? null,
    outputPrice: def?.prices['output'] ?? null,
    totalPrice: def?.prices['total'] ?? null,
  };
}

export function defaultTier(def: Pick<ModelDefinition, 'pricingTiers'>): PricingTier | undefined {
  return def.pricingTiers.find((t) => t.isDefault);
}

/** The default tier's prices (or the legacy flat ones), usage type -> USD per unit. */
export function defaultPrices(def: Pick<ModelDefinition, 'pricingTiers' | 'prices'>): Record<string, number> {
  const tier = defaultTier(def);
  if (tier) return tier.prices;
  return Object.fromEntries(Object.entries(def.prices).map(([k, v]) => [k, v.price]));
}
