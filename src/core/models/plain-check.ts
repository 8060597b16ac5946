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
  if (!isObject(d.prices)) return false;
  for (const price of Object.values(d.prices)) if (!isObject(price) || !onlyKeys(price, ['price']) || typeof price.price !== 'number') return false;
  if (!Array.isArray(d.pricingTiers)) return false;
  for (const tier of d.pricingTiers as unknown[]) if (!isPlainTier(tier)) return false;
  return true;
}

function isPlainTier(t: unknown): boolean {
  if (!isObject(t) || !onlyKeys(t, ['id', 'name', 'isDefault', 'priority', 'conditions', 'prices'])) return false;
  if (typeof t.id !== 'string' || typeof t.name !== 'string' || typeof t.isDefault !== 'boolean' || typeof t.priority !== 'number') return false;
  if (!isObject(t.prices)) return false;
  for (const price of Object.values(t.prices)) if (typeof price !== 'number') return false;
  if (!Array.isArray(t.conditions)) return false;
  for (const c of t.conditions as unknown[]) if (!isUsageCondition(c) && !isAttributeCondition(c)) return false;
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
