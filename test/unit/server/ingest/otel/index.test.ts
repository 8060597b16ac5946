import { gzipSync } from 'node:zlib';
import protobuf from 'protobufjs/light.js';
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../../../src/core/estimate.js';
import { decodeOtlpBody, processOtel } from '../../../../../src/server/ingest/otel/index.js';
import { OTLP_TRACE_DESCRIPTOR } from '../../../../../src/server/ingest/otel/otlp-schema.js';
import type { IngestAuth } from '../../../../../src/server/ingest/types.js';
import { engineCounter } from '../../../../../src/tokenizer/index.js';
import { MemoryStore } from '../support/memory-store.js';

const project: IngestAuth = { projectId: 'proj-1', accessLevel: 'project' };
const NOW = new Date('2026-03-01T12:00:00.000Z');
const limits = { maxInflatedBytes: 1_000_000 };

const str = (stringValue: string) => ({ stringValue });
const attr = (key: string, value: unknown) => ({ key, value });

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const chat = [{ role: 'user', content: 'Name three primary colours.' }];

/** An export as @langfuse/otel sends it (OTLP/JSON): a root span and a generation under it. */
function exportRequest() {
  return {
    resourceSpans: [
      {
        resource: { attributes: [attr('service.name', str('shop')), attr('telemetry.sdk.language', str('nodejs'))] },
        scopeSpans: [
          {
            scope: { name: 'langfuse-sdk', version: '5.0.0' },
            spans: [
              {
                traceId: TRACE,
                spanId: 'b7ad6b7169203331',
                parentSpanId: '00f067aa0ba902b7',
                name: 'answer',
                startTimeUnixNano: '1772366400000000000',
                endTimeUnixNano: '1772366401000000000',
                attributes: [
                  attr('langfuse.observation.type', str('generation')),
                  attr('langfuse.observation.model.name', str('gpt-4o')),
                  attr('langfuse.observation.input', str(JSON.stringify(chat))),
                  attr('langfuse.observation.output', str('Red, yellow and blue.')),
                  attr('langfuse.observation.model.parameters', str('{"temperature":0}')),
                  attr('langfuse.environment', str('staging')),
                ],
                status: {},
              },
              {
                traceId: TRACE,
                spanId: '00f067aa0ba902b7',
                name: 'request',
                startTimeUnixNano: '1772366399000000000',
                endTimeUnixNano: '1772366402000000000',
                attributes: [attr('langfuse.trace.name', str('colours')), attr('user.id', str('u-1')), attr('langfuse.trace.tags', { arrayValue: { values: [str('demo')] } })],
                status: {},
              },
            ],
          },
        ],
      },
    ],
  };
}

function ingest(store: MemoryStore, resourceSpans: unknown) {
  const result = processOtel(resourceSpans, project, store, { now: NOW, count: engineCounter });
  store.apply(result.writes);
  return result;
}

describe('OTel export to records', () => {
  it('records the trace and its observations, the generation priced like llmobs estimate', () => {
    const store = new MemoryStore();
    ingest(store, exportRequest().resourceSpans);
    expect(store.traces.get(TRACE)).toMatchObject({ name: 'colours', userId: 'u-1', tags: ['demo'], environment: 'default', timestamp: '2026-03-01T11:59:59.000Z' });
    const generation = store.observations.get('b7ad6b7169203331')!;
    const expected = estimate({ model: 'gpt-4o', input: JSON.stringify(chat), output: 'Red, yellow and blue.' }, { definitions: store.definitions(), count: engineCounter });
    expect(generation).toMatchObject({
      type: 'GENERATION',
      traceId: TRACE,
      parentObservationId: '00f067aa0ba902b7',
      environment: 'staging',
      providedModelName: 'gpt-4o',
      modelParameters: { temperature: 0 },
      usageDetails: expected.usageDetails,
      costDetails: expected.costDetails,
      totalCost: expected.totalCost,
      internalModelId: expected.matchedModel!.id,
      usagePricingTierName: 'Standard',
    });
    expect(generation.usageDetails.input).toBeGreaterThan(5);
    expect(store.observations.get('00f067aa0ba902b7')).toMatchObject({ type: 'SPAN', name: 'request', parentObservationId: null });
  });

  it('records no event ids (span events have no stable id) and re-sending a span changes nothing but updatedAt', () => {
    const store = new MemoryStore();
    const first = ingest(store, exportRequest().resourceSpans);
    expect(first.writes.eventIds).toEqual([]);
    const before = structuredClone(store.observations.get('b7ad6b7169203331'));
    const again = processOtel(exportRequest().resourceSpans, project, store, { now: new Date(NOW.getTime() + 1000), count: engineCounter }).writes.observations;
    const o = again.find(({ record }) => record.id === 'b7ad6b7169203331')!.record;
    expect({ ...o, updatedAt: before!.updatedAt }).toEqual(before);
  });

  it('drops a span whose observation fails the ingestion schema, without failing the others', () => {
    const request = exportRequest();
    request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.push(attr('langfuse.observation.prompt.version', str('three')));
    const store = new MemoryStore();
    const result = ingest(store, request.resourceSpans);
    expect(result.droppedSpans).toBe(1);
    expect(store.observations.has('b7ad6b7169203331')).toBe(false);
    expect(store.observations.has('00f067aa0ba902b7')).toBe(true);
  });

  it('links the prompt named by the span when the project has it', () => {
    const request = exportRequest();
    request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.push(attr('langfuse.observation.prompt.name', str('colours')), attr('langfuse.observation.prompt.version', { intValue: '4' }));
    const store = new MemoryStore();
    store.prompts = [{ id: 'prompt-4', name: 'colours', version: 4 }];
    ingest(store, request.resourceSpans);
    expect(store.observations.get('b7ad6b7169203331')).toMatchObject({ promptId: 'prompt-4', promptName: 'colours', promptVersion: 4 });
  });

  it('reads tier attributes from the span itself, with or without usage', () => {
    const request = exportRequest();
    request.resourceSpans[0]!.scopeSpans[0]!.spans[0]!.attributes.push(attr('langfuse.observation.model.parameters', str('{"service_tier":"priority"}')));
    const store = new MemoryStore();
    ingest(store, request.resourceSpans);
    expect(store.observations.get('b7ad6b7169203331')!.usagePricingTierName).toBe('Fast mode');
  });
});

