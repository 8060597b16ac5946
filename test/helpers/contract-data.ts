// The server's rules for the data read routes (traces, v2 observations, v2 metrics, v3 scores)
// beyond the OpenAPI file, from Langfuse's zod schemas and query validation (langfuse/langfuse
// web/src/features/public-api/types/{traces,observations,metrics}.ts and
// packages/shared/src/features/query/validateQuery.ts, server 4.16.0).
import { z } from 'zod';
import { highCardinalityProblem } from '../../src/core/metrics/index.js';

interface Issue {
  path: string;
  message: string;
}

const ISO = z.iso.datetime({ offset: true });
const OBSERVATION_GROUPS = ['core', 'basic', 'time', 'io', 'metadata', 'model', 'usage', 'prompt', 'metrics', 'trace_context'];
const TRACE_GROUPS = ['core', 'io', 'scores', 'observations', 'metrics'];
const TYPES = ['GENERATION', 'SPAN', 'EVENT', 'AGENT', 'TOOL', 'CHAIN', 'RETRIEVER', 'EVALUATOR', 'EMBEDDING', 'GUARDRAIL'];

/** The observations view of the Metrics API v2 (dataModel.ts): dimensions and measures. */
export const METRICS_VIEW = {
  dimensions: ['id', 'traceId', 'traceName', 'environment', 'parentObservationId', 'type', 'name', 'level', 'version', 'tags', 'release', 'providedModelName', 'promptName', 'promptVersion', 'userId', 'sessionId', 'traceRelease', 'traceVersion', 'startTimeMonth', 'isRootObservation', 'toolNames', 'calledToolNames'],
  measures: ['count', 'latency', 'streamingLatency', 'inputTokens', 'outputTokens', 'totalTokens', 'outputTokensPerSecond', 'tokensPerSecond', 'inputCost', 'outputCost', 'totalCost', 'timeToFirstToken', 'countScores'],
};

/** The observations view of the Metrics API v1 (dataModel.ts, observationsView). */
const METRICS_V1_VIEW = {
  dimensions: ['id', 'traceId', 'traceName', 'environment', 'parentObservationId', 'type', 'name', 'level', 'version', 'tags', 'providedModelName', 'promptName', 'promptVersion', 'userId', 'sessionId', 'traceRelease', 'traceVersion', 'startTimeMonth', 'toolNames', 'calledToolNames'],
  measures: ['count', 'latency', 'streamingLatency', 'inputTokens', 'outputTokens', 'totalTokens', 'outputTokensPerSecond', 'tokensPerSecond', 'inputCost', 'outputCost', 'totalCost', 'timeToFirstToken', 'countScores', 'toolDefinitions', 'toolCalls'],
};

export const MetricsQuerySchema = z.object({
  view: z.enum(['traces', 'observations', 'scores-numeric', 'scores-boolean', 'scores-categorical']),
  dimensions: z.array(z.object({ field: z.string() })).default([]),
  metrics: z.array(z.object({ measure: z.string(), aggregation: z.enum(['sum', 'avg', 'count', 'max', 'min', 'p50', 'p75', 'p90', 'p95', 'p99', 'histogram']) })).min(1),
  filters: z.array(z.object({ column: z.string(), operator: z.string(), value: z.unknown(), type: z.string(), key: z.string().optional() })).default([]),
  timeDimension: z.object({ granularity: z.enum(['auto', 'minute', 'hour', 'day', 'week', 'month']) }).nullish(),
  fromTimestamp: ISO,
  toTimestamp: ISO,
  orderBy: z.array(z.object({ field: z.string(), direction: z.enum(['asc', 'desc']) })).nullish(),
  config: z.object({ bins: z.number().int().min(1).max(100).optional(), row_limit: z.number().int().min(1).max(1000).optional() }).optional(),
});

