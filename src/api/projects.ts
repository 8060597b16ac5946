import type { ApiClient } from './client.js';
import { type Health, HealthSchema, type Project, ProjectsResponseSchema } from './schemas/projects.js';

export async function getProjects(client: ApiClient): Promise<{ projects: Project[]; durationMs: number }> {
  const response = await client.request('GET', '/api/public/projects', { schema: ProjectsResponseSchema });
  return { projects: response.data.data, durationMs: response.durationMs };
}

export async function getHealth(client: ApiClient): Promise<{ health: Health; durationMs: number }> {
  const response = await client.request('GET', '/api/public/health', { schema: HealthSchema });
  return { health: response.data, durationMs: response.durationMs };
}
