// The official clients send traces to `llmobs server`: @langfuse/tracing with @langfuse/otel
// (OTLP/JSON), an OpenTelemetry OTLP/protobuf exporter (gzip), and the legacy langfuse v3 SDK
// (batch ingestion). Each sends generations with and without usage, with chat input, with a
// prompt link and on a tiered model. The test reads them back through the API (v1 observations
// over HTTP, v2 observations with `llmobs api`) and checks usage and cost against
// `llmobs estimate` (the built binary) for the same generations.
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider, startObservation } from '@langfuse/tracing';
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Langfuse } from 'langfuse';
import { describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv } from '../helpers/cli.js';
import { apiCaller, basicAuth } from '../helpers/server-api.js';

const chat = [
  { role: 'system', content: 'You answer in one short sentence.' },
  { role: 'user', content: 'What is the capital of Australia?' },
];
const answer = 'Canberra is the capital of Australia.';
const PROMPT = 'support-answer';

// What every client sends: usage given, chat input to tokenize, a prompt link, a tiered model.
const generations = {
  withUsage: { model: 'gpt-4o', input: chat, output: answer, usageDetails: { input: 120, output: 30 } },
  tokenized: { model: 'gpt-4o', input: chat, output: answer },
  prompted: { model: 'gpt-4o-mini', input: 'Answer briefly: What is the capital of Australia?', output: answer },
  tiered: { model: 'gemini-2.5-pro', input: 'long document', output: 'summary', usageDetails: { input: 250_000, output: 1_000 } },
};
type Name = keyof typeof generations;
const names = Object.keys(generations) as Name[];

/** What `llmobs estimate --batch` says for each generation (one process for all of them). */
async function estimates(list: object[]): Promise<any[]> {
  const result = await llmobs(['estimate', '--batch', '-', '--json'], { input: list.map((g) => JSON.stringify(g)).join('\n') + '\n' });
  expect(result.exitCode).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((line) => line.line !== undefined);
}

/** A server with the prompt the generations link to. */
async function serverWithPrompt(): Promise<RunningServer> {
  // readBack compares the trace, v1 and v2 reads of each generation (and the v3 SDK sends batches): dual mode.
  const server = await startServer({ port: 0, ephemeral: true, writeMode: 'dual' });
  const created = await apiCaller(() => server)('POST', '/api/public/v2/prompts', { name: PROMPT, type: 'text', prompt: 'Answer briefly: {{question}}', labels: ['production'] });
  expect(created.status).toBe(201);
  return server;
}

interface ReadBack {
  trace: any;
  /** GET /api/public/observations/{id} for each generation. */
  v1: Record<Name, any>;
  /** GET /api/public/v2/observations?traceId=… through `llmobs api`, by id. */
  v2: Map<string, any>;
  promptId: string;
}

/** Reads the trace and its generations back through the API, then closes the server. */
async function readBack(server: RunningServer, traceId: string, ids: Record<string, string>): Promise<ReadBack> {
  try {
    const call = apiCaller(() => server);
    const trace = await call('GET', `/api/public/traces/${traceId}`);
    expect(trace.status).toBe(200);
    const v1: Record<string, any> = {};
    for (const [name, id] of Object.entries(ids)) {
      const answer = await call('GET', `/api/public/observations/${id}`);
      expect(answer.status).toBe(200);
      v1[name] = answer.body;
    }
    const listed = await llmobs(['api', 'GET', '/api/public/v2/observations', '-f', `traceId=${traceId}`, '-f', 'fields=core,basic,usage,model,prompt'], { env: { ...isolatedEnv(), LANGFUSE_BASE_URL: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey } });
    expect(listed.exitCode).toBe(0);
    const v2 = new Map<string, any>((JSON.parse(listed.stdout).data as any[]).map((o) => [o.id, o]));
    const prompt = await call('GET', `/api/public/v2/prompts/${PROMPT}?version=1`, undefined, { unchecked: true });
    return { trace: trace.body, v1: v1 as Record<Name, any>, v2, promptId: prompt.body.id };
  } finally {
    await server.close();
  }
}

/** The generation as read back carries what `llmobs estimate` computes for the same generation. */
function expectPricedAsEstimated(v1: any, v2: any, estimated: any) {
  expect(v1.usageDetails).toEqual(estimated.usageDetails);
  expect(v1.costDetails).toEqual(estimated.costDetails);
  expect(v1.calculatedTotalCost).toBe(estimated.totalCost ?? 0);
  expect(v1.modelId).toBe(estimated.matchedModel?.id ?? null);
  expect(v1.usagePricingTierName).toBe(estimated.pricingTier);
  expect(v2).toMatchObject({ usageDetails: estimated.usageDetails, costDetails: estimated.costDetails, totalCost: estimated.totalCost ?? 0, usagePricingTierName: estimated.pricingTier });
}

function expectCommonOutcome({ v1, promptId }: ReadBack) {
  expect(v1.tokenized.usageDetails.input).toBeGreaterThan(10);
  expect(v1.prompted).toMatchObject({ promptId, promptName: PROMPT, promptVersion: 1 });
  expect(v1.tiered.usagePricingTierName).toBe('Large Context');
  expect(v1.withUsage.usagePricingTierName).toBe('Standard');
}

