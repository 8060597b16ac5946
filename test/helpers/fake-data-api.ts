// A stand-in for a Langfuse server's data read routes, over loopback HTTP, for tests that run
// llmobs against it (in process or as the built binary): GET /api/public/traces/{id},
// /api/public/traces, /api/public/v2/observations (cursor-paged as Langfuse pages: start time
// descending, cursor = base64 of {lastStartTimeTo, lastTraceId, lastId}), /api/public/v2/metrics
// (the observations view: the service's query rules, the high-cardinality one included, then the
// metrics engine of src/core/metrics over the seeded observations) and /api/public/v3/scores.
// Shapes follow openapi.yml (contract fixture) and API.md sections 5 to 7; every request and
// every 2xx answer is checked against the contract and problems are collected in `contractIssues`.
//
// `cloud: true` answers like a Langfuse v4 "events only" deployment (as Langfuse Cloud does
// after the v3 read API's sunset): the legacy trace routes give 404 with Langfuse's own v4
// message. `numericStrings: true` sends numbers as ClickHouse does in some versions: as strings.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkRequest, checkResponse, type ContractIssue } from './contract.js';
import { metricsQueryProblem } from './contract-data.js';
import type { FaultStep } from './fault-server.js';
import { estimate } from '../../src/core/estimate.js';
import { MetricsQueryError, type MetricsRow, parseMetricsQuery, runMetricsQuery } from '../../src/core/metrics/index.js';
import type { ModelDefinition } from '../../src/core/models/types.js';
import { builtInDefinitions } from '../../src/data/catalogue.js';
import { engineCounter } from '../../src/tokenizer/counter.js';

/** Langfuse's answer on legacy trace routes in v4 events_only mode (createAuthedProjectAPIRoute.ts). */
export const V4_MESSAGE = 'This endpoint is not available on deployments running in Langfuse v4 events_only mode. Learn more about Langfuse v4 at: https://langfuse.com/docs/v4';
export const V2_UNAVAILABLE = 'The observations v2 API is only available in a Langfuse v4 write mode. Learn more at: https://langfuse.com/docs/v4';

export const KEYS = { publicKey: 'pk-lf-data-0000-1111', secretKey: 'sk-lf-data-2222-3333-4444' };
const PROJECT = 'project-data';

export interface SeedTrace {
  id: string;
  timestamp: string;
  name?: string | null;
  userId?: string | null;
  sessionId?: string | null;
  release?: string | null;
  version?: string | null;
  environment?: string;
  tags?: string[];
  input?: unknown;
  output?: unknown;
  metadata?: Record<string, unknown>;
}

export interface SeedObservation {
  id: string;
  traceId: string | null;
  startTime: string;
  endTime?: string | null;
  type?: string;
  parentObservationId?: string | null;
  name?: string | null;
  level?: 'DEBUG' | 'DEFAULT' | 'WARNING' | 'ERROR';
  statusMessage?: string | null;
  version?: string | null;
  environment?: string;
  userId?: string | null;
  sessionId?: string | null;
  completionStartTime?: string | null;
  input?: unknown;
  output?: unknown;
  metadata?: Record<string, unknown>;
  providedModelName?: string | null;
  internalModelId?: string | null;
  modelParameters?: Record<string, unknown> | null;
  usageDetails?: Record<string, number>;
  costDetails?: Record<string, number>;
  usagePricingTierName?: string | null;
  promptName?: string | null;
  promptVersion?: number | null;
  inputPrice?: number | null;
  outputPrice?: number | null;
}

export interface SeedScore {
  id: string;
  traceId: string;
  name: string;
  value: number;
  source?: 'API' | 'ANNOTATION' | 'EVAL';
  timestamp: string;
}

export interface Step extends FaultStep {
  /** Answer normally, but only once this promise settles. */
  hold?: Promise<void>;
}

/**
 * A fault step that holds its answer until `release()`: `atGate` resolves when a request reaches
 * it, so a test can act while the command waits in the middle of its reads.
 */
export function heldAnswer(): { step: () => Step; atGate: Promise<void>; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const atGate = new Promise<void>((resolve) => (reached = resolve));
  return {
    step: () => {
      reached();
      return { hold: gate };
    },
    atGate,
    release,
  };
}

