// The official clients send traces to `llmobs server`: @langfuse/tracing with @langfuse/otel
// (OTLP/JSON), an OpenTelemetry OTLP/protobuf exporter (gzip), and the legacy langfuse v3 SDK
// (batch ingestion). Each sends generations with and without usage, with chat input, with a
// prompt link and on a tiered model; the test reads them back through the API and checks usage
// and cost against `llmobs estimate` (the built binary) for the same generations.
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider, startObservation } from '@langfuse/tracing';
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Langfuse } from 'langfuse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import { llmobs } from '../helpers/bin.js';
import { apiCaller, basicAuth } from '../helpers/server-api.js';

let server: RunningServer;
const call = apiCaller(() => server);

const chat = [
  { role: 'system', content: 'You answer in one short sentence.' },
  { role: 'user', content: 'What is the capital of Australia?' },
];
const answer = 'Canberra is the capital of Australia.';
const PROMPT = 'support-answer';

/** What `llmobs estimate --batch` says for each generation (one process for all of them). */
async function estimates(generations: object[]): Promise<any[]> {
  const result = await llmobs(['estimate', '--batch', '-', '--json'], { input: generations.map((g) => JSON.stringify(g)).join('\n') + '\n' });
  expect(result.exitCode).toBe(0);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .filter((line) => line.line !== undefined);
}

async function observation(id: string): Promise<any> {
  const answer = await call('GET', `/api/public/observations/${encodeURIComponent(id)}`, undefined, { unchecked: true });
  expect(answer.status).toBe(200);
  return answer.body;
}

/** The stored generation carries what `llmobs estimate` computes for the same generation. */
function expectPricedAsEstimated(stored: any, estimated: any) {
  expect(stored.usageDetails).toEqual(estimated.usageDetails);
  expect(stored.costDetails).toEqual(estimated.costDetails);
  expect(stored.calculatedTotalCost ?? stored.totalCost).toBe(estimated.totalCost);
  expect(stored.modelId ?? stored.internalModelId).toBe(estimated.matchedModel?.id ?? null);
  expect(stored.usagePricingTierName).toBe(estimated.pricingTier);
}

beforeAll(async () => {
  server = await startServer({ port: 0, ephemeral: true });
  const created = await call('POST', '/api/public/v2/prompts', { name: PROMPT, type: 'text', prompt: 'Answer briefly: {{question}}', labels: ['production'] });
  expect(created.status).toBe(201);
});

afterAll(async () => {
  await server?.close();
});

// Generations every client sends: with usage, tokenized chat input, a prompt link, a tiered model.
const generations = {
  withUsage: { model: 'gpt-4o', input: chat, output: answer, usageDetails: { input: 120, output: 30 } },
  tokenized: { model: 'gpt-4o', input: chat, output: answer },
  prompted: { model: 'gpt-4o-mini', input: 'Answer briefly: What is the capital of Australia?', output: answer },
  tiered: { model: 'gemini-2.5-pro', input: 'long document', output: 'summary', usageDetails: { input: 250_000, output: 1_000 } },
};

describe('@langfuse/tracing with @langfuse/otel (OTLP/JSON)', () => {
  it('records the trace and prices each generation like llmobs estimate', async () => {
    const processor = new LangfuseSpanProcessor({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: server.url, exportMode: 'immediate' });
    const provider = new NodeTracerProvider({ spanProcessors: [processor] });
    setLangfuseTracerProvider(provider);
    const ids: Record<string, string> = {};
    let traceId = '';
    try {
      const root = startObservation('request', { input: { question: 'capital of Australia' } });
      traceId = root.traceId;
      for (const [name, g] of Object.entries(generations)) {
        const generation = root.startObservation(
          name,
          { model: g.model, input: g.input, output: g.output, ...('usageDetails' in g ? { usageDetails: g.usageDetails } : {}), ...(name === 'prompted' ? { prompt: { name: PROMPT, version: 1, isFallback: false } } : {}) },
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

    const traceAnswer = await call('GET', `/api/public/traces/${traceId}`, undefined, { unchecked: true });
    expect(traceAnswer.status).toBe(200);
    expect(traceAnswer.body).toMatchObject({ id: traceId, name: 'request' });
    const expected = await estimates(Object.values(generations));
    const names = Object.keys(generations);
    for (let i = 0; i < names.length; i++) {
      const stored = await observation(ids[names[i]!]!);
      expect(stored).toMatchObject({ type: 'GENERATION', traceId, name: names[i] });
      expectPricedAsEstimated(stored, expected[i]);
    }
    expect((await observation(ids['tokenized']!)).usageDetails.input).toBeGreaterThan(10);
    expect(await observation(ids['prompted']!)).toMatchObject({ promptName: PROMPT, promptVersion: 1 });
    expect((await observation(ids['prompted']!)).promptId).toEqual(expect.any(String));
    expect((await observation(ids['tiered']!)).usagePricingTierName).toBe('Large Context');
  });
});

describe('OpenTelemetry OTLP/protobuf exporter (gzip)', () => {
  it('maps gen_ai.* spans to generations priced like llmobs estimate', async () => {
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
      for (const [name, g] of Object.entries(generations)) {
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

    const traceAnswer = await call('GET', `/api/public/traces/${traceId}`, undefined, { unchecked: true });
    expect(traceAnswer.status).toBe(200);
    expect(traceAnswer.body).toMatchObject({ id: traceId, name: 'agent run', userId: 'u-42', tags: ['otel', 'protobuf'] });
    // The span sends the messages as text; estimate them as the server received them.
    const expected = await estimates(
      Object.values(generations).map((g) => ({ ...g, input: typeof g.input === 'string' ? g.input : JSON.stringify(g.input) })),
    );
    const names = Object.keys(generations);
    for (let i = 0; i < names.length; i++) {
      const stored = await observation(ids[names[i]!]!);
      expect(stored).toMatchObject({ type: 'GENERATION', traceId, parentObservationId: rootSpanId, name: names[i] });
      expectPricedAsEstimated(stored, expected[i]);
    }
    expect(await observation(ids['prompted']!)).toMatchObject({ promptName: PROMPT, promptVersion: 1 });
    expect((await observation(ids['tiered']!)).usagePricingTierName).toBe('Large Context');
  });
});

describe('langfuse v3 SDK (batch ingestion)', () => {
  it('records traces and generations, merging create and update events', async () => {
    const langfuse = new Langfuse({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: server.url, flushAt: 50 });
    const prompt = await langfuse.getPrompt(PROMPT, 1);
    const t = langfuse.trace({ name: 'v3 request', userId: 'u-7', tags: ['v3'] });
    const ids: Record<string, string> = {};
    for (const [name, g] of Object.entries(generations)) {
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

    const traceAnswer = await call('GET', `/api/public/traces/${t.id}`, undefined, { unchecked: true });
    expect(traceAnswer.status).toBe(200);
    expect(traceAnswer.body).toMatchObject({ id: t.id, name: 'v3 request', userId: 'u-7', tags: ['v3'] });
    const expected = await estimates(Object.values(generations));
    const names = Object.keys(generations);
    for (let i = 0; i < names.length; i++) {
      const stored = await observation(ids[names[i]!]!);
      expect(stored).toMatchObject({ type: 'GENERATION', traceId: t.id, name: names[i], output: generations[names[i] as keyof typeof generations].output });
      expect(stored.endTime).toEqual(expect.any(String));
      expectPricedAsEstimated(stored, expected[i]);
    }
    expect(await observation(ids['prompted']!)).toMatchObject({ promptName: PROMPT, promptVersion: 1 });
  });
});
