// The body of POST /api/public/models (and PUT /api/public/models/{id}), checked the way the
// server's zod schema `PostModelsV1Body` (web/src/features/public-api/types/models.ts) and
// `validatePricingTiers` do, with their messages (API.md section 3.4).
// Unknown fields are dropped, as on a Langfuse server. The spec's snake_case shape (`name`,
// `match_pattern`, `tokenizer`, `tokenization_config`, `pricing`) is accepted too and mapped first.
import { z } from 'zod';
import { normalizeDraftInput } from '../../core/models/draft.js';
import { validatePattern } from '../../core/models/pattern.js';
import { pricingFields } from '../../core/models/request.js';
import { pricingTierInput, pricingTiersProblem } from '../../core/models/tier-validation.js';
import { type KnownCondition, MODEL_UNITS } from '../../core/models/types.js';
import { type Issue, invalidRequest, invalidRequestData } from '../http/errors.js';

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
    if (flat && tiers) {
      ctx.addIssue({ code: 'custom', message: 'Must provide either flat prices (inputPrice/outputPrice/totalPrice) OR pricingTiers, not both' });
      return;
    }
    if (!flat && !tiers) {
      ctx.addIssue({ code: 'custom', message: 'Must provide either flat prices (inputPrice/outputPrice/totalPrice) OR pricingTiers' });
      return;
    }
    // Truthiness, as there: a total price of 0 beside an input price passes.
    if (flat && (body.inputPrice || body.outputPrice) && body.totalPrice) {
      ctx.addIssue({ code: 'custom', path: ['totalPrice'], message: 'If input and/or output price is set, total price must be null' });
    }
    if (tiers) {
      const problem = pricingTiersProblem(body.pricingTiers!);
      if (problem) ctx.addIssue({ code: 'custom', path: ['pricingTiers'], message: problem });
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
