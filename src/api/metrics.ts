// The Metrics API: one query object, sent as JSON in the `query` parameter. v2
// (GET /api/public/v2/metrics) where the server has it; a Langfuse v3 server without the v4
// preview answers it with 404, and is asked through v1 (GET /api/public/metrics, the same query
// shape). Langfuse Cloud allows the Hobby plan 100 of these a day, so callers cache answers.
import type { MetricsQuery } from '../core/spend/report.js';
import { ApiError, ApiNotFoundError, CliError } from '../errors.js';
import type { ApiClient } from './client.js';
import { MetricsResponseSchema } from './schemas/metrics.js';

export const METRICS_V2_PATH = '/api/public/v2/metrics';
export const METRICS_V1_PATH = '/api/public/metrics';

/**
 * An error of the metrics routes without the query in its message: encoded, it is a kilobyte of
 * percent signs that hides the server's answer. --verbose shows it as JSON instead.
 */
function readable(error: unknown, query: MetricsQuery): unknown {
  if (!(error instanceof CliError)) return error;
  const encoded = new URLSearchParams({ query: JSON.stringify(query) }).toString();
  error.message = error.message.split(encoded).join("query=(the report's query, shown by --verbose)");
  if (error instanceof ApiError && (error.status === 400 || error.status === 422)) {
    error.hint = "The server refused the metrics query llmobs built for this report (its Metrics API may differ from Langfuse Cloud's). --verbose shows the query; fewer --by groupings may pass.";
  }
  return error;
}

export async function queryMetrics(client: ApiClient, query: MetricsQuery, trace?: (line: string) => void): Promise<Record<string, unknown>[]> {
  trace?.(`  metrics query: ${JSON.stringify(query)}`);
  const ask = async (path: string) => {
    try {
      return (await client.request('GET', path, { query: { query: JSON.stringify(query) }, schema: MetricsResponseSchema })).data.data;
    } catch (error) {
      throw readable(error, query);
    }
  };
  try {
    return await ask(METRICS_V2_PATH);
  } catch (error) {
    if (!(error instanceof ApiNotFoundError)) throw error;
    trace?.(`  ${error.message}: asking the v1 metrics API instead`);
    try {
      return await ask(METRICS_V1_PATH);
    } catch (older) {
      // Neither is there: the first answer says more about the server.
      if (older instanceof ApiNotFoundError) throw error;
      throw older;
    }
  }
}
