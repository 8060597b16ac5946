// HTTP calls for the project the credentials belong to, and the server's health (no credentials).
import type { ApiClient } from './client.js';
import { type Health, HealthSchema, type Project, ProjectsResponseSchema } from './schemas/projects.js';

export async function getProjects(client: ApiClient): Promise<{ projects: Project[]; durationMs: number }> {
  const response = await client.request('GET', '/api/public/projects', { schema: ProjectsResponseSchema });
  return { projects: response.data.data, durationMs: response.durationMs };
}

/** The server's health, how long it took to answer, and the answer's headers (its Date says the server's time). */
export async function getHealth(client: ApiClient): Promise<{ health: Health; durationMs: number; headers: Record<string, string | string[] | undefined> }> {
  const response = await client.request('GET', '/api/public/health', { schema: HealthSchema });
  return { health: response.data, durationMs: response.durationMs, headers: response.headers };
}
