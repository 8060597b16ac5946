// What `llmobs server` answers must hold against Langfuse's OpenAPI response schemas (the fixture
// of scripts/extract-contract.mjs, with its recorded corrections), so that code that passes against
// it does not trip over an answer a real server would not give. Every route is driven through a
// proxy that checks each 2xx answer: by requests of our own (themselves checked against the
// contract) and by the official clients' traffic: @langfuse/tracing with @langfuse/otel (OTLP/JSON),
// an OTLP/protobuf exporter, the langfuse v3 SDK (batch ingestion, scores) and @langfuse/client's
// API client (reads of traces, observations v1 and v2, metrics, models, prompts).
import { LangfuseClient } from '@langfuse/client';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider, startObservation } from '@langfuse/tracing';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Langfuse } from 'langfuse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { type ContractProxy, SKIP_REQUEST_CHECK, startContractProxy } from '../helpers/contract-proxy.js';
import { basicAuth } from '../helpers/server-api.js';

let server: RunningServer;
/** Our own requests: the requests are checked too. */
let own: ContractProxy;
/** The official clients' traffic: their answers are checked. */
let sdk: ContractProxy;

beforeAll(async () => {
  // Every route of every kind, the v3 SDK's batch ingestion among them: dual mode has them all.
  server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
  own = await startContractProxy(server.url, { requests: true });
  sdk = await startContractProxy(server.url);
});
afterAll(async () => {
  await own.close();
  await sdk.close();
  await server.close();
});