export interface FakeDataOptions {
  cloud?: boolean;
  /** false: answer v2 observations with 404, as a v3 server without the v4 preview does. */
  v2?: boolean;
  /** false: answer v2 metrics with 404 and serve v1 metrics, as a v3 server without the v4 preview does. */
  metricsV2?: boolean;
  numericStrings?: boolean;
  /** Overrides the answer to a request (index counts every request). */
  fault?: (request: { index: number; method: string; path: string; url: URL }) => Step | undefined;
}

export interface FakeDataServer {
  url: string;
  keys: typeof KEYS;
  requests: Array<{ method: string; path: string }>;
  contractIssues: Array<ContractIssue & { request: string }>;
  addTrace(trace: SeedTrace, observations?: SeedObservation[], scores?: SeedScore[]): void;
  addObservations(observations: SeedObservation[]): void;
  observationCount(): number;
  close(): Promise<void>;
}

type Stored = Required<Omit<SeedObservation, 'inputPrice' | 'outputPrice'>> & { inputPrice: number | null; outputPrice: number | null; createdAt: string; updatedAt: string };

const GROUPS: Record<string, string[]> = {
  basic: ['name', 'level', 'statusMessage', 'version', 'environment', 'bookmarked', 'public', 'userId', 'sessionId', 'isRootObservation'],
  time: ['completionStartTime', 'createdAt', 'updatedAt'],
  io: ['input', 'output'],
  metadata: ['metadata'],
  model: ['providedModelName', 'internalModelId', 'modelParameters'],
  usage: ['usageDetails', 'costDetails', 'totalCost', 'usagePricingTierName'],
  prompt: ['promptId', 'promptName', 'promptVersion'],
  metrics: ['latency', 'timeToFirstToken'],
  trace_context: ['traceName', 'tags', 'release'],
};

function store(o: SeedObservation): Stored {
  return {
    type: 'SPAN',
    endTime: null,
    parentObservationId: null,
    name: null,
    level: 'DEFAULT',
    statusMessage: null,
    version: null,
    environment: 'default',
    userId: null,
    sessionId: null,
    completionStartTime: null,
    input: null,
    output: null,
    metadata: {},
    providedModelName: null,
    internalModelId: null,
    modelParameters: null,
    usageDetails: {},
    costDetails: {},
    usagePricingTierName: null,
    promptName: null,
    promptVersion: null,
    inputPrice: null,
    outputPrice: null,
    createdAt: o.startTime,
    updatedAt: o.startTime,
    ...o,
  } as Stored;
}

const ms = (t: string | null | undefined) => (t ? Date.parse(t) : Number.NaN);

