// Model definitions as the public API returns them.

export interface UsageCondition {
  usageDetailPattern: string;
  operator: 'gt' | 'gte' | 'lt' | 'lte' | 'eq' | 'neq';
  value: number;
  caseSensitive?: boolean;
}

export interface AttributeCondition {
  source: 'model_parameters' | 'metadata';
  key: string;
  operator: 'in';
  values: string[];
}

export type Condition = UsageCondition | AttributeCondition;

export interface Tier {
  id: string;
  name: string;
  isDefault: boolean;
  priority: number;
  conditions: Condition[];
  prices: Record<string, number>;
}

export interface Model {
  id: string;
  modelName: string;
  matchPattern: string;
  startDate: string | null;
  unit: string | null;
  tokenizerId: string | null;
  tokenizerConfig: unknown;
  isLangfuseManaged: boolean;
  createdAt?: string;
  pricingTiers: Tier[];
}

export const isUsageCondition = (c: Condition): c is UsageCondition => 'usageDetailPattern' in c;

export const OPERATORS: Record<UsageCondition['operator'], string> = { gt: '>', gte: '>=', lt: '<', lte: '<=', eq: '=', neq: '!=' };

export function conditionText(c: Condition): string {
  if (isUsageCondition(c)) return `usage ${c.usageDetailPattern} ${OPERATORS[c.operator]} ${c.value}${c.caseSensitive ? ' (case sensitive)' : ''}`;
  return `${c.source === 'metadata' ? 'metadata' : 'model parameter'} ${c.key} in ${c.values.join(', ')}`;
}

export const PRICE_UNITS = [
  { id: 'unit', label: 'per unit', scale: 1 },
  { id: '1k', label: 'per 1K units', scale: 1_000 },
  { id: '1m', label: 'per 1M units', scale: 1_000_000 },
] as const;
