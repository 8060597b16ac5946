// Whether a value is a list of model definitions exactly as modelDefinitionSchema (schemas.ts)
// gives them and JSON keeps them: every field there, with its final type (null rather than
// absent, defaults filled in), and only the kinds of pricing-tier conditions llmobs knows. Written
// out without zod, for the definitions cache (model-definitions/remote.ts), which holds such
// lists: a copy that is not one is not used. A test checks it against the schema.
import { MODEL_UNITS, USAGE_OPERATORS } from './types.js';

const UNITS: ReadonlySet<unknown> = new Set(MODEL_UNITS);
const OPERATORS: ReadonlySet<unknown> = new Set(USAGE_OPERATORS);

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const stringOrNull = (value: unknown) => value === null || typeof value === 'string';
const numberOrNull = (value: unknown) => value === null || typeof value === 'number';

export function isPlainDefinitionList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (!isPlainDefinition(value[i])) return false;
  return true;
}

function isPlainDefinition(d: unknown): boolean {
  if (!isObject(d)) return false;
  if (typeof d.id !== 'string' || typeof d.modelName !== 'string' || typeof d.matchPattern !== 'string') return false;
  if (!stringOrNull(d.startDate) || !stringOrNull(d.tokenizerId) || !stringOrNull(d.createdAt)) return false;
  if (!(d.unit === null || UNITS.has(d.unit))) return false;
  if (!numberOrNull(d.inputPrice) || !numberOrNull(d.outputPrice) || !numberOrNull(d.totalPrice)) return false;
  if (!('tokenizerConfig' in d) || typeof d.isLangfuseManaged !== 'boolean') return false;
  const prices = d.prices;
  if (!isObject(prices)) return false;
  for (const key in prices) {
    const price = prices[key];
    if (!isObject(price) || typeof price.price !== 'number') return false;
    for (const inner in price) if (inner !== 'price') return false;
  }
  const tiers = d.pricingTiers;
  if (!Array.isArray(tiers)) return false;
  for (let i = 0; i < tiers.length; i++) if (!isPlainTier(tiers[i])) return false;
  return true;
}

function isPlainTier(t: unknown): boolean {
  if (!isObject(t)) return false;
  if (typeof t.id !== 'string' || typeof t.name !== 'string' || typeof t.isDefault !== 'boolean' || typeof t.priority !== 'number') return false;
  const prices = t.prices;
  const conditions = t.conditions;
  if (!isObject(prices) || !Array.isArray(conditions)) return false;
  // The six keys above, all there: any other is one too many.
  let keys = 0;
  for (const _ in t) keys++;
  if (keys !== 6) return false;
  for (const key in prices) if (typeof prices[key] !== 'number') return false;
  for (let i = 0; i < conditions.length; i++) if (!isUsageCondition(conditions[i]) && !isAttributeCondition(conditions[i])) return false;
  return true;
}

/** No key but these: the schema's strict objects, and its plain ones, which drop the others. */
function onlyKeys(o: Fields, allowed: readonly string[]): boolean {
  for (const key of Object.keys(o)) if (!allowed.includes(key)) return false;
  return true;
}

function isUsageCondition(c: unknown): boolean {
  return (
    isObject(c) &&
    onlyKeys(c, ['usageDetailPattern', 'operator', 'value', 'caseSensitive']) &&
    typeof c.usageDetailPattern === 'string' &&
    OPERATORS.has(c.operator) &&
    typeof c.value === 'number' &&
    (c.caseSensitive === undefined || typeof c.caseSensitive === 'boolean')
  );
}

function isAttributeCondition(c: unknown): boolean {
  return (
    isObject(c) &&
    onlyKeys(c, ['source', 'key', 'operator', 'values']) &&
    (c.source === 'model_parameters' || c.source === 'metadata') &&
    typeof c.key === 'string' &&
    c.operator === 'in' &&
    Array.isArray(c.values) &&
    (c.values as unknown[]).every((v) => typeof v === 'string')
  );
}
