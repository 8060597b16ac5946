// Cost per day and per model over a time range: the report of `llmobs cost report --by model
// --time day`, built by the same core from the same metrics query. With a data directory the
// query runs on the store's read thread, as the metrics route answers clients (the event loop
// goes on meanwhile, however many observations there are); else through the route in-process.
import { MetricsQueryError } from '../../core/metrics/index.js';
import { buildQuery, buildReport, checkRequest, type MetricsQuery, type ReportRequest } from '../../core/spend/report.js';
import type { ServerReply } from '../http/router.js';
import type { InternalApi } from './internal-api.js';

const DAY_MS = 86_400_000;

type Rows = { data: Record<string, unknown>[] };

async function ask(api: InternalApi, query: MetricsQuery): Promise<Rows | ServerReply> {
  const text = JSON.stringify(query);
  const aside = api.context.store.metricsOffThread(text);
  if (aside) {
    try {
      return { data: (await aside) as Rows['data'] };
    } catch (error) {
      if (error instanceof MetricsQueryError) return { status: 400, body: { message: error.message } };
      // The read thread failed: the query runs here instead.
    }
  }
  const reply = api.call('GET', '/api/public/v2/metrics', new URLSearchParams({ query: text }));
  return reply.status === 200 ? { data: (reply.body as Rows).data } : reply;
}

export async function costReport(api: InternalApi, params: URLSearchParams): Promise<ServerReply> {
  const now = api.context.now();
  const to = params.get('to') ? new Date(params.get('to')!) : now;
  const from = params.get('from') ? new Date(params.get('from')!) : new Date(to.getTime() - 30 * DAY_MS);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return { status: 400, body: { message: 'from, to: dates (ISO 8601)' } };
  const request: ReportRequest = { from, to, by: ['model'], time: 'day', types: null, environments: params.getAll('environment').filter(Boolean) };
  const problem = checkRequest(request);
  if (problem) return { status: 400, body: { message: problem } };
  const answer = await ask(api, buildQuery(request));
  if (!('data' in answer)) return answer;
  const report = buildReport(request, answer.data);
  if (report.truncated) {
    // The groups were cut at the row limit: the total is asked for on its own, as the command does.
    const whole: ReportRequest = { ...request, by: [], time: null };
    const all = await ask(api, buildQuery(whole));
    if (!('data' in all)) return all;
    report.total = buildReport(whole, all.data).total;
    for (const group of report.groups) group.share = report.total.cost > 0 ? group.cost / report.total.cost : 0;
  }
  return { status: 200, body: report };
}
