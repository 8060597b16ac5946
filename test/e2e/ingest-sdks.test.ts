// The OpenTelemetry clients send traces to `llmobs server`: @langfuse/tracing with @langfuse/otel
// (OTLP/JSON), an OpenTelemetry OTLP/protobuf exporter (gzip) with gen_ai.* spans, and the wire
// format of the langfuse Python SDK v3 (OTLP/protobuf). Each sends generations with and without
// usage, with chat input, with a prompt link and on a tiered model, in the default events_only
// write mode (read back with v2 observations) and in dual (the trace and v1 observations too).
// Usage and cost are checked against `llmobs estimate` (the built binary) for the same
// generations. The legacy batch SDK is in ingest-sdks-v3.test.ts.
import { LangfuseSpanProcessor } from '@langfuse/otel';
import { setLangfuseTracerProvider, startObservation } from '@langfuse/tracing';
import { context, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import type { WriteMode } from '../../src/api/write-mode.js';
import { basicAuth } from '../helpers/server-api.js';
import { answer, estimates, expectCommonOutcome, expectPricedAsEstimated, generations, type Name, names, PROMPT, readBack, readsOf, serverWithPrompt } from '../helpers/sdk-read-back.js';

const MODES: WriteMode[] = ['events_only', 'dual'];

describe.each(MODES)('@langfuse/tracing with @langfuse/otel (OTLP/JSON), %s', (writeMode) => {
  it('records the trace and prices each generation like llmobs estimate', async () => {
    const server = await serverWithPrompt(writeMode);
    const processor = new LangfuseSpanProcessor({ publicKey: server.keys.publicKey, secretKey: server.keys.secretKey, baseUrl: server.url, exportMode: 'immediate' });
    const provider = new NodeTracerProvider({ spanProcessors: [processor] });
    setLangfuseTracerProvider(provider);
    const ids = {} as Record<Name, string>;
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
    if (read.trace) expect(read.trace).toMatchObject({ id: traceId, name: 'request' });
    const expected = await estimates(names.map((name) => generations[name]));
    names.forEach((name, i) => {
      for (const o of readsOf(read, name, ids[name])) expect(o).toMatchObject({ type: 'GENERATION', traceId, name });
      if (read.v1) expect(read.v1[name].model).toBe(generations[name].model);
      expectPricedAsEstimated(read, name, ids[name], expected[i]);
    });
    expectCommonOutcome(read, ids);
  });
});

describe.each(MODES)('OpenTelemetry OTLP/protobuf exporter (gzip), %s', (writeMode) => {
  it('maps gen_ai.* spans to generations priced like llmobs estimate', async () => {
    const server = await serverWithPrompt(writeMode);
    const exporter = new OTLPTraceExporter({ url: `${server.url}/api/public/otel/v1/traces`, headers: { Authorization: basicAuth(server) }, compression: 'gzip' as never });
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('my-agent', '1.0.0');
    const ids = {} as Record<Name, string>;
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
    if (read.trace) expect(read.trace).toMatchObject({ id: traceId, name: 'agent run', userId: 'u-42', tags: ['otel', 'protobuf'] });
    if (read.v2) expect(read.v2.get(rootSpanId)).toMatchObject({ name: 'agent run', userId: 'u-42', isRootObservation: true });
    // The spans carry the messages as text: estimate them as the server received them.
    const expected = await estimates(names.map((name) => ({ ...generations[name], input: typeof generations[name].input === 'string' ? generations[name].input : JSON.stringify(generations[name].input) })));
    names.forEach((name, i) => {
      for (const o of readsOf(read, name, ids[name])) expect(o).toMatchObject({ type: 'GENERATION', traceId, parentObservationId: rootSpanId, name });
      expectPricedAsEstimated(read, name, ids[name], expected[i]);
    });
    expectCommonOutcome(read, ids);
  });
});

// The langfuse Python SDK cannot be installed on this machine (no PyPI): this sends what its v3
// sends, read from its source (langfuse/_client/span_processor.py and attributes.py, v3.15.0),
// through the OpenTelemetry OTLP/protobuf exporter its processor wraps: the "langfuse-sdk" scope,
// its headers, and langfuse.* attributes with JSON text for input, usage and model parameters.
describe('the langfuse Python SDK v3 wire format (OTLP/protobuf), events_only', () => {
  it('records generations priced like llmobs estimate', async () => {
    const server = await serverWithPrompt('events_only');
    const exporter = new OTLPTraceExporter({
      url: `${server.url}/api/public/otel/v1/traces`,
      headers: { Authorization: basicAuth(server), 'x-langfuse-sdk-name': 'python', 'x-langfuse-sdk-version': '3.15.0', 'x-langfuse-public-key': server.keys.publicKey },
    });
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const tracer = provider.getTracer('langfuse-sdk', '3.15.0');
    const ids = {} as Record<Name, string>;
    let traceId = '';
    try {
      const root = tracer.startSpan('request', { attributes: { 'langfuse.observation.type': 'span', 'langfuse.observation.input': JSON.stringify({ question: 'capital of Australia' }) } });
      traceId = root.spanContext().traceId;
      const parent = trace.setSpan(context.active(), root);
      for (const name of names) {
        const g = generations[name];
        const attributes: Record<string, string | number> = {
          'langfuse.observation.type': 'generation',
          'langfuse.observation.model.name': g.model,
          // _serialize: strings as they are, anything else as json.dumps.
          'langfuse.observation.input': typeof g.input === 'string' ? g.input : JSON.stringify(g.input),
          'langfuse.observation.output': g.output,
          'langfuse.observation.model.parameters': JSON.stringify({ temperature: 0 }),
        };
        if ('usageDetails' in g) attributes['langfuse.observation.usage_details'] = JSON.stringify(g.usageDetails);
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
    const expected = await estimates(names.map((name) => generations[name]));
    names.forEach((name, i) => {
      expect(read.v2!.get(ids[name])).toMatchObject({ type: 'GENERATION', traceId, name, modelParameters: { temperature: 0 } });
      expectPricedAsEstimated(read, name, ids[name], expected[i]);
    });
    expectCommonOutcome(read, ids);
  });
});