async function call(method: string, path: string, body?: unknown, options: { invalidOnPurpose?: boolean } = {}): Promise<{ status: number; body: any }> {
  const response = await fetch(own.url + path, {
    method,
    headers: {
      authorization: basicAuth(server),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(options.invalidOnPurpose ? { [SKIP_REQUEST_CHECK]: '1' } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

const at = (s: number) => new Date(Date.parse('2026-03-01T10:00:00.000Z') + s * 1000).toISOString();
const ok = (answer: { status: number }) => expect(answer.status, JSON.stringify(answer)).toBeLessThan(300);

describe('answers of every route conform to the OpenAPI response schemas', () => {
  it('health, projects, models and prompts', async () => {
    ok(await call('GET', '/api/public/health'));
    ok(await call('GET', '/api/public/projects'));
    const model = await call('POST', '/api/public/models', { modelName: 'house-model', matchPattern: '(?i)^house-model$', unit: 'TOKENS', inputPrice: 0.000001, outputPrice: 0.000002 });
    ok(model);
    const tiered = await call('POST', '/api/public/models', {
      modelName: 'tiered-model',
      matchPattern: '(?i)^tiered-model$',
      unit: 'TOKENS',
      tokenizerId: 'openai',
      tokenizerConfig: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 },
      pricingTiers: [
        { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000001, output: 0.000002 } },
        { name: 'Large', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 1000, caseSensitive: false }], prices: { input: 0.000002, output: 0.000004 } },
      ],
    });
    ok(tiered);
    ok(await call('GET', '/api/public/models?limit=100'));
    ok(await call('GET', `/api/public/models/${tiered.body.id}`));
    ok(await call('PUT', `/api/public/models/${model.body.id}`, { modelName: 'house-model', matchPattern: '(?i)^house-model$', unit: 'TOKENS', inputPrice: 0.000003 }));
    ok(await call('DELETE', `/api/public/models/${model.body.id}`));
    ok(await call('POST', '/api/public/v2/prompts', { name: 'qa', type: 'text', prompt: 'Answer {{q}}', labels: ['production'], tags: ['a'], config: { temperature: 0 } }));
    ok(await call('POST', '/api/public/v2/prompts', { name: 'chat', type: 'chat', prompt: [{ role: 'system', content: 'Be brief' }, { type: 'placeholder', name: 'history' }] }));
    ok(await call('POST', '/api/public/v2/prompts', { name: 'tone', type: 'text', prompt: 'Be kind.', labels: ['production'] }));
    ok(await call('POST', '/api/public/v2/prompts', { name: 'qa', type: 'text', prompt: 'Answer {{q}} @@@langfusePrompt:name=tone|label=production@@@', commitMessage: 'second' }));
    ok(await call('GET', '/api/public/v2/prompts'));
    ok(await call('GET', '/api/public/v2/prompts/qa'));
    ok(await call('GET', '/api/public/v2/prompts/qa?version=1'));
    ok(await call('GET', '/api/public/v2/prompts/chat?label=latest'));
    ok(await call('PATCH', '/api/public/v2/prompts/qa/versions/2', { newLabels: ['staging'] }));
    ok(await call('DELETE', '/api/public/v2/prompts/qa?version=2'));
  });

  it('ingestion (batch and OTLP/JSON), traces, observations v1 and v2, metrics and scores', async () => {
    const batch = [
      { id: 'e1', type: 'trace-create', timestamp: at(0), body: { id: 't1', name: 'chat', userId: 'u1', sessionId: 's1', tags: ['b', 'a'], metadata: { k: 'v' }, input: { q: 'hi' }, output: 'hello', release: 'r', version: 'v' } },
      { id: 'e2', type: 'span-create', timestamp: at(0), body: { id: 'o1', traceId: 't1', name: 'root', startTime: at(0), input: 'x', metadata: { step: 1 } } },
      { id: 'e3', type: 'span-update', timestamp: at(4), body: { id: 'o1', endTime: at(4), output: { done: true } } },
      {
        id: 'e4', type: 'generation-create', timestamp: at(1),
        body: { id: 'o2', traceId: 't1', parentObservationId: 'o1', name: 'llm', model: 'gpt-4o', startTime: at(1), completionStartTime: at(1.5), endTime: at(3), input: [{ role: 'user', content: 'hi' }], output: 'hello', usageDetails: { input: 10, output: 2 }, modelParameters: { temperature: 0.2 }, promptName: 'qa', promptVersion: 1 },
      },
      { id: 'e5', type: 'generation-create', timestamp: at(2), body: { id: 'o3', traceId: 't1', name: 'tokenized', model: 'tiered-model', startTime: at(2), input: 'count these words', output: 'ok' } },
      { id: 'e6', type: 'event-create', timestamp: at(2), body: { id: 'o4', traceId: 't1', name: 'note', level: 'WARNING', statusMessage: 'careful' } },
      { id: 'e7', type: 'score-create', timestamp: at(5), body: { id: 'sc1', traceId: 't1', name: 'quality', value: 0.9, comment: 'good' } },
      { id: 'e8', type: 'score-create', timestamp: at(5), body: { id: 'sc2', traceId: 't1', observationId: 'o2', name: 'ok', value: 1, dataType: 'BOOLEAN' } },
      { id: 'e9', type: 'sdk-log', timestamp: at(5), body: { log: { message: 'hello' } } },
    ];
    const ingested = await call('POST', '/api/public/ingestion', { batch });
    expect(ingested.status).toBe(207);
    expect(ingested.body.errors).toEqual([]);
    // A 207 with per-event errors (the request breaks the contract on purpose).
    const partly = await call('POST', '/api/public/ingestion', { batch: [{ id: 'e10', type: 'generation-create', timestamp: at(5), body: { id: 'bad', startTime: 'yesterday' } }, batch[0]] }, { invalidOnPurpose: true });
    expect(partly.body.errors).toHaveLength(1);
    const otel = await call('POST', '/api/public/otel/v1/traces', {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'svc' } }] },
          scopeSpans: [
            {
              scope: { name: 'langfuse-sdk', version: '4.0.0' },
              spans: [
                {
                  traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', name: 'otel-generation', kind: 1,
                  startTimeUnixNano: '1772359200000000000', endTimeUnixNano: '1772359201000000000',
                  attributes: [
                    { key: 'langfuse.observation.type', value: { stringValue: 'generation' } },
                    { key: 'langfuse.observation.model.name', value: { stringValue: 'gpt-4o-mini' } },
                    { key: 'langfuse.observation.usage_details', value: { stringValue: '{"input":5,"output":1}' } },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
    ok(otel);

    ok(await call('GET', '/api/public/traces'));
    ok(await call('GET', '/api/public/traces?fields=core&orderBy=timestamp.asc&limit=2'));
    ok(await call('GET', `/api/public/traces?filter=${encodeURIComponent(JSON.stringify([{ type: 'arrayOptions', column: 'tags', operator: 'any of', value: ['a'] }]))}`));
    ok(await call('GET', '/api/public/traces/t1'));
    ok(await call('GET', '/api/public/traces/t1?fields=core,io'));
    ok(await call('GET', '/api/public/observations'));
    ok(await call('GET', '/api/public/observations?type=GENERATION&limit=1&page=2'));
    for (const id of ['o1', 'o2', 'o3', 'o4']) ok(await call('GET', `/api/public/observations/${id}`));
    const groups = 'core,basic,time,io,metadata,model,usage,prompt,metrics,trace_context';
    ok(await call('GET', '/api/public/v2/observations'));
    const first = await call('GET', `/api/public/v2/observations?fields=${groups}&limit=2`);
    ok(first);
    ok(await call('GET', `/api/public/v2/observations?fields=${groups}&limit=2&cursor=${first.body.meta.cursor}`));
    const metrics = {
      view: 'observations',
      dimensions: [{ field: 'providedModelName' }],
      metrics: [{ measure: 'totalCost', aggregation: 'sum' }, { measure: 'count', aggregation: 'count' }, { measure: 'latency', aggregation: 'p95' }],
      filters: [{ column: 'type', operator: 'any of', value: ['GENERATION'], type: 'stringOptions' }],
      timeDimension: { granularity: 'hour' },
      fromTimestamp: at(-3600),
      toTimestamp: at(3600),
    };
    ok(await call('GET', `/api/public/v2/metrics?query=${encodeURIComponent(JSON.stringify(metrics))}`));
    ok(await call('POST', '/api/public/scores', { name: 'helpful', value: 1, dataType: 'BOOLEAN', traceId: 't1' }));
    ok(await call('POST', '/api/public/scores', { name: 'label', value: 'good', dataType: 'CATEGORICAL', sessionId: 's1' }));
    ok(await call('POST', '/api/public/scores', { name: 'note', value: 'fine', dataType: 'TEXT', traceId: 't1', observationId: 'o2' }));
    ok(await call('GET', '/api/public/v3/scores'));
    ok(await call('GET', '/api/public/v3/scores?fields=core,details,subject,annotation&limit=2'));
    ok(await call('DELETE', '/api/public/traces/t1'));
    ok(await call('DELETE', '/api/public/traces', { traceIds: ['0af7651916cd43dd8448eb211c80319c', 'missing'] }));
    expect(own.problems()).toEqual([]);
    expect(own.exchanges.length).toBeGreaterThan(25);
  });
});

describe("the official clients' traffic gets answers that conform", { timeout: 60_000 }, () => {
  it('@langfuse/tracing with @langfuse/otel, an OTLP/protobuf exporter, the langfuse v3 SDK and @langfuse/client', async () => {
    const processor = new LangfuseSpanProcessor({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: sdk.url, exportMode: 'immediate' });
    const provider = new NodeTracerProvider({ spanProcessors: [processor] });
    setLangfuseTracerProvider(provider);
    const root = startObservation('sdk-trace', { input: { question: 'hi' } });
    root.startObservation('sdk-generation', { model: 'gpt-4o', input: [{ role: 'user', content: 'hi' }], output: 'hello', usageDetails: { input: 3, output: 1 } }, { asType: 'generation' }).end();
    root.update({ output: 'done' }).end();
    await processor.forceFlush();
    await provider.shutdown();
    setLangfuseTracerProvider(null);

    const protoProvider = new NodeTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${sdk.url}/api/public/otel/v1/traces`, headers: { authorization: basicAuth(server) }, compression: 'gzip' as never }))],
    });
    const span = protoProvider.getTracer('proto').startSpan('proto-generation', { attributes: { 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 5, 'gen_ai.usage.output_tokens': 2 } });
    span.end();
    await protoProvider.forceFlush();
    await protoProvider.shutdown();

    const legacy = new Langfuse({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: sdk.url, flushAt: 100 });
    const trace = legacy.trace({ id: 'legacy-trace', name: 'legacy', userId: 'u2', tags: ['x'] });
    const generation = trace.generation({ id: 'legacy-gen', name: 'llm', model: 'gpt-4o-mini', input: 'hi', usage: { input: 4, output: 2 } });
    generation.end({ output: 'hello' });
    trace.score({ name: 'legacy-score', value: 0.5 });
    await legacy.flushAsync();
    await legacy.shutdownAsync();

    const client = new LangfuseClient({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: sdk.url });
    const api = client.api;
    await api.health.health();
    await api.projects.get();
    await api.models.list();
    await api.prompts.list();
    const traces = await api.trace.list({ limit: 10 });
    expect(traces.data.map((t) => t.id)).toContain('legacy-trace');
    await api.trace.get('legacy-trace');
    await api.legacy.observationsV1.getMany({ traceId: 'legacy-trace' });
    await api.legacy.observationsV1.get('legacy-gen');
    await api.observations.getMany({ fields: 'core,basic,usage,model,io,metadata,time,prompt,metrics,trace_context', limit: 100 });
    await api.metrics.metrics({
      query: JSON.stringify({ view: 'observations', dimensions: [{ field: 'name' }], metrics: [{ measure: 'count', aggregation: 'count' }], filters: [], fromTimestamp: '2020-01-01T00:00:00Z', toTimestamp: '2100-01-01T00:00:00Z' }),
    });
    await api.scores.create({ name: 'client-score', value: 1, traceId: 'legacy-trace' });
    await api.ingestion.batch({ batch: [{ id: 'client-e1', type: 'trace-create', timestamp: new Date().toISOString(), body: { id: 'client-trace', name: 'from client' } }] });

    const routes = new Set(sdk.exchanges.map((e) => `${e.method} ${e.path.split('?')[0]!.replace(/\/(legacy-trace|legacy-gen)$/, '/{id}')}`));
    expect([...routes].sort()).toEqual(
      expect.arrayContaining([
        'POST /api/public/otel/v1/traces',
        'POST /api/public/ingestion',
        'GET /api/public/traces',
        'GET /api/public/traces/{id}',
        'GET /api/public/observations',
        'GET /api/public/observations/{id}',
        'GET /api/public/v2/observations',
        'GET /api/public/v2/metrics',
        'POST /api/public/scores',
      ]),
    );
    expect(sdk.exchanges.every((e) => e.status < 300)).toBe(true);
    expect(sdk.problems()).toEqual([]);
  });
});