/** Why the server would refuse a metrics query (400), or null; v1 also has the traces view, and no high-cardinality rule. */
export function metricsQueryProblem(raw: string, version: 'v1' | 'v2' = 'v2'): string | null {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return 'query is not JSON';
  }
  const parsed = MetricsQuerySchema.safeParse(json);
  if (!parsed.success) return parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
  const q = parsed.data;
  if (q.view === 'traces' && version === 'v2') return 'the v2 API has no traces view';
  if (Date.parse(q.fromTimestamp) >= Date.parse(q.toTimestamp)) return 'toTimestamp must be after fromTimestamp';
  // The high-cardinality rule, checked first as there, is the engine's own
  // (src/core/metrics/high-cardinality.ts, after Langfuse's validateQuery): the fake server and
  // the local server answer it alike.
  const topN = version === 'v2' && q.view !== 'traces' ? highCardinalityProblem({ ...q, view: q.view }) : null;
  if (topN) return topN;
  if (q.view === 'observations') {
    const view = version === 'v1' ? METRICS_V1_VIEW : METRICS_VIEW;
    for (const d of q.dimensions) if (!view.dimensions.includes(d.field)) return `unknown dimension ${d.field}`;
    for (const m of q.metrics) if (!view.measures.includes(m.measure)) return `unknown measure ${m.measure}`;
    for (const f of q.filters) if (!view.dimensions.includes(f.column) && f.column !== 'startTime' && f.column !== 'metadata') return `unknown filter column ${f.column}`;
  }
  return null;
}

export function dataRules(key: string, query: URLSearchParams): Issue[] {
  const issues: Issue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });
  const iso = (name: string) => {
    const value = query.get(name);
    if (value !== null && !ISO.safeParse(value).success) add(`query.${name}`, 'the server needs an ISO datetime with Z or an offset');
  };
  const groups = (name: string, known: string[]) => {
    const value = query.get(name);
    if (value === null) return;
    for (const group of value.split(',')) if (!known.includes(group.trim())) add(`query.${name}`, `unknown field group "${group}" (the server drops it silently)`);
  };
  const limit = (max: number, min = 1) => {
    const value = query.get('limit');
    if (value !== null && (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max)) add('query.limit', `must be ${min}..${max}`);
  };
  switch (key) {
    case 'GET /api/public/v2/observations':
      limit(1000, 0);
      groups('fields', OBSERVATION_GROUPS);
      iso('fromStartTime');
      iso('toStartTime');
      if (query.get('parseIoAsJson') === 'true') add('query.parseIoAsJson', 'true gives 400');
      if (query.has('type') && !TYPES.includes(query.get('type')!)) add('query.type', 'unknown type');
      if (query.has('isRootObservation') && !['true', 'false'].includes(query.get('isRootObservation')!)) add('query.isRootObservation', 'true or false');
      if (query.has('page')) add('query.page', 'cursor-paged: page is not a parameter');
      break;
    case 'GET /api/public/traces':
      limit(100);
      groups('fields', TRACE_GROUPS);
      iso('fromTimestamp');
      iso('toTimestamp');
      if (query.has('orderBy') && !/^[a-zA-Z]+\.(asc|desc)$/.test(query.get('orderBy')!)) add('query.orderBy', 'field.asc or field.desc');
      break;
    case 'GET /api/public/traces/{traceId}':
      groups('fields', TRACE_GROUPS);
      break;
    case 'GET /api/public/metrics':
    case 'GET /api/public/v2/metrics': {
      const q = query.get('query');
      const problem = q === null ? 'query is required' : metricsQueryProblem(q, key === 'GET /api/public/metrics' ? 'v1' : 'v2');
      if (problem) add('query.query', problem);
      break;
    }
    case 'GET /api/public/v3/scores':
      limit(100);
      break;
    default:
      return [];
  }
  return issues;
}

/** Keys whose page and limit rules are the ones above. */
export const DATA_KEYS = new Set(['GET /api/public/metrics', 'GET /api/public/v2/observations', 'GET /api/public/traces', 'GET /api/public/traces/{traceId}', 'GET /api/public/v2/metrics', 'GET /api/public/v3/scores']);
