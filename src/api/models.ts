// HTTP calls for model definitions (API.md section 3; PUT in Langfuse 4.35 and later).
import type { CreateModelBody } from '../core/models/request.js';
import { ApiError, ApiNotFoundError } from '../errors.js';
import type { ApiClient } from './client.js';
import { type ApiModel, DeleteModelResponseSchema, ModelSchema, ModelsPageSchema } from './schemas/models.js';
import type { Page } from './schemas/common.js';
import { HealthSchema } from './schemas/projects.js';

export const MODELS_PATH = '/api/public/models';

export function modelPath(id: string): string {
  return `${MODELS_PATH}/${encodeURIComponent(id)}`;
}

export async function listModels(client: ApiClient, paging: { page?: number | undefined; limit?: number | undefined } = {}): Promise<Page<ApiModel>> {
  const { data } = await client.request('GET', MODELS_PATH, { query: { page: paging.page, limit: paging.limit }, schema: ModelsPageSchema });
  return data;
}

/** Every definition the project sees (its own and the managed ones), in the server's order. */
export function listAllModels(client: ApiClient, pageSize = 100): Promise<ApiModel[]> {
  return client.getAllPages(MODELS_PATH, ModelSchema, {}, pageSize);
}

export async function getModel(client: ApiClient, id: string): Promise<ApiModel> {
  const { data } = await client.request('GET', modelPath(id), { schema: ModelSchema });
  return data;
}

export async function createModel(client: ApiClient, body: CreateModelBody): Promise<ApiModel> {
  const { data } = await client.request('POST', MODELS_PATH, { body, schema: ModelSchema });
  return data;
}

export type ReplaceOutcome = { supported: true; model: ApiModel } | { supported: false; status: number };

/**
 * Replaces a project model in place with PUT (Langfuse 4.35+). Older servers have no such route:
 * they answer 405, or a 404 that is not about the model; both mean "not supported" here.
 */
export async function replaceModel(client: ApiClient, id: string, body: CreateModelBody): Promise<ReplaceOutcome> {
  try {
    const { data } = await client.request('PUT', modelPath(id), { body, schema: ModelSchema });
    return { supported: true, model: data };
  } catch (error) {
    if (error instanceof ApiNotFoundError && !/model/i.test(error.serverMessage ?? '')) return { supported: false, status: 404 };
    if (error instanceof ApiError && error.status === 405) return { supported: false, status: 405 };
    throw error;
  }
}

export async function deleteModel(client: ApiClient, id: string): Promise<void> {
  await client.request('DELETE', modelPath(id), { schema: DeleteModelResponseSchema });
}

/** The server's version from the health endpoint, or undefined when it does not say or does not answer. */
export async function serverVersion(client: ApiClient): Promise<string | undefined> {
  try {
    const { data } = await client.request('GET', '/api/public/health', { schema: HealthSchema });
    return data.version;
  } catch {
    return undefined;
  }
}
