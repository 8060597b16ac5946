// Wire types of /api/public/models. Unknown fields are kept (servers add fields over time); the
// nullable fields Langfuse-managed models leave empty (unit, startDate, tokenizer) read as null.
import { z } from 'zod';
import { modelDefinitionSchema } from '../../core/models/schemas.js';
import { pageSchema } from './common.js';

export const ModelSchema = modelDefinitionSchema.loose();

/** A model definition as the API returns it. */
export type ApiModel = z.infer<typeof ModelSchema>;

export const ModelsPageSchema = pageSchema(ModelSchema);

export const DeleteModelResponseSchema = z.looseObject({ message: z.string().optional() }).optional();
