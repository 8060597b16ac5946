// Wire shapes of the v2 prompt endpoints (API.md 4). Unknown fields are tolerated and kept.
import { z } from 'zod';
import { pageSchema } from './common.js';

export const PlaceholderItemSchema = z.looseObject({ type: z.literal('placeholder'), name: z.string() });
export const ChatMessageItemSchema = z.looseObject({ role: z.string(), content: z.string() });
/** Placeholder first: a message never has `type: "placeholder"` (the server strips message types). */
export const ChatItemSchema = z.union([PlaceholderItemSchema, ChatMessageItemSchema]);

const common = {
  name: z.string(),
  version: z.number().int(),
  config: z.unknown(),
  labels: z.array(z.string()),
  tags: z.array(z.string()),
  commitMessage: z.string().nullable().optional(),
  id: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
  createdBy: z.string().nullable().optional(),
};

/** One prompt version: GET answers it with `resolutionGraph`, POST and PATCH with the raw row. */
export const PromptSchema = z.discriminatedUnion('type', [
  z.looseObject({ ...common, type: z.literal('text'), prompt: z.string() }),
  z.looseObject({ ...common, type: z.literal('chat'), prompt: z.array(ChatItemSchema) }),
]);

export type Prompt = z.infer<typeof PromptSchema>;

const PromptNodeSchema = z.looseObject({ id: z.string(), name: z.string(), version: z.number().int() });

/** GET's `resolutionGraph` when the prompt references others: which version each reference used. */
export const ResolutionGraphSchema = z.looseObject({
  root: PromptNodeSchema,
  dependencies: z.record(z.string(), z.array(PromptNodeSchema)),
});

/** One entry of `GET /api/public/v2/prompts`: a prompt with the versions and labels that matched. */
export const PromptMetaSchema = z.looseObject({
  name: z.string(),
  type: z.enum(['text', 'chat']),
  versions: z.array(z.number().int()),
  labels: z.array(z.string()),
  tags: z.array(z.string()),
  lastUpdatedAt: z.string(),
  lastConfig: z.unknown(),
});

export type PromptMeta = z.infer<typeof PromptMetaSchema>;

export const PromptMetaPageSchema = pageSchema(PromptMetaSchema);
