// The Metrics API: one query object, sent as JSON in the `query` parameter. v2
// (GET /api/public/v2/metrics) where the server has it; a Langfuse deployment in the legacy write
// mode (or a v3 one without the v4 preview) answers it with 404, and is asked through v1
// (GET /api/public/metrics, the same query shape), which the v4 write modes removed. Which one a
// server answers is remembered (read-routes.ts). Langfuse Cloud allows the Hobby plan 100 of
// these a day, so callers cache answers.
import type { MetricsQuery } from '../core/spend/report.js';
import { ApiError, ApiNotFoundError, CliError } from '../errors.js';
import type { Context } from '../context.js';
import type { ApiClient } from './client.js';
import { viaRoute } from './read-routes.js';
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

/**
 * The answer's rows, from v2 or v1 as the server's answers tell (read-routes.ts): a route that
 * answers 404 is not there, and the other is asked once. When neither is there, the error gives
 * both answers.
 */
export async function queryMetrics(ctx: Context, client: ApiClient, query: MetricsQuery): Promise<Record<string, unknown>[]> {
  ctx.trace(`  metrics query: ${JSON.stringify(query)}`);
  const ask = async (path: string) => {
    try {
      return (await client.request('GET', path, { query: { query: JSON.stringify(query) }, schema: MetricsResponseSchema })).data.data;
    } catch (error) {
      throw readable(error, query);
    }
  };
  const neither = (errors: { v2: unknown; v1: unknown }) => {
    const said = (error: unknown) => (error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error));
    return new ApiNotFoundError(`this server answers neither the Metrics API v2 (GET ${METRICS_V2_PATH}: ${said(errors.v2)}) nor v1 (GET ${METRICS_V1_PATH}: ${said(errors.v1)})`, {
      status: 404,
      method: 'GET',
      path: METRICS_V2_PATH,
      serverMessage: errors.v2 instanceof ApiError ? errors.v2.serverMessage : undefined,
      hint: 'A Langfuse server (or llmobs server) in the legacy write mode answers v1, one in a v4 write mode (dual, events_only) v2; a proxy in front of it may let neither through. To total costs without a Metrics API: llmobs observations export --type GENERATION --output FILE, then llmobs cost recompute --input FILE.',
    });
  };
  return (await viaRoute<'metrics', Record<string, unknown>[]>(ctx, client, 'metrics', { v2: () => ask(METRICS_V2_PATH), v1: () => ask(METRICS_V1_PATH) }, { neither })).value;
}
