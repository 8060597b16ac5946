// GET /api/public/v2/metrics: one query object, sent as JSON in the `query` parameter. Langfuse
// Cloud allows the Hobby plan 100 of these a day, so callers cache answers.
import type { MetricsQuery } from '../core/spend/report.js';
import type { ApiClient } from './client.js';
import { MetricsResponseSchema } from './schemas/metrics.js';

export const METRICS_V2_PATH = '/api/public/v2/metrics';

export async function queryMetrics(client: ApiClient, query: MetricsQuery): Promise<Record<string, unknown>[]> {
  const { data } = await client.request('GET', METRICS_V2_PATH, { query: { query: JSON.stringify(query) }, schema: MetricsResponseSchema });
  return data.data;
}