export async function startFakeDataServer(options: FakeDataOptions = {}): Promise<FakeDataServer> {
  const traces = new Map<string, SeedTrace>();
  let observations: Stored[] = [];
  let sorted: Stored[] | null = null;
  const scores: SeedScore[] = [];
  const requests: Array<{ method: string; path: string }> = [];
  const contractIssues: Array<ContractIssue & { request: string }> = [];
  const num = (n: number | null) => (n === null ? null : options.numericStrings ? String(n) : n);
  const numMap = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, num(v)]));

  const ordered = () => {
    // Langfuse's order: start time descending, then trace id and id (the cursor's tuple).
    sorted ??= [...observations].sort((a, b) => ms(b.startTime) - ms(a.startTime) || cmp(b.traceId ?? '', a.traceId ?? '') || cmp(b.id, a.id));
    return sorted;
  };

  const traceOf = (o: Stored) => (o.traceId ? traces.get(o.traceId) : undefined);

  const v2 = (o: Stored, groups: Set<string>) => {
    const trace = traceOf(o);
    const full: Record<string, unknown> = {
      name: o.name,
      level: o.level,
      statusMessage: o.statusMessage,
      version: o.version,
      environment: o.environment,
      bookmarked: false,
      public: false,
      userId: o.userId ?? trace?.userId ?? null,
      sessionId: o.sessionId ?? trace?.sessionId ?? null,
      isRootObservation: !o.parentObservationId,
      completionStartTime: o.completionStartTime,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
      // v2 sends input and output as the raw strings it stores.
      input: o.input === null || typeof o.input === 'string' ? o.input : JSON.stringify(o.input),
      output: o.output === null || typeof o.output === 'string' ? o.output : JSON.stringify(o.output),
      metadata: o.metadata,
      providedModelName: o.providedModelName,
      internalModelId: o.internalModelId,
      modelParameters: o.modelParameters,
      usageDetails: numMap(o.usageDetails),
      costDetails: numMap(o.costDetails),
      totalCost: num(o.costDetails.total ?? null),
      usagePricingTierName: o.usagePricingTierName,
      promptId: o.promptName ? `prompt-${o.promptName}-${o.promptVersion}` : null,
      promptName: o.promptName,
      promptVersion: o.promptVersion,
      latency: o.endTime ? num((ms(o.endTime) - ms(o.startTime)) / 1000) : null,
      timeToFirstToken: o.completionStartTime ? num((ms(o.completionStartTime) - ms(o.startTime)) / 1000) : null,
      traceName: trace?.name ?? null,
      tags: trace?.tags ?? [],
      release: trace?.release ?? null,
    };
    const out: Record<string, unknown> = {
      id: o.id,
      traceId: o.traceId,
      startTime: o.startTime,
      endTime: o.endTime,
      projectId: PROJECT,
      parentObservationId: o.parentObservationId,
      type: o.type,
    };
    for (const [group, fields] of Object.entries(GROUPS)) if (groups.has(group)) for (const f of fields) out[f] = full[f];
    const model = groups.has('model');
    out.modelId = model ? o.internalModelId : null;
    out.inputPrice = model && o.inputPrice !== null ? String(o.inputPrice) : null;
    out.outputPrice = model && o.outputPrice !== null ? String(o.outputPrice) : null;
    out.totalPrice = null;
    return out;
  };

  const legacyObservation = (o: Stored) => {
    const usage = o.usageDetails;
    const parse = (v: unknown) => v;
    return {
      id: o.id,
      projectId: PROJECT,
      traceId: o.traceId,
      parentObservationId: o.parentObservationId,
      name: o.name,
      type: o.type,
      environment: o.environment,
      startTime: o.startTime,
      endTime: o.endTime,
      version: o.version,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
      input: parse(o.input),
      output: parse(o.output),
      metadata: o.metadata,
      level: o.level,
      statusMessage: o.statusMessage,
      model: o.providedModelName,
      modelParameters: o.modelParameters,
      completionStartTime: o.completionStartTime,
      promptId: o.promptName ? `prompt-${o.promptName}-${o.promptVersion}` : null,
      promptName: o.promptName,
      promptVersion: o.promptVersion,
      usageDetails: numMap(usage),
      costDetails: numMap(o.costDetails),
      usage: { unit: 'TOKENS', input: usage.input ?? 0, output: usage.output ?? 0, total: usage.total ?? 0 },
      unit: 'TOKENS',
      promptTokens: usage.input ?? 0,
      completionTokens: usage.output ?? 0,
      totalTokens: usage.total ?? 0,
      usagePricingTierName: o.usagePricingTierName,
      usagePricingTierId: null,
      modelId: o.internalModelId,
      inputPrice: o.inputPrice,
      outputPrice: o.outputPrice,
      totalPrice: null,
      calculatedInputCost: num(o.costDetails.input ?? null),
      calculatedOutputCost: num(o.costDetails.output ?? null),
      calculatedTotalCost: num(o.costDetails.total ?? null),
      latency: o.endTime ? (ms(o.endTime) - ms(o.startTime)) / 1000 : null,
      timeToFirstToken: null,
    };
  };

  const traceDetails = (t: SeedTrace, full: boolean) => {
    const own = observations.filter((o) => o.traceId === t.id);
    const starts = own.map((o) => ms(o.startTime));
    const ends = own.map((o) => ms(o.endTime ?? o.startTime));
    const latency = own.length ? (Math.max(...ends) - Math.min(...starts)) / 1000 : 0;
    const totalCost = own.reduce((sum, o) => sum + (o.costDetails.total ?? 0), 0);
    const own_scores = scores.filter((s) => s.traceId === t.id);
    return {
      id: t.id,
      timestamp: t.timestamp,
      name: t.name ?? null,
      input: t.input ?? null,
      output: t.output ?? null,
      sessionId: t.sessionId ?? null,
      release: t.release ?? null,
      version: t.version ?? null,
      userId: t.userId ?? null,
      metadata: t.metadata ?? {},
      tags: t.tags ?? [],
      public: false,
      environment: t.environment ?? 'default',
      projectId: PROJECT,
      bookmarked: false,
      externalId: null,
      createdAt: t.timestamp,
      updatedAt: t.timestamp,
      htmlPath: `/project/${PROJECT}/traces/${t.id}`,
      latency: num(latency),
      totalCost: num(totalCost),
      observations: full ? own.map(legacyObservation) : own.map((o) => o.id),
      scores: full
        ? own_scores.map((s) => ({ id: s.id, traceId: s.traceId, name: s.name, value: s.value, source: s.source ?? 'API', timestamp: s.timestamp, dataType: 'NUMERIC', observationId: null, comment: null, metadata: {}, configId: null, queueId: null, authorUserId: null, environment: 'default', createdAt: s.timestamp, updatedAt: s.timestamp, sessionId: null, datasetRunId: null }))
        : own_scores.map((s) => s.id),
    };
  };

  const listObservations = (url: URL) => {
    const q = url.searchParams;
    const limit = q.has('limit') ? Number(q.get('limit')) : 50;
    const groups = new Set(['core', ...(q.get('fields') ?? 'core,basic').split(',').map((s) => s.trim())]);
    const envs = q.getAll('environment');
    const from = q.get('fromStartTime');
    const to = q.get('toStartTime');
    let cursor: { lastStartTimeTo: string; lastTraceId: string; lastId: string } | null = null;
    if (q.has('cursor')) {
      try {
        cursor = JSON.parse(Buffer.from(q.get('cursor')!, 'base64').toString('utf8'));
      } catch {
        return { status: 400, body: { message: 'Invalid cursor format', error: 'InvalidRequestError' } };
      }
    }
    const matches = (o: Stored) => {
      const trace = traceOf(o);
      if (q.has('type') && o.type !== q.get('type')) return false;
      if (q.has('name') && o.name !== q.get('name')) return false;
      if (q.has('traceId') && o.traceId !== q.get('traceId')) return false;
      if (q.has('userId') && (o.userId ?? trace?.userId ?? null) !== q.get('userId')) return false;
      if (q.has('sessionId') && (o.sessionId ?? trace?.sessionId ?? null) !== q.get('sessionId')) return false;
      if (q.has('level') && o.level !== q.get('level')) return false;
      if (q.has('version') && o.version !== q.get('version')) return false;
      if (q.get('isRootObservation') === 'true' && o.parentObservationId) return false;
      if (envs.length && !envs.includes(o.environment)) return false;
      if (from && ms(o.startTime) < ms(from)) return false;
      if (to && ms(o.startTime) >= ms(to)) return false;
      if (cursor) {
        // Strictly after the cursor's tuple in the order above.
        const t = ms(o.startTime);
        const c = ms(cursor.lastStartTimeTo);
        if (t > c) return false;
        if (t === c) {
          const byTrace = cmp(o.traceId ?? '', cursor.lastTraceId);
          if (byTrace > 0 || (byTrace === 0 && cmp(o.id, cursor.lastId) >= 0)) return false;
        }
      }
      return true;
    };
    const page: Stored[] = [];
    let more = false;
    for (const o of ordered()) {
      if (!matches(o)) continue;
      if (page.length === limit) {
        more = true;
        break;
      }
      page.push(o);
    }
    const last = page[page.length - 1];
    const meta = more && last ? { cursor: Buffer.from(JSON.stringify({ lastStartTimeTo: last.startTime, lastTraceId: last.traceId ?? '', lastId: last.id })).toString('base64') } : {};
    return { status: 200, body: { data: page.map((o) => v2(o, groups)), meta } };
  };

  const listTraces = (url: URL) => {
    const q = url.searchParams;
    const page = Number(q.get('page') ?? 1);
    const limit = Number(q.get('limit') ?? 50);
    const tags = q.getAll('tags');
    const envs = q.getAll('environment');
    let list = [...traces.values()].filter((t) => {
      if (q.has('name') && t.name !== q.get('name')) return false;
      if (q.has('userId') && t.userId !== q.get('userId')) return false;
      if (q.has('sessionId') && t.sessionId !== q.get('sessionId')) return false;
      if (q.has('release') && t.release !== q.get('release')) return false;
      if (q.has('version') && t.version !== q.get('version')) return false;
      if (tags.length && !tags.every((tag) => (t.tags ?? []).includes(tag))) return false;
      if (envs.length && !envs.includes(t.environment ?? 'default')) return false;
      if (q.has('fromTimestamp') && ms(t.timestamp) < ms(q.get('fromTimestamp'))) return false;
      if (q.has('toTimestamp') && ms(t.timestamp) >= ms(q.get('toTimestamp'))) return false;
      return true;
    });
    const [field, dir] = (q.get('orderBy') ?? 'timestamp.desc').split('.') as [keyof SeedTrace, string];
    list.sort((a, b) => cmp(String(a[field] ?? ''), String(b[field] ?? '')) * (dir === 'asc' ? 1 : -1) || cmp(a.id, b.id));
    const totalItems = list.length;
    list = list.slice((page - 1) * limit, page * limit);
    return { status: 200, body: { data: list.map((t) => traceDetails(t, false)), meta: { page, limit, totalItems, totalPages: Math.ceil(totalItems / limit) } } };
  };

  /** An observation as a row of the metrics view: its own user and session ids win over its trace's. */
  const metricsRow = (o: Stored): MetricsRow => {
    const trace = traceOf(o);
    return {
      observation: { ...o, totalCost: o.costDetails.total ?? null },
      traceName: trace?.name ?? null,
      userId: o.userId ?? trace?.userId ?? null,
      sessionId: o.sessionId ?? trace?.sessionId ?? null,
      release: trace?.release ?? null,
      traceVersion: trace?.version ?? null,
      tags: trace?.tags ?? [],
    };
  };

  /** An answer row as this fake sends it: every number as a number (or, numericStrings, as a string), buckets as times. */
  const wireRow = (row: Record<string, unknown>, metricKeys: ReadonlySet<string>) => {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(row)) {
      if (key === 'time_dimension' && typeof value === 'string') {
        const iso = new Date(Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value)).toISOString();
        out[key] = options.numericStrings ? iso.replace('T', ' ').replace('.000Z', '') : iso.replace('.000Z', 'Z');
      } else if (metricKeys.has(key) && (typeof value === 'number' || typeof value === 'string')) {
        out[key] = num(Number(value));
      } else {
        out[key] = value;
      }
    }
    return out;
  };

  const metrics = (url: URL) => {
    const raw = url.searchParams.get('query') ?? '';
    const problem = metricsQueryProblem(raw);
    if (problem) return { status: 400, body: { message: problem, error: 'InvalidRequestError' } };
    try {
      const query = parseMetricsQuery(raw);
      const data = runMetricsQuery(query, observations.map(metricsRow));
      const metricKeys = new Set(query.metrics.map((m) => `${m.aggregation}_${m.measure}`));
      return { status: 200, body: { data: data.map((row) => wireRow(row, metricKeys)) } };
    } catch (error) {
      if (error instanceof MetricsQueryError) return { status: 400, body: { message: error.message, error: 'InvalidRequestError' } };
      throw error;
    }
  };

  const respond = (req: IncomingMessage, url: URL): { status: number; body: unknown } => {
    const path = url.pathname;
    if (path === '/api/public/health') return { status: 200, body: { status: 'OK', version: '4.16.0' } };
    const legacy = path === '/api/public/traces' || path.startsWith('/api/public/traces/');
    // A v4 events-only deployment answers before it checks the credentials.
    if (legacy && options.cloud) return { status: 404, body: { message: V4_MESSAGE } };
    const auth = req.headers.authorization;
    if (auth !== `Basic ${Buffer.from(`${KEYS.publicKey}:${KEYS.secretKey}`).toString('base64')}`) {
      return { status: 401, body: { message: 'Invalid credentials. Confirm that you\'ve configured the correct host.' } };
    }
    if (req.method !== 'GET') return { status: 405, body: { message: 'Method not allowed', error: 'MethodNotAllowedError' } };
    if (path === '/api/public/projects') return { status: 200, body: { data: [{ id: PROJECT, name: 'data', organization: { id: 'o', name: 'org' }, metadata: {} }] } };
    const one = /^\/api\/public\/traces\/([^/]+)$/.exec(path);
    if (one) {
      const id = decodeURIComponent(one[1]!);
      const trace = traces.get(id);
      if (!trace) return { status: 404, body: { message: `Trace ${id} not found within authorized project`, error: 'LangfuseNotFoundError' } };
      return { status: 200, body: traceDetails(trace, true) };
    }
    if (path === '/api/public/traces') return listTraces(url);
    if (path === '/api/public/v2/observations') {
      if (options.v2 === false) return { status: 404, body: { message: V2_UNAVAILABLE, error: 'LangfuseNotFoundError' } };
      return listObservations(url);
    }
    if (path === '/api/public/v2/metrics') {
      if (options.metricsV2 === false) return { status: 404, body: { message: 'The metrics v2 API is only available in a Langfuse v4 write mode. Learn more at: https://langfuse.com/docs/v4', error: 'LangfuseNotFoundError' } };
      return metrics(url);
    }
    if (path === '/api/public/metrics') {
      if (options.metricsV2 !== false) return { status: 404, body: { message: V4_MESSAGE } };
      return metrics(url);
    }
    if (path === '/api/public/v3/scores') {
      const traceId = url.searchParams.get('traceId');
      const data = scores
        .filter((s) => !traceId || traceId.split(',').includes(s.traceId))
        .map((s) => ({ id: s.id, projectId: PROJECT, name: s.name, value: s.value, dataType: 'NUMERIC', source: s.source ?? 'API', timestamp: s.timestamp, environment: 'default', createdAt: s.timestamp, updatedAt: s.timestamp }));
      return { status: 200, body: { data, meta: {} } };
    }
    return { status: 404, body: { message: 'Not found' } };
  };

  let index = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://fake.local');
      const method = req.method ?? 'GET';
      requests.push({ method, path: url.pathname + url.search });
      for (const issue of checkRequest(method, url.pathname + url.search, undefined)) {
        if (url.pathname !== '/api/public/health') contractIssues.push({ ...issue, request: `${method} ${url.pathname}${url.search}` });
      }
      const step = options.fault?.({ index: index++, method, path: url.pathname, url });
      if (step?.hold) await step.hold;
      if (step && (step.status !== undefined || step.body !== undefined || step.resetMidBody)) {
        const body = step.body ?? '';
        const send = () => {
          if (step.resetMidBody) {
            res.writeHead(step.status ?? 200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body) + 1000), ...step.headers });
            res.write(body.slice(0, Math.max(1, Math.floor(body.length / 2))));
            setTimeout(() => res.socket?.destroy(), 20);
            return;
          }
          res.writeHead(step.status ?? 200, { 'content-type': 'application/json', ...step.headers });
          res.end(body);
        };
        if (step.delayMs) setTimeout(send, step.delayMs);
        else send();
        return;
      }
      const answer = respond(req, url);
      // Numbers as strings break the OpenAPI file's types on purpose.
      if (answer.status < 300 && !options.numericStrings) {
        for (const issue of checkResponse(method, url.pathname, answer.status, answer.body)) contractIssues.push({ ...issue, request: `answer to ${method} ${url.pathname}` });
      }
      const text = JSON.stringify(answer.body);
      const send = () => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(text);
      };
      if (step?.delayMs) setTimeout(send, step.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    keys: KEYS,
    requests,
    contractIssues,
    addTrace(trace, list = [], traceScores = []) {
      traces.set(trace.id, trace);
      observations.push(...list.map(store));
      scores.push(...traceScores);
      sorted = null;
    },
    addObservations(list) {
      observations = observations.concat(list.map(store));
      sorted = null;
    },
    observationCount: () => observations.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** n generations spread over time, deterministic: ids gen-00001 ..., several models and traces. */
export function syntheticGenerations(n: number, options: { start?: string; models?: string[]; stepMs?: number } = {}): SeedObservation[] {
  const start = Date.parse(options.start ?? '2026-05-01T00:00:00.000Z');
  const models = options.models ?? ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet-20241022'];
  const step = options.stepMs ?? 60_000;
  const width = String(n).length;
  return Array.from({ length: n }, (_, i) => {
    const model = models[i % models.length]!;
    const input = 100 + (i % 17) * 10;
    const output = 20 + (i % 5) * 7;
    const t = new Date(start + i * step).toISOString();
    return {
      id: `gen-${String(i + 1).padStart(width, '0')}`,
      traceId: `trace-${String(Math.floor(i / 3) + 1).padStart(width, '0')}`,
      type: 'GENERATION',
      name: 'llm-call',
      startTime: t,
      endTime: new Date(start + i * step + 800).toISOString(),
      environment: i % 4 === 0 ? 'staging' : 'production',
      userId: `user-${i % 7}`,
      providedModelName: model,
      internalModelId: `model-${model}`,
      usageDetails: { input, output, total: input + output },
      costDetails: storedCosts(model, { input, output, total: input + output }),
      input: [{ role: 'user', content: `question ${i}` }],
      output: `answer ${i}`,
    };
  });
}

let catalogue: readonly ModelDefinition[] | undefined;

/** What a Langfuse server stores as the cost of this usage under the built-in prices (the estimation core). */
export function storedCosts(model: string, usage: Record<string, number>): Record<string, number> {
  const definitions = (catalogue ??= builtInDefinitions());
  return estimate({ model, usageDetails: usage }, { definitions, count: engineCounter }).costDetails;
}
