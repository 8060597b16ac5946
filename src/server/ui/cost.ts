// Cost per day and per model over a time range: the report of `llmobs cost report --by model
// --time day`, built by the same core from the same metrics query, asked of the server's own
// metrics route.
import { buildQuery, buildReport, checkRequest, type MetricsQuery, type ReportRequest } from '../../core/spend/report.js';
import type { ServerReply } from '../http/router.js';
import type { Call, InternalApi } from './internal-api.js';

const DAY_MS = 86_400_000;

function ask(call: Call, query: MetricsQuery): { data: Record<string, unknown>[] } | ServerReply {
  const reply = call('GET', '/api/public/v2/metrics', new URLSearchParams({ query: JSON.stringify(query) }));
  return reply.status === 200 ? { data: (reply.body as { data: Record<string, unknown>[] }).data } : reply;
}

export function costReport(api: InternalApi, params: URLSearchParams): ServerReply {
  const now = api.context.now();
  const to = params.get('to') ? new Date(params.get('to')!) : now;
  const from = params.get('from') ? new Date(params.get('from')!) : new Date(to.getTime() - 30 * DAY_MS);
  if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) return { status: 400, body: { message: 'from, to: dates (ISO 8601)' } };
  const request: ReportRequest = { from, to, by: ['model'], time: 'day', types: null, environments: params.getAll('environment').filter(Boolean) };
  const problem = checkRequest(request);
  if (problem) return { status: 400, body: { message: problem } };
  return api.reading((call) => {
    const answer = ask(call, buildQuery(request));
    if (!('data' in answer)) return answer;
    const report = buildReport(request, answer.data);
    if (report.truncated) {
      // The groups were cut at the row limit: the total is asked for on its own, as the command does.
      const whole: ReportRequest = { ...request, by: [], time: null };
      const all = ask(call, buildQuery(whole));
      if (!('data' in all)) return all;
      report.total = buildReport(whole, all.data).total;
      for (const group of report.groups) group.share = report.total.cost > 0 ? group.cost / report.total.cost : 0;
    }
    return { status: 200, body: report };
  });
}
