// A cost report from the Metrics API, through the cache of its answers (cache.ts): the report's
// query, and when the server cut the groups at its row limit, the total asked for on its own.
import { queryMetrics } from '../../api/metrics.js';
import type { ApiClient } from '../../api/client.js';
import type { ResolvedConfig } from '../../config/resolve.js';
import type { Context } from '../../context.js';
import { sha256Hex } from '../../core/hashes.js';
import { buildQuery, buildReport, type CostReport, type MetricsQuery, type ReportRequest } from '../../core/spend/report.js';
import { type CachedAnswer, cacheKey, readAnswer, writeAnswer } from './cache.js';
import type { Bound } from './range.js';

export interface AskedReport {
  report: CostReport;
  /** Rows of the answer the report was made of. */
  rows: number;
  /** When the cached answer used was fetched; null when the server was asked. */
  cachedAt: string | null;
}

/**
 * The report `request` asks for. `range` names its bounds in the cache key as the user gave them,
 * so "--from 7d" asked twice within minutes is the same question; `cache` false asks the server
 * and refreshes the copy. A cached answer gives the request the range it was asked for; `now` is
 * when the range was read.
 */
export async function askReport(ctx: Context, request: ReportRequest, range: { from: Bound; to: Bound }, options: { cache: boolean; now: Date }): Promise<AskedReport> {
  const { now } = options;
  // The client (and the HTTP stack with it) only when the server is asked: a cached answer needs
  // the settings alone.
  const config = await ctx.resolveConfig({ auth: true });
  let client: ApiClient | undefined;
  const identity = identityOf(config);
  const answer = async (query: MetricsQuery): Promise<{ data: Record<string, unknown>[]; cached: CachedAnswer | undefined }> => {
    const key = cacheKey({ v: 2, baseUrl: config.baseUrl, identity, query: { ...query, fromTimestamp: range.from.key, toTimestamp: range.to.key } });
    const cached = options.cache ? readAnswer(ctx, key) : undefined;
    if (cached) return { data: cached.data, cached };
    client ??= await ctx.apiFor(config);
    const data = await queryMetrics(ctx, client, query);
    writeAnswer(ctx, { version: 2, key, fetchedAt: now.toISOString(), from: query.fromTimestamp, to: query.toTimestamp, data });
    return { data, cached: undefined };
  };

  const { data, cached } = await answer(buildQuery(request));
  if (cached) {
    request.from = new Date(cached.from);
    request.to = new Date(cached.to);
    const age = Math.round((now.getTime() - Date.parse(cached.fetchedAt)) / 1000);
    ctx.out.hint(`From the cache: the same report was asked for ${age < 60 ? `${age} s` : `${Math.round(age / 60)} min`} ago (--no-cache asks the server; Langfuse Cloud's Hobby plan allows 100 metrics requests a day).`);
  }
  const report = buildReport(request, data);
  if (report.truncated && (request.by.length > 0 || request.time)) {
    // The groups were cut at the row limit, so their sum is not the total (nor what a budget is
    // checked against): one more request, without groups, gives it.
    const whole = { ...request, by: [], time: null };
    report.total = buildReport(whole, (await answer(buildQuery(whole))).data).total;
    for (const group of report.groups) group.share = report.total.cost > 0 ? group.cost / report.total.cost : 0;
  }
  return { report, rows: data.length, cachedAt: cached?.fetchedAt ?? null };
}

/** Whose answers these are, without a secret: the public key, or a digest of an API key. */
function identityOf(config: ResolvedConfig): string {
  if (config.auth.type === 'basic') return config.auth.publicKey;
  return config.auth.type === 'bearer' ? sha256Hex(config.auth.apiKey) : 'none';
}
