// HTTP calls for Langfuse's blob-storage integration (organization key only):
// GET/PUT /api/public/integrations/blob-storage, GET/DELETE /api/public/integrations/blob-storage/{id}.
import { z } from 'zod';
import type { ApiClient } from './client.js';

export const INTEGRATIONS_PATH = '/api/public/integrations/blob-storage';

const nullableString = z.string().nullable().optional();

export const IntegrationSchema = z.looseObject({
  id: z.string(),
  projectId: z.string(),
  type: z.string(),
  bucketName: z.string(),
  endpoint: nullableString,
  region: z.string(),
  accessKeyId: nullableString,
  prefix: z.string(),
  exportFrequency: z.string(),
  enabled: z.boolean(),
  forcePathStyle: z.boolean(),
  fileType: z.string(),
  exportMode: z.string(),
  exportStartDate: nullableString,
  compressed: z.boolean().optional(),
  exportSource: z.string().optional(),
  exportFieldGroups: z.array(z.string()).nullable().optional(),
  nextSyncAt: nullableString,
  lastSyncAt: nullableString,
  lastError: nullableString,
  lastErrorAt: nullableString,
});

export const IntegrationStatusSchema = z.looseObject({
  id: z.string(),
  projectId: z.string(),
  syncStatus: z.string(),
  enabled: z.boolean(),
  lastSyncAt: nullableString,
  nextSyncAt: nullableString,
  lastError: nullableString,
  lastErrorAt: nullableString,
});

export type Integration = z.infer<typeof IntegrationSchema>;

const path = (id: string) => `${INTEGRATIONS_PATH}/${encodeURIComponent(id)}`;

export async function listIntegrations(client: ApiClient): Promise<Integration[]> {
  return (await client.request('GET', INTEGRATIONS_PATH, { schema: z.looseObject({ data: z.array(IntegrationSchema) }) })).data.data;
}

export async function putIntegration(client: ApiClient, body: Record<string, unknown>): Promise<Integration> {
  return (await client.request('PUT', INTEGRATIONS_PATH, { body, schema: IntegrationSchema })).data;
}

export async function integrationStatus(client: ApiClient, id: string) {
  return (await client.request('GET', path(id), { schema: IntegrationStatusSchema })).data;
}

export async function deleteIntegration(client: ApiClient, id: string): Promise<string> {
  return (await client.request('DELETE', path(id), { schema: z.looseObject({ message: z.string() }) })).data.message;
}