describe('@langfuse/tracing with @langfuse/otel (OTLP/JSON)', () => {
  it('records the trace and prices each generation like llmobs estimate', async () => {
    const server = await serverWithPrompt();
    const processor = new LangfuseSpanProcessor({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: server.url, exportMode: 'immediate' });
    const provider = new NodeTracerProvider({ spanProcessors: [processor] });
    setLangfuseTracerProvider(provider);
    const ids: Record<string, string> = {};
    let traceId = '';
    try {
      const root = startObservation('request', { input: { question: 'capital of Australia' } });
      traceId = root.traceId;
      for (const name of names) {
        const g = generations[name];
        const generation = root.startObservation(
          name,
          {
            model: g.model,
            input: g.input,
            output: g.output,
            ...('usageDetails' in g ? { usageDetails: g.usageDetails } : {}),
            ...(name === 'prompted' ? { prompt: { name: PROMPT, version: 1, isFallback: false } } : {}),
          },
          { asType: 'generation' },
        );
        ids[name] = generation.id;
        generation.end();
      }
      root.update({ output: answer }).end();
      await provider.forceFlush();
    } finally {
      await provider.shutdown();
      setLangfuseTracerProvider(null);
    }

    const read = await readBack(server, traceId, ids);
    expect(read.trace).toMatchObject({ id: traceId, name: 'request' });
    const expected = await estimates(names.map((name) => generations[name]));
    names.forEach((name, i) => {
      expect(read.v1[name]).toMatchObject({ type: 'GENERATION', traceId, name, model: generations[name].model });
      expectPricedAsEstimated(read.v1[name], read.v2.get(ids[name]!), expected[i]);
    });
    expectCommonOutcome(read);
  });
});

describe('OpenTelemetry OTLP/protobuf exporter (gzip)', () => {
  it('maps gen_ai.* spans to generations priced like llmobs estimate', async () => {
    const server = await serverWithPrompt();
    const exporter = new OTLPTraceExporter({ url: `${server.url}/api/public/otel/v1/traces`, headers: { Authorization: basicAuth(server) }, compression: 'gzip' as never });
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('my-agent', '1.0.0');
    const ids: Record<string, string> = {};
    let traceId = '';
    let rootSpanId = '';
    try {
      const root = tracer.startSpan('agent run', { attributes: { 'user.id': 'u-42', 'langfuse.trace.tags': ['otel', 'protobuf'] } });
      traceId = root.spanContext().traceId;
      rootSpanId = root.spanContext().spanId;
      const parent = trace.setSpan(context.active(), root);
      for (const name of names) {
        const g = generations[name];
        const attributes: Record<string, string | number> = {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': g.model,
          'gen_ai.input.messages': typeof g.input === 'string' ? g.input : JSON.stringify(g.input),
          'gen_ai.output.messages': g.output,
        };
        if ('usageDetails' in g) {
          attributes['gen_ai.usage.input_tokens'] = g.usageDetails.input;
          attributes['gen_ai.usage.output_tokens'] = g.usageDetails.output;
        }
        if (name === 'prompted') {
          attributes['langfuse.observation.prompt.name'] = PROMPT;
          attributes['langfuse.observation.prompt.version'] = 1;
        }
        const span = tracer.startSpan(name, { attributes }, parent);
        ids[name] = span.spanContext().spanId;
        span.end();
      }
      root.end();
      await provider.forceFlush();
    } finally {
      await provider.shutdown();
    }

    const read = await readBack(server, traceId, ids);
    expect(read.trace).toMatchObject({ id: traceId, name: 'agent run', userId: 'u-42', tags: ['otel', 'protobuf'] });
    // The spans carry the messages as text: estimate them as the server received them.
    const expected = await estimates(names.map((name) => ({ ...generations[name], input: typeof generations[name].input === 'string' ? generations[name].input : JSON.stringify(generations[name].input) })));
    names.forEach((name, i) => {
      expect(read.v1[name]).toMatchObject({ type: 'GENERATION', traceId, parentObservationId: rootSpanId, name });
      expectPricedAsEstimated(read.v1[name], read.v2.get(ids[name]!), expected[i]);
    });
    expectCommonOutcome(read);
  });
});

describe('langfuse v3 SDK (batch ingestion)', () => {
  it('records traces and generations, merging create and update events', async () => {
    const server = await serverWithPrompt();
    const langfuse = new Langfuse({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: server.url, flushAt: 50 });
    const prompt = await langfuse.getPrompt(PROMPT, 1);
    const t = langfuse.trace({ name: 'v3 request', userId: 'u-7', tags: ['v3'] });
    const ids: Record<string, string> = {};
    for (const name of names) {
      const g = generations[name];
      const generation = t.generation({
        name,
        model: g.model,
        input: g.input,
        ...('usageDetails' in g ? { usageDetails: g.usageDetails } : {}),
        ...(name === 'prompted' ? { prompt } : {}),
      });
      ids[name] = generation.id;
      // The output arrives in a generation-update event, merged into the create.
      generation.end({ output: g.output });
    }
    await langfuse.shutdownAsync();

    const read = await readBack(server, t.id, ids);
    expect(read.trace).toMatchObject({ id: t.id, name: 'v3 request', userId: 'u-7', tags: ['v3'] });
    const expected = await estimates(names.map((name) => generations[name]));
    names.forEach((name, i) => {
      expect(read.v1[name]).toMatchObject({ type: 'GENERATION', traceId: t.id, name, output: generations[name].output });
      expect(read.v1[name].endTime).toEqual(expect.any(String));
      expectPricedAsEstimated(read.v1[name], read.v2.get(ids[name]!), expected[i]);
    });
    expectCommonOutcome(read);
  });
});
