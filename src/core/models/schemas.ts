// The zod schemas of model definitions as the API sends them. Apart from types.ts so that code
// that only works with definitions (matching, pricing, the built-in catalogue) does not load zod.
import { z } from 'zod';
import { MODEL_UNITS, UnknownCondition, USAGE_OPERATORS } from './types.js';

// Strict: a known kind with a field llmobs does not know is read as an unknown condition (kept
// whole, warned about) rather than evaluated without that field.
const usageConditionSchema = z.strictObject({
  usageDetailPattern: z.string(),
  operator: z.enum(USAGE_OPERATORS),
  value: z.number(),
  caseSensitive: z.boolean().optional(),
});

const attributeConditionSchema = z.strictObject({
  source: z.enum(['model_parameters', 'metadata']),
  key: z.string(),
  operator: z.literal('in'),
  values: z.array(z.string()),
});

export const pricingTierSchema = z.object({
  id: z.string(),
  name: z.string(),
  isDefault: z.boolean(),
  priority: z.number(),
  // A kind of condition added by a newer server must not make the whole response unreadable.
  conditions: z.array(z.union([usageConditionSchema, attributeConditionSchema, z.unknown().transform((raw) => new UnknownCondition(raw))])),
  prices: z.record(z.string(), z.number()),
});

/**
 * The API's model object. Unknown keys are tolerated (servers add fields over time);
 * fields older servers omit get their neutral value.
 */
export const modelDefinitionSchema = z.object({
  id: z.string(),
  modelName: z.string(),
  matchPattern: z.string(),
  startDate: z.string().nullish().transform((v) => v ?? null),
  unit: z.enum(MODEL_UNITS).nullish().transform((v) => v ?? null),
  inputPrice: z.number().nullish().transform((v) => v ?? null),
  outputPrice: z.number().nullish().transform((v) => v ?? null),
  totalPrice: z.number().nullish().transform((v) => v ?? null),
  tokenizerId: z.string().nullish().transform((v) => v ?? null),
  tokenizerConfig: z.unknown().optional().transform((v) => (v === undefined ? null : v)),
  isLangfuseManaged: z.boolean(),
  createdAt: z.string().nullish().transform((v) => v ?? null),
  prices: z.record(z.string(), z.object({ price: z.number() })).default({}),
  pricingTiers: z.array(pricingTierSchema).default([]),
});