describe('OTLP bodies', () => {
  const type = protobuf.Root.fromJSON(OTLP_TRACE_DESCRIPTOR as never).lookupType('otlp.ExportTraceServiceRequest');
  const hexBytes = (hex: string) => Buffer.from(hex, 'hex');

  function protobufBody(): Buffer {
    const request = exportRequest();
    for (const span of request.resourceSpans[0]!.scopeSpans[0]!.spans as any[]) {
      span.traceId = hexBytes(span.traceId);
      span.spanId = hexBytes(span.spanId);
      if (span.parentSpanId) span.parentSpanId = hexBytes(span.parentSpanId);
    }
    return Buffer.from(type.encode(type.fromObject(request)).finish());
  }

  it('decodes protobuf to the same records as JSON', () => {
    const viaJson = new MemoryStore();
    const json = decodeOtlpBody(Buffer.from(JSON.stringify(exportRequest())), 'application/json', undefined, limits);
    ingest(viaJson, json.ok && json.resourceSpans);
    const viaProtobuf = new MemoryStore();
    const decoded = decodeOtlpBody(protobufBody(), 'application/x-protobuf', undefined, limits);
    expect(decoded.ok).toBe(true);
    ingest(viaProtobuf, decoded.ok && decoded.resourceSpans);
    expect([...viaProtobuf.observations.values()]).toEqual([...viaJson.observations.values()]);
    expect([...viaProtobuf.traces.values()]).toEqual([...viaJson.traces.values()]);
    expect(viaJson.observations.size).toBe(2);
  });

  it('inflates gzip bodies, within a limit', () => {
    const body = gzipSync(protobufBody());
    const decoded = decodeOtlpBody(body, 'application/x-protobuf', 'gzip', limits);
    expect(decoded.ok && Array.isArray(decoded.resourceSpans)).toBe(true);
    const bomb = gzipSync(Buffer.alloc(2_000_000, 0x20));
    expect(decodeOtlpBody(bomb, 'application/json', 'gzip', limits)).toEqual({ ok: false, status: 413, error: 'Decompressed request body exceeds 1000000 bytes' });
  });

  it.each([
    [Buffer.from('{}'), 'text/plain', undefined, 'Invalid content type'],
    [Buffer.from('{}'), undefined, undefined, 'Invalid content type'],
    [Buffer.from('not gzip'), 'application/json', 'gzip', 'Failed to decompress request body'],
    [Buffer.from('{oops'), 'application/json', undefined, 'Failed to parse OTel JSON Trace'],
    [Buffer.from('null'), 'application/json; charset=utf-8', undefined, 'Failed to parse OTel JSON Trace'],
    [Buffer.from([0x0a, 0xff, 0xff, 0xff]), 'application/x-protobuf', undefined, 'Failed to parse OTel Protobuf Trace'],
  ])('answers 400 for a bad body (%#)', (body, contentType, encoding, error) => {
    expect(decodeOtlpBody(body, contentType, encoding, limits)).toEqual({ ok: false, status: 400, error });
  });
});
