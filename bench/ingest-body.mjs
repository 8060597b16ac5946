// The body of one ingestion request of bench/ingest.mjs: a trace and 100 generations under it,
// with usage provided ("provided") or without (kind "tokenize": the server counts their tokens);
// `otlpBody` is the same request as an OTLP/JSON export (the way in of events_only).
import { randomUUID } from 'node:crypto';

const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'gpt-4.1', 'my-unknown-model'];
const QUESTIONS = [
  'What is the boiling point of water at sea level, in Celsius and Fahrenheit?',
  'Summarise the plot of Hamlet in two sentences for a ten-year-old.',
  'Write a haiku about continuous integration pipelines that fail on Fridays.',
  'Translate "the invoice is overdue" into French, German and Japanese.',
];

let sequence = 0;
/** One request body: a trace and 100 generations under it. */
export function batchBody(kind = 'provided') {
  const run = sequence++;
  const now = new Date().toISOString();
  // Random UUIDs for every id, as the SDKs send (sequential ids would insert into the id indexes
  // at one end only, which flatters a B-tree store).
  const traceId = randomUUID();
  const batch = [{ id: randomUUID(), type: 'trace-create', timestamp: now, body: { id: traceId, name: 'bench', userId: `user-${run % 17}` } }];
  for (let i = 0; i < 100; i++) {
    const body = {
      id: randomUUID(),
      traceId,
      name: 'llm-call',
      model: MODELS[i % MODELS.length],
      startTime: now,
      endTime: now,
      input: [
        { role: 'system', content: 'You are a concise assistant.' },
        { role: 'user', content: `${QUESTIONS[i % QUESTIONS.length]} (${run}-${i})` },
      ],
      output: 'Here is a short answer that a model might give, with a number or two: 100 °C, 212 °F.',
      modelParameters: { temperature: 0.2, max_tokens: 256 },
      metadata: { request: `${run}-${i}` },
    };
    if (kind !== 'tokenize') body.usageDetails = { input: 200 + i, output: 40 + (i % 7), input_cached_tokens: i % 3 };
    batch.push({ id: randomUUID(), type: 'generation-create', timestamp: now, body });
  }
  return JSON.stringify({ batch });
}

const str = (stringValue) => ({ stringValue });
const attr = (key, value) => ({ key, value });
const hex = (bytes) => randomUUID().replace(/-/g, '').slice(0, bytes * 2);

/**
 * The same request as OTLP/JSON, as @langfuse/otel exports it: a root span (the trace) and 100
 * generation spans under it, usage in `langfuse.observation.usage_details` ("provided") or none
 * ("tokenize"). Random trace and span ids, as the SDKs make them.
 */
export function otlpBody(kind = 'provided') {
  const run = sequence++;
  const traceId = hex(16);
  const rootId = hex(8);
  const now = BigInt(Date.now()) * 1_000_000n;
  const spans = [{ traceId, spanId: rootId, name: 'bench', startTimeUnixNano: String(now), endTimeUnixNano: String(now), attributes: [attr('langfuse.trace.name', str('bench')), attr('user.id', str(`user-${run % 17}`))], status: {} }];
  for (let i = 0; i < 100; i++) {
    const attributes = [
      attr('langfuse.observation.type', str('generation')),
      attr('langfuse.observation.model.name', str(MODELS[i % MODELS.length])),
      attr('langfuse.observation.input', str(JSON.stringify([{ role: 'system', content: 'You are a concise assistant.' }, { role: 'user', content: `${QUESTIONS[i % QUESTIONS.length]} (${run}-${i})` }]))),
      attr('langfuse.observation.output', str('Here is a short answer that a model might give, with a number or two: 100 °C, 212 °F.')),
      attr('langfuse.observation.model.parameters', str('{"temperature":0.2,"max_tokens":256}')),
      attr('langfuse.observation.metadata.request', str(`${run}-${i}`)),
    ];
    if (kind !== 'tokenize') attributes.push(attr('langfuse.observation.usage_details', str(JSON.stringify({ input: 200 + i, output: 40 + (i % 7), input_cached_tokens: i % 3 }))));
    spans.push({ traceId, spanId: hex(8), parentSpanId: rootId, name: 'llm-call', startTimeUnixNano: String(now), endTimeUnixNano: String(now), attributes, status: {} });
  }
  const resource = { attributes: [attr('service.name', str('bench')), attr('telemetry.sdk.language', str('nodejs'))] };
  return JSON.stringify({ resourceSpans: [{ resource, scopeSpans: [{ scope: { name: 'langfuse-sdk', version: '5.0.0' }, spans }] }] });
}

/** The messages of opentelemetry-proto's trace export that `otlpBody`'s spans use, as .proto text. */
const OTLP_PROTO = `
syntax = "proto3";
package bench;
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; } }
message KeyValue { string key = 1; AnyValue value = 2; }
message Resource { repeated KeyValue attributes = 1; }
message InstrumentationScope { string name = 1; string version = 2; }
message Status { string message = 2; int32 code = 3; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; Status status = 15;
}
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
`;

let exportRequest;

/**
 * An OTLP/JSON export (`otlpBody`'s, parsed) as OTLP/protobuf, the encoding of the Python SDK's
 * and the Collector's exporters: ids as bytes, encoded by protobufjs from the .proto text above.
 */
export async function otlpProtobuf(json) {
  if (!exportRequest) {
    const { default: protobuf } = await import('protobufjs');
    exportRequest = protobuf.parse(OTLP_PROTO, { keepCase: false }).root.lookupType('bench.ExportTraceServiceRequest');
  }
  const ids = (span) => ({ ...span, traceId: Buffer.from(span.traceId, 'hex'), spanId: Buffer.from(span.spanId, 'hex'), ...(span.parentSpanId ? { parentSpanId: Buffer.from(span.parentSpanId, 'hex') } : {}) });
  const request = { resourceSpans: json.resourceSpans.map((r) => ({ ...r, scopeSpans: r.scopeSpans.map((s) => ({ ...s, spans: s.spans.map(ids) })) })) };
  return Buffer.from(exportRequest.encode(exportRequest.fromObject(request)).finish());
}
