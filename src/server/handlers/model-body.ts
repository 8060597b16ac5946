// The body of POST /api/public/models (and PUT /api/public/models/{id}), checked the way the
// server's zod schema `PostModelsV1Body` and `validatePricingTiers` do (API.md section 3.4).
// Unknown fields are dropped, as on a Langfuse server. The spec's snake_case shape (`name`,
// `match_pattern`, `tokenizer`, `tokenization_config`, `pricing`) is accepted too and mapped first.
import { z } from 'zod';
import { normalizeDraftInput } from '../../core/models/draft.js';
import type { DefinitionIssue } from '../../core/models/issues.js';
import { validatePattern } from '../../core/models/pattern.js';
import { pricingFields } from '../../core/models/request.js';
import { checkPricingTiers } from '../../core/models/tier-checks.js';
import { type KnownCondition, MODEL_UNITS, USAGE_OPERATORS } from '../../core/models/types.js';
import { type Issue, invalidRequest, invalidRequestData } from '../http/errors.js';

const usageCondition = z.object({
  usageDetailPattern: z.string().min(1).max(200),
  operator: z.enum(USAGE_OPERATORS),
  value: z.number().nonnegative(),
  caseSensitive: z.boolean().default(false),
});

const attributeCondition = z.object({
  source: z.enum(['model_parameters', 'metadata']),
  key: z.string().min(1).max(200),
  operator: z.literal('in'),
  values: z.array(z.string()).min(1),
});

const pricingTierInput = z.object({
  name: z.string().trim().min(1).max(100),
  isDefault: z.boolean().default(false),
  priority: z.number().int().min(0).max(999),
  conditions: z.array(z.union([usageCondition, attributeCondition])),
  prices: z.record(z.string(), z.number().nonnegative()),
});

const price = z.number().nonnegative().nullish();

const modelBody = z
  .object({
    modelName: z.string().min(1),
    matchPattern: z.string().min(1),
    startDate: z.coerce.date().nullish(),
    unit: z.enum(MODEL_UNITS),
    inputPrice: price,
    outputPrice: price,
    totalPrice: price,
    pricingTiers: z.array(pricingTierInput).nullish(),
    tokenizerId: z.enum(['openai', 'claude']).nullish(),
    tokenizerConfig: z.unknown().optional(),
  })
  .superRefine((body, ctx) => {
    const flat = body.inputPrice != null || body.outputPrice != null || body.totalPrice != null;
    const tiers = (body.pricingTiers?.length ?? 0) > 0;
    if (flat === tiers) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: flat
          ? 'Cannot provide both flat prices (inputPrice/outputPrice/totalPrice) and pricingTiers'
          : 'Must provide either flat prices (inputPrice/outputPrice/totalPrice) or pricingTiers',
      });
    }
    if (body.totalPrice != null && (body.inputPrice || body.outputPrice)) {
      ctx.addIssue({ code: 'custom', path: ['totalPrice'], message: 'If totalPrice is set, inputPrice and outputPrice must be null' });
    }
    if (tiers) {
      const found: DefinitionIssue[] = [];
      checkPricingTiers(body.pricingTiers, found);
      for (const issue of found) ctx.addIssue({ code: 'custom', path: ['pricingTiers'], message: issue.message });
    }
  });

export interface ModelBody {
  modelName: string;
  matchPattern: string;
  startDate: string | null;
  unit: (typeof MODEL_UNITS)[number];
  inputPrice: number | null;
  outputPrice: number | null;
  totalPrice: number | null;
  pricingTiers: Array<{ name: string; isDefault: boolean; priority: number; conditions: KnownCondition[]; prices: Record<string, number> }> | null;
  tokenizerId: 'openai' | 'claude' | null;
  tokenizerConfig: unknown;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const SPEC_ONLY_KEYS = ['name', 'match_pattern', 'tokenizer', 'tokenization_config', 'pricing', 'start_date'];

/**
 * A body in the spec's shape, mapped to API field names. A body with the API's required fields is
 * taken as the API's shape, whose unknown fields (spec-named ones included) the server drops.
 */
function fromSpecShape(body: Record<string, unknown>): Record<string, unknown> {
  if ('modelName' in body || 'matchPattern' in body || !SPEC_ONLY_KEYS.some((key) => key in body)) return body;
  const { input, issues } = normalizeDraftInput(body);
  const conflicts = issues.filter((issue) => issue.code === 'conflicting-fields' || issue.code === 'price-map-invalid');
  if (conflicts.length) {
    throw invalidRequestData(conflicts.map((issue) => ({ code: 'custom', path: issue.path ? issue.path.split('.') : [], message: issue.message })));
  }
  const mapped: Record<string, unknown> = {
    modelName: input.modelName,
    matchPattern: input.matchPattern,
    // The spec's shape has no unit: its prices are per token.
    unit: input.unit ?? 'TOKENS',
    startDate: input.startDate,
    tokenizerId: input.tokenizerId,
    tokenizerConfig: input.tokenizerConfig,
    pricingTiers: input.pricingTiers,
  };
  if (input.prices) Object.assign(mapped, pricingFields(input.prices));
  return mapped;
}

/** Validates a create/replace body; throws the server's 400 answers. */
export function parseModelBody(raw: unknown): ModelBody {
  if (!isRecord(raw)) {
    throw invalidRequestData([{ code: 'invalid_type', expected: 'object', path: [], message: `Invalid input: expected object, received ${raw === null ? 'null' : Array.isArray(raw) ? 'array' : typeof raw}` }]);
  }
  const parsed = modelBody.safeParse(fromSpecShape(raw));
  if (!parsed.success) {
    throw invalidRequestData(parsed.error.issues.map((issue) => ({ ...issue, path: issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p)) }) as Issue));
  }
  const body = parsed.data;
  // The server asks Postgres: SELECT 'test_string' ~ $pattern.
  if (validatePattern(body.matchPattern).valid === false) throw invalidRequest('matchPattern is not a valid regex pattern (Postgres)');
  return {
    modelName: body.modelName,
    matchPattern: body.matchPattern,
    startDate: body.startDate ? body.startDate.toISOString() : null,
    unit: body.unit,
    inputPrice: body.inputPrice ?? null,
    outputPrice: body.outputPrice ?? null,
    totalPrice: body.totalPrice ?? null,
    pricingTiers: body.pricingTiers?.length ? body.pricingTiers : null,
    tokenizerId: body.tokenizerId ?? null,
    tokenizerConfig: body.tokenizerConfig === undefined ? null : body.tokenizerConfig,
  };
}
