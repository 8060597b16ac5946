// The prompt routes' request schemas, written after the service's zod schemas (packages/shared/
// src/features/prompts/{types,validation,constants}.ts) with the same zod major version, so a
// refused request gets the same 400 "Invalid request data" issues as from a Langfuse server:
// unknown keys dropped, the create body a union of the text and the chat shape.
import { z } from 'zod';
import { updatedAtSchema } from '../../core/prompts/updated-at.js';
import { invalidRequestData, zodIssues } from '../http/errors.js';
import type { StoredChatItem } from '../records.js';

const LABEL = z
  .string()
  .min(1)
  .max(36)
  .regex(/^[a-z0-9_\-.]+$/, 'Label must be lowercase alphanumeric with optional underscores, hyphens, or periods');

const RESERVED_NAMES = ['new', 'metrics', 'prompt-detail'];

const NAME = z
  .string()
  .min(1, 'Text cannot be empty')
  .refine((value) => !/<[^<>]*>/.test(value), { message: 'Text cannot contain HTML tags' })
  .regex(/^[^|]*$/, "Prompt name cannot contain '|' character")
  .regex(/^[^/]/, 'Name cannot start with a slash')
  .regex(/^(?!.*\/\/)/, 'Name cannot contain consecutive slashes')
  .regex(/^.*[^/]$/, 'Name cannot end with a slash')
  .transform((value) => value.trim())
  .refine((value) => value.length > 0, 'Name cannot be empty')
  .refine((value) => !RESERVED_NAMES.includes(value), { error: (issue) => `Prompt name cannot be '${String(issue.input)}'` });

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const JSON_NESTED: z.ZodType<Json> = z.lazy(() => z.union([z.array(JSON_NESTED), z.record(z.string(), JSON_NESTED), z.union([z.string(), z.number(), z.boolean(), z.null()])]));
/** Any JSON but a bare null (Prisma's JSON input). */
const JSON_ROOT: z.ZodType<Json> = z.lazy(() => z.union([z.array(JSON_NESTED), z.record(z.string(), JSON_NESTED), z.union([z.string(), z.number(), z.boolean()])]));

const CHAT_ITEM = z.union([
  z.object({ role: z.string(), content: z.string() }),
  z.object({
    type: z.literal('placeholder'),
    name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]*$/, 'Placeholder name must start with a letter and contain only alphanumeric characters and underscores'),
  }),
]);

const COMMON = {
  name: NAME,
  labels: z.array(LABEL).default([]),
  config: JSON_ROOT.nullable().default({}),
  tags: z.array(z.string()).nullish(),
  commitMessage: z.string().max(500).nullish(),
};

const CREATE_PROMPT = z.union([
  z.object({ ...COMMON, type: z.literal('text').optional(), prompt: z.string() }),
  z.object({ ...COMMON, type: z.literal('chat'), prompt: z.array(CHAT_ITEM) }),
]);

/** GET/DELETE /api/public/v2/prompts/{name} query (`GetPromptByNameSchema`). */
const PROMPT_BY_NAME_QUERY = z.object({
  version: z.coerce.number().int().nullish(),
  label: z.string().optional(),
  resolve: z
    .enum(['true', 'false'])
    .nullish()
    .default('true')
    .transform((value) => value === 'true'),
});

/** GET /api/public/v2/prompts query (`GetPromptsMetaSchema`). */
const PROMPTS_LIST_QUERY = z.object({
  name: z.string().optional(),
  version: z.coerce.number().int().nullish(),
  label: z.string().optional(),
  tag: z.string().optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
  fromUpdatedAt: updatedAtSchema().nullish(),
  toUpdatedAt: updatedAtSchema().nullish(),
});

/** PATCH /api/public/v2/prompts/{name}/versions/{version} body. */
const LABELS_PATCH = z.object({
  newLabels: z.array(z.string()).refine((labels) => !labels.includes('latest'), { message: "Label 'latest' is always assigned to the latest prompt version" }),
});

export interface CreatePromptInput {
  name: string;
  type: 'text' | 'chat';
  prompt: string | StoredChatItem[];
  labels: string[];
  /** Undefined (or null): keep the previous version's tags. */
  tags: string[] | undefined;
  config: unknown;
  commitMessage: string | null;
}

function parse<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw invalidRequestData(zodIssues(parsed.error.issues as never));
  return parsed.data;
}

export function parseCreatePromptBody(raw: unknown): CreatePromptInput {
  const body = parse(CREATE_PROMPT, raw);
  // createPrompt stores `jsonSchema.parse(config)`: a null config is refused there.
  const config = parse(JSON_ROOT, body.config);
  return {
    name: body.name,
    type: body.type ?? 'text',
    prompt: body.prompt,
    labels: body.labels,
    tags: body.tags ?? undefined,
    config,
    commitMessage: body.commitMessage ?? null,
  };
}

/**
 * A query string as the web framework hands it to the schemas: one value as a string, a repeated
 * parameter as an array.
 */
export function queryObject(query: URLSearchParams): Record<string, string | string[]> {
  const object: Record<string, string | string[]> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    object[key] = values.length === 1 ? values[0]! : values;
  }
  return object;
}

export function parsePromptByNameQuery(query: URLSearchParams) {
  return parse(PROMPT_BY_NAME_QUERY, queryObject(query));
}

export function parsePromptsListQuery(query: URLSearchParams) {
  return parse(PROMPTS_LIST_QUERY, queryObject(query));
}

export function parseLabelsPatch(raw: unknown): string[] {
  return parse(LABELS_PATCH, raw).newLabels;
}
