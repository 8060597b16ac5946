// The official clients send traces to `llmobs server`: @langfuse/tracing with @langfuse/otel
// (OTLP/JSON), an OpenTelemetry OTLP/protobuf exporter (gzip), and the legacy langfuse v3 SDK
// (batch ingestion). Each sends generations with and without usage, with chat input, with a
// prompt link and on a tiered model. The test reads what was stored (from the data directory's
// store, once the server has closed) and checks usage and cost against `llmobs estimate` (the
// built binary) for the same generations.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider, startObservation } from '@langfuse/tracing';
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { Langfuse } from 'langfuse';
import { describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server/index.js';
import type { ObservationRecord, TraceRecord } from '../../src/server/records.js';
import { Store } from '../../src/server/store/index.js';
import { llmobs } from '../helpers/bin.js';
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

/** A server on a fresh data directory, with the prompt the generations link to. */
async function session(): Promise<{ server: RunningServer; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'llmobs-e2e-ingest-'));
  const server = await startServer({ port: 0, dataDir });
  const created = await apiCaller(() => server)('POST', '/api/public/v2/prompts', { name: PROMPT, type: 'text', prompt: 'Answer briefly: {{question}}', labels: ['production'] });
  expect(created.status).toBe(201);
  return { server, dataDir };
}

/** Closes the server and reads what it stored. */
async function stored(server: RunningServer, dataDir: string, traceId: string, ids: Record<string, string>) {
  await server.close();
  const { store } = Store.open({ dataDir, now: () => new Date() });
  try {
    return store.read((tx) => ({
      trace: tx.traces.get(traceId) as TraceRecord,
      observations: Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, tx.observations.get(id) as ObservationRecord])) as Record<Name, ObservationRecord>,
      promptId: tx.prompts.get(PROMPT, 1)!.id,
    }));
  } finally {
    store.close();
  }
}

/** The stored generation carries what `llmobs estimate` computes for the same generation. */
function expectPricedAsEstimated(record: ObservationRecord, estimated: any) {
  expect(record.usageDetails).toEqual(estimated.usageDetails);
  expect(record.costDetails).toEqual(estimated.costDetails);
  expect(record.totalCost).toBe(estimated.totalCost);
  expect(record.internalModelId).toBe(estimated.matchedModel?.id ?? null);
  expect(record.usagePricingTierName).toBe(estimated.pricingTier);
}

function expectCommonOutcome(records: Record<Name, ObservationRecord>, promptId: string) {
  expect(records.tokenized.providedUsageDetails).toEqual({});
  expect(records.tokenized.usageDetails.input).toBeGreaterThan(10);
  expect(records.prompted).toMatchObject({ promptId, promptName: PROMPT, promptVersion: 1 });
  expect(records.tiered.usagePricingTierName).toBe('Large Context');
  expect(records.withUsage.usagePricingTierName).toBe('Standard');
}

describe('@langfuse/tracing with @langfuse/otel (OTLP/JSON)', () => {
  it('records the trace and prices each generation like llmobs estimate', async () => {
    const { server, dataDir } = await session();
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

    const { trace: t, observations, promptId } = await stored(server, dataDir, traceId, ids);
    expect(t).toMatchObject({ id: traceId, name: 'request' });
    const expected = await estimates(names.map((name) => generations[name]));
    names.forEach((name, i) => {
      expect(observations[name]).toMatchObject({ type: 'GENERATION', traceId, name });
      expectPricedAsEstimated(observations[name], expected[i]);
    });
    expectCommonOutcome(observations, promptId);
  });
});

describe('OpenTelemetry OTLP/protobuf exporter (gzip)', () => {
  it('maps gen_ai.* spans to generations priced like llmobs estimate', async () => {
    const { server, dataDir } = await session();
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

    const { trace: t, observations, promptId } = await stored(server, dataDir, traceId, ids);
    expect(t).toMatchObject({ id: traceId, name: 'agent run', userId: 'u-42', tags: ['otel', 'protobuf'] });
    // The spans carry the messages as text: estimate them as the server received them.
    const expected = await estimates(names.map((name) => ({ ...generations[name], input: typeof generations[name].input === 'string' ? generations[name].input : JSON.stringify(generations[name].input) })));
    names.forEach((name, i) => {
      expect(observations[name]).toMatchObject({ type: 'GENERATION', traceId, parentObservationId: rootSpanId, name });
      expectPricedAsEstimated(observations[name], expected[i]);
    });
    expectCommonOutcome(observations, promptId);
  });
});

describe('langfuse v3 SDK (batch ingestion)', () => {
  it('records traces and generations, merging create and update events', async () => {
    const { server, dataDir } = await session();
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

    const { trace: stTrace, observations, promptId } = await stored(server, dataDir, t.id, ids);
    expect(stTrace).toMatchObject({ id: t.id, name: 'v3 request', userId: 'u-7', tags: ['v3'] });
    const expected = await estimates(names.map((name) => generations[name]));
    names.forEach((name, i) => {
      expect(observations[name]).toMatchObject({ type: 'GENERATION', traceId: t.id, name, output: generations[name].output });
      expect(observations[name].endTime).toEqual(expect.any(String));
      expectPricedAsEstimated(observations[name], expected[i]);
    });
    expectCommonOutcome(observations, promptId);
  });
});
