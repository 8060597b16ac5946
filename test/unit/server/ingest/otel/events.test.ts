// Span-to-event mapping, checked against the cases of Langfuse's own OTel mapping tests.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type RawEvent, spansToEvents } from '../../../../../src/server/ingest/otel/events.js';
import { nanoToIso } from '../../../../../src/server/ingest/otel/values.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');

function convert(resourceSpan: unknown, seen: Set<string> = new Set()): RawEvent[] {
  let n = 0;
  return spansToEvents([resourceSpan], { traceSeen: (id) => seen.has(id), now: NOW, newId: () => `event-${++n}` });
}

const str = (stringValue: string) => ({ stringValue });
const attr = (key: string, value: unknown) => ({ key, value });

const TRACE_ID = { type: 'Buffer', data: [44, 206, 24, 247, 232, 205, 6, 90, 11, 78, 99, 78, 239, 114, 131, 145] };
const PYTHON_RESOURCE = {
  attributes: [
    attr('telemetry.sdk.language', str('python')),
    attr('telemetry.sdk.name', str('opentelemetry')),
    attr('telemetry.sdk.version', str('1.32.0')),
    attr('langfuse.environment', str('production')),
    attr('langfuse.release', str('0.0.1')),
    attr('service.name', str('unknown_service')),
  ],
};

describe('Langfuse SDK spans', () => {
  it('maps a generation and its parent span, with their traces', () => {
    const events = convert({
      resource: PYTHON_RESOURCE,
      scopeSpans: [
        {
          scope: { name: 'langfuse-sdk', version: '2.60.3', attributes: [attr('public_key', str('pk-lf-1234567890'))] },
          spans: [
            {
              traceId: TRACE_ID,
              spanId: { type: 'Buffer', data: [87, 240, 37, 84, 23, 151, 65, 189] },
              parentSpanId: { type: 'Buffer', data: [223, 227, 135, 254, 167, 239, 59, 2] },
              name: 'my-generation',
              kind: 1,
              startTimeUnixNano: { low: 466848096, high: 406528574, unsigned: true },
              endTimeUnixNano: { low: 467248096, high: 406528574, unsigned: true },
              attributes: [
                attr('langfuse.observation.type', str('generation')),
                attr('langfuse.observation.level', str('WARNING')),
                attr('langfuse.observation.status_message', str('nothing to report')),
                attr('langfuse.observation.input', str('[{"role": "user", "content": "hello"}]')),
                attr('langfuse.observation.output', str('{"role": "assistant", "content": "what\'s up?"}')),
                attr('langfuse.observation.model.name', str('gpt-4o')),
                attr('langfuse.observation.prompt.name', str('my-prompt')),
                attr('langfuse.observation.prompt.version', { intValue: { low: 1, high: 0, unsigned: false } }),
                attr('langfuse.observation.usage_details', str('{"input_tokens": 123, "output_tokens": 456}')),
                attr('langfuse.observation.cost_details', str('{"input_tokens": 0.0001, "output_tokens": 0.002}')),
                attr('langfuse.observation.completion_start_time', str('"2025-04-30T15:28:50.686390Z"')),
                attr('langfuse.observation.model_parameters', str('{"temperature": 1, "top_p": "0.2"}')),
                attr('langfuse.observation.metadata.key1', str('"value1"')),
                attr('langfuse.observation.metadata.key2', str('"value2"')),
                attr('langfuse.trace.name', str('test-trace')),
                attr('user.id', str('my-user')),
                attr('session.id', str('my-session')),
                attr('langfuse.version', str('trace-0.0.1')),
                attr('langfuse.trace.input', str('[{"role": "user", "content": "hello"}]')),
                attr('langfuse.trace.output', str('{"role": "assistant", "content": "what\'s up?"}')),
                attr('langfuse.trace.tags', { arrayValue: { values: [str('tag2')] } }),
                attr('langfuse.trace.public', { boolValue: true }),
                attr('langfuse.trace.metadata.trace-key1', str('"value1"')),
                attr('langfuse.trace.metadata.trace-key2', str('"value2"')),
              ],
              status: {},
            },
            {
              traceId: TRACE_ID,
              spanId: { type: 'Buffer', data: [223, 227, 135, 254, 167, 239, 59, 2] },
              name: 'my-span',
              kind: 1,
              startTimeUnixNano: { low: 205413096, high: 406528574, unsigned: true },
              endTimeUnixNano: { low: 467608096, high: 406528574, unsigned: true },
              attributes: [
                attr('langfuse.observation.type', str('span')),
                attr('langfuse.trace.tags', { arrayValue: { values: [str('tag1')] } }),
                attr('langfuse.trace.metadata.trace-key0', str('"value1"')),
              ],
              status: {},
            },
          ],
        },
      ],
    });
    const traces = events.filter((e) => e.type === 'trace-create');
    expect(events.map((e) => e.type)).toEqual(['trace-create', 'generation-create', 'trace-create', 'span-create']);
    const defaultMetadata = {
      resourceAttributes: {
        'langfuse.environment': 'production',
        'langfuse.release': '0.0.1',
        'service.name': 'unknown_service',
        'telemetry.sdk.language': 'python',
        'telemetry.sdk.name': 'opentelemetry',
        'telemetry.sdk.version': '1.32.0',
      },
      scope: { name: 'langfuse-sdk', version: '2.60.3' },
    };
    expect(events[3]!.body).toMatchObject({
      id: 'dfe387fea7ef3b02',
      traceId: '2cce18f7e8cd065a0b4e634eef728391',
      parentObservationId: null,
      name: 'my-span',
      startTime: '2025-04-30T15:28:50.424Z',
      endTime: '2025-04-30T15:28:50.687Z',
      environment: 'production',
      metadata: defaultMetadata,
      level: 'DEFAULT',
      version: null,
      modelParameters: {},
      model: undefined,
      promptName: null,
      promptVersion: null,
      usageDetails: {},
      costDetails: {},
      input: null,
      output: null,
    });
    expect(events[1]!.body).toMatchObject({
      id: '57f02554179741bd',
      traceId: '2cce18f7e8cd065a0b4e634eef728391',
      parentObservationId: 'dfe387fea7ef3b02',
      name: 'my-generation',
      startTime: '2025-04-30T15:28:50.686Z',
      endTime: '2025-04-30T15:28:50.686Z',
      environment: 'production',
      metadata: defaultMetadata,
      level: 'WARNING',
      statusMessage: 'nothing to report',
      version: 'trace-0.0.1',
      modelParameters: {},
      model: 'gpt-4o',
      promptName: 'my-prompt',
      promptVersion: 1,
      usageDetails: { input_tokens: 123, output_tokens: 456 },
      costDetails: { input_tokens: 0.0001, output_tokens: 0.002 },
      input: '[{"role": "user", "content": "hello"}]',
      output: '{"role": "assistant", "content": "what\'s up?"}',
    });
    expect(traces[0]!.body).toMatchObject({
      id: '2cce18f7e8cd065a0b4e634eef728391',
      name: 'test-trace',
      tags: ['tag2'],
      userId: 'my-user',
      sessionId: 'my-session',
      input: '[{"role": "user", "content": "hello"}]',
      version: 'trace-0.0.1',
      environment: 'production',
      public: true,
      metadata: { ...defaultMetadata, 'trace-key1': '"value1"', 'trace-key2': '"value2"' },
    });
    expect(traces[1]!.body).toMatchObject({
      id: '2cce18f7e8cd065a0b4e634eef728391',
      timestamp: '2025-04-30T15:28:50.424Z',
      name: 'my-span',
      metadata: { ...defaultMetadata, 'trace-key0': '"value1"' },
      tags: ['tag1'],
      environment: 'production',
    });
  });

  it('makes a span with langfuse.internal.as_root the root of its trace', () => {
    const events = convert({
      resource: PYTHON_RESOURCE,
      scopeSpans: [
        {
          scope: { name: 'langfuse-sdk', version: '2.60.3' },
          spans: [
            {
              traceId: { type: 'Buffer', data: [149, 243, 185, 38, 199, 208, 9, 146, 91, 203, 93, 188, 39, 49, 17, 32] },
              spanId: { type: 'Buffer', data: [212, 62, 55, 183, 209, 126, 84, 118] },
              parentSpanId: { type: 'Buffer', data: [131, 78, 40, 181, 145, 127, 190, 246] },
              name: 'my-span-with-custom-trace-id',
              startTimeUnixNano: { low: 1047784088, high: 406627672, unsigned: true },
              endTimeUnixNano: { low: 1149405088, high: 406627672, unsigned: true },
              attributes: [attr('langfuse.observation.type', str('span')), attr('langfuse.internal.as_root', { boolValue: true })],
            },
          ],
        },
      ],
    });
    expect(events.map((e) => e.type)).toEqual(['trace-create', 'span-create']);
    expect(events[0]!.body).toMatchObject({ id: '95f3b926c7d009925bcb5dbc27311120', timestamp: '2025-05-05T13:42:33.936Z', name: 'my-span-with-custom-trace-id', environment: 'production' });
    expect(events[1]!.body).toMatchObject({ parentObservationId: '834e28b5917fbef6', startTime: '2025-05-05T13:42:33.936Z', endTime: '2025-05-05T13:42:34.038Z' });
  });
});

describe('property mapping (Langfuse test table)', () => {
  const table = JSON.parse(readFileSync(new URL('../../../../fixtures/otel/property-mapping.json', import.meta.url), 'utf8')) as {
    vectors: Array<{ name: string; entity: 'trace' | 'observation'; otelAttributeKey: string; otelAttributeValue: unknown; entityAttributeKey: string; entityAttributeValue?: unknown }>;
  };
  const span = {
    traceId: { type: 'Buffer', data: [234, 103, 55, 8, 68, 28, 41, 132, 165, 74, 62, 57, 98, 211, 89, 95] },
    spanId: { type: 'Buffer', data: [185, 4, 191, 251, 32, 190, 109, 126] },
    name: 'openai.chat.completions',
    kind: 3,
    startTimeUnixNano: { low: 153687506, high: 404677085, unsigned: true },
    endTimeUnixNano: { low: 1327836088, high: 404677085, unsigned: true },
  };

  it('has the table', () => {
    expect(table.vectors.length).toBeGreaterThan(70);
  });

  it.each(table.vectors.map((v) => [v.name, v] as const))('%s', (_name, v) => {
    const needsAiScope = v.otelAttributeKey.startsWith('ai.') || v.otelAttributeKey.startsWith('pydantic-ai.');
    const events = convert({
      scopeSpans: [{ ...(needsAiScope && { scope: { name: 'ai', version: '4.0.0' } }), spans: [{ ...span, attributes: [attr(v.otelAttributeKey, v.otelAttributeValue)] }] }],
    });
    const entity = v.entity === 'trace' ? events[0]! : events[1]!;
    const actual = v.entityAttributeKey.split('.').reduce((acc: any, key) => acc && acc[key], entity.body);
    expect(actual).toEqual(v.entityAttributeValue);
  });
});

function oneSpan(attributes: unknown[], extra: Record<string, unknown> = {}, scope: Record<string, unknown> = { name: 'test' }) {
  return {
    scopeSpans: [
      {
        scope,
        spans: [
          {
            traceId: 'abc123',
            spanId: 'span1',
            name: 'child',
            startTimeUnixNano: '1714487330000000000',
            endTimeUnixNano: '1714487331000000000',
            attributes,
            ...extra,
          },
        ],
      },
    ],
  };
}

describe('which spans make trace events', () => {
  it('a child span of an unseen trace makes a shallow trace (id, time, environment)', () => {
    const events = convert(oneSpan([], { parentSpanId: 'parent' }));
    expect(events.map((e) => e.type)).toEqual(['trace-create', 'span-create']);
    expect(events[0]!.body).toEqual({ id: 'abc123', timestamp: '2024-04-30T14:28:50.000Z', environment: 'default' });
  });

  it('a child span of a seen trace makes none', () => {
    expect(convert(oneSpan([], { parentSpanId: 'parent' }), new Set(['abc123'])).map((e) => e.type)).toEqual(['span-create']);
  });

  it('a root span makes a full trace even when the trace was seen', () => {
    const events = convert(oneSpan([attr('langfuse.trace.name', str('t'))]), new Set(['abc123']));
    expect(events[0]).toMatchObject({ type: 'trace-create', body: { name: 't' } });
  });

  it('a child span that sets trace attributes updates the trace', () => {
    const events = convert(
      oneSpan([attr('langfuse.trace.metadata.langfuse_user_id', str('u')), attr('langfuse.trace.metadata.langfuse_session_id', str('s')), attr('langfuse.trace.metadata.langfuse_tags', str('["a","b"]'))], {
        parentSpanId: 'parent',
      }),
      new Set(['abc123']),
    );
    expect(events[0]!.body).toMatchObject({ userId: 'u', sessionId: 's', tags: ['a', 'b'] });
  });

  it('keeps one full trace when a shallow and a full one meet in the same export', () => {
    const child = oneSpan([], { parentSpanId: 'root' }).scopeSpans[0]!.spans[0]!;
    const root = { ...child, spanId: 'root', parentSpanId: undefined, name: 'root' };
    const events = convert({ scopeSpans: [{ scope: { name: 'x' }, spans: [child, root] }] });
    expect(events.filter((e) => e.type === 'trace-create').map((e) => e.body['name'])).toEqual(['root']);
  });

  it('treats an empty parent span id as none', () => {
    const events = convert(oneSpan([], { parentSpanId: '' }));
    expect(events[1]!.body['parentObservationId']).toBeNull();
    expect(events[0]!.body['name']).toBe('child');
  });
});

describe('observation types', () => {
  it.each([
    [[attr('openinference.span.kind', str('LLM')), attr('gen_ai.operation.name', str('execute_tool'))], 'generation-create'],
    [[attr('gen_ai.operation.name', str('execute_tool')), attr('gen_ai.request.model', str('gpt-4o'))], 'tool-create'],
    [[attr('langfuse.observation.type', str('agent')), attr('openinference.span.kind', str('LLM'))], 'agent-create'],
    [[attr('gen_ai.request.model', str('gpt-4o'))], 'generation-create'],
    [[attr('gen_ai.tool.name', str('search'))], 'tool-create'],
    [[attr('langfuse.observation.type', str('unknown'))], 'span-create'],
    [[attr('operation.name', str('ai.toolCall')), attr('ai.toolCall.name', str('weather'))], 'tool-create'],
    [[attr('ai.operationId', str('ai.generateText.doGenerate'))], 'span-create'],
    [[attr('ai.operationId', str('ai.embed.doEmbed')), attr('ai.model.id', str('text-embedding-3-small'))], 'embedding-create'],
    [[attr('gen_ai.request.model', str('')), attr('gen_ai.tool.name', str('t'))], 'tool-create'],
  ])('%j -> %s', (attributes, type) => {
    expect(convert(oneSpan(attributes))[1]!.type).toBe(type);
  });

  it('corrects spans of Python SDK <= 3.3.0 that carry generation attributes', () => {
    const events = convert({
      resource: PYTHON_RESOURCE,
      scopeSpans: [{ scope: { name: 'langfuse-sdk', version: '3.3.0' }, spans: [{ ...oneSpan([]).scopeSpans[0]!.spans[0]!, attributes: [attr('langfuse.observation.type', str('span')), attr('langfuse.observation.model.name', str('gpt-4o'))] }] }],
    });
    expect(events[1]!.type).toBe('generation-create');
  });

  it('links prompts on generations only', () => {
    const prompt = [attr('langfuse.observation.prompt.name', str('p')), attr('langfuse.observation.prompt.version', { intValue: '2' })];
    expect(convert(oneSpan([attr('langfuse.observation.type', str('generation')), ...prompt]))[1]!.body).toMatchObject({ promptName: 'p', promptVersion: 2 });
    expect(convert(oneSpan([attr('langfuse.observation.type', str('tool')), ...prompt]))[1]!.body).toMatchObject({ promptName: null, promptVersion: null });
  });

  it('maps foreign level names and error statuses', () => {
    expect(convert(oneSpan([attr('langfuse.observation.level', str(' warn '))]))[1]!.body['level']).toBe('WARNING');
    expect(convert(oneSpan([], { status: { code: 2, message: 'boom' } }))[1]!.body).toMatchObject({ level: 'ERROR', statusMessage: 'boom' });
  });
});

describe('usage from GenAI attributes', () => {
  it('subtracts cache reads and writes from input and reasoning from output', () => {
    const body = convert(
      oneSpan([
        attr('gen_ai.request.model', str('claude')),
        attr('gen_ai.usage.input_tokens', { intValue: '1000' }),
        attr('gen_ai.usage.output_tokens', { intValue: '300' }),
        attr('gen_ai.usage.cache_read.input_tokens', { intValue: '200' }),
        attr('gen_ai.usage.cache_creation.input_tokens', { intValue: '100' }),
        attr('gen_ai.usage.reasoning.output_tokens', { intValue: '50' }),
        attr('gen_ai.usage.cost', { doubleValue: 0.5 }),
      ]),
    )[1]!.body;
    expect(body['usageDetails']).toEqual({ input: 700, output: 250, input_cached_tokens: 200, input_cache_creation: 100, output_reasoning_tokens: 50 });
    expect(body['costDetails']).toEqual({ total: 0.5 });
  });

  it('reads Vercel AI SDK usage with provider metadata', () => {
    const body = convert(
      oneSpan(
        [
          attr('ai.operationId', str('ai.streamText.doStream')),
          attr('ai.model.id', str('claude-sonnet-4')),
          attr('gen_ai.usage.input_tokens', { intValue: 1000 }),
          attr('gen_ai.usage.output_tokens', { intValue: 100 }),
          attr('ai.response.providerMetadata', str(JSON.stringify({ anthropic: { usage: { cache_creation_input_tokens: 30, cache_read_input_tokens: 500, cache_creation: { ephemeral_5m_input_tokens: 20, ephemeral_1h_input_tokens: 10 } } } }))),
        ],
        {},
        { name: 'ai' },
      ),
    )[1]!.body;
    expect(body['usageDetails']).toEqual({ input: 470, output: 100, total: undefined, input_cache_creation: 0, input_cached_tokens: 500, input_cache_creation_5m: 20, input_cache_creation_1h: 10 });
  });

  it('skips model and usage on AI SDK agent spans, which repeat their model calls', () => {
    const body = convert(oneSpan([attr('gen_ai.operation.name', str('invoke_agent')), attr('gen_ai.request.model', str('gpt-4o')), attr('gen_ai.usage.input_tokens', { intValue: '5' })]))[1]!.body;
    expect(body).toMatchObject({ model: undefined, usageDetails: {}, costDetails: {} });
  });
});

describe('input and output', () => {
  it('rebuilds flattened gen_ai.prompt messages and leaves them out of metadata', () => {
    const body = convert(
      oneSpan([
        attr('gen_ai.prompt.0.role', str('user')),
        attr('gen_ai.prompt.0.content', str('hi')),
        attr('gen_ai.completion.0.role', str('assistant')),
        attr('gen_ai.completion.0.content', str('hello')),
        attr('custom', { intValue: '3' }),
      ]),
    )[1]!.body;
    expect(body['input']).toEqual([{ role: 'user', content: 'hi' }]);
    expect(body['output']).toEqual([{ role: 'assistant', content: 'hello' }]);
    expect((body['metadata'] as any).attributes).toEqual({ custom: '3' });
  });

  it('does not let a __proto__ path pollute objects', () => {
    convert(oneSpan([attr('gen_ai.prompt.0.__proto__.polluted', str('yes'))]));
    expect(({} as any).polluted).toBeUndefined();
  });

  it('caps the array slots that flattened indices may create', () => {
    const body = convert(oneSpan([attr('gen_ai.prompt.0.content', str('a')), attr('gen_ai.prompt.99999999.content', str('b'))]))[1]!.body;
    expect(body['input']).toEqual([{ content: 'a' }]);
  });

  it('reads GenAI messages and prepends system instructions', () => {
    const body = convert(oneSpan([attr('gen_ai.input.messages', str('[{"role":"user","content":"q"}]')), attr('gen_ai.system_instructions', str('be brief')), attr('gen_ai.output.messages', str('[]'))]))[1]!.body;
    expect(body['input']).toBe('[{"role":"system","content":"be brief"},{"role":"user","content":"q"}]');
  });

  it('reads gen_ai message events', () => {
    const body = convert(
      oneSpan([], {
        events: [
          { name: 'gen_ai.user.message', attributes: [attr('content', str('q'))] },
          { name: 'gen_ai.choice', attributes: [attr('message', str('a'))] },
        ],
      }),
    )[1]!.body;
    expect(body).toMatchObject({ input: [{ role: 'user', content: 'q' }], output: { message: 'a' } });
  });
});

describe('timestamps', () => {
  it.each([
    ['1714487330000000000', '2024-04-30T14:28:50.000Z'],
    [1714487330000000000, '2024-04-30T14:28:50.000Z'],
    [{ high: 406528574, low: 466848096 }, '2025-04-30T15:28:50.686Z'],
    ['', undefined],
    [null, undefined],
    ['not a number', undefined],
  ])('%j -> %s', (input, expected) => {
    expect(nanoToIso(input)).toBe(expected);
  });

  it('fills a missing edge with the other, and both with now', () => {
    const end = convert(oneSpan([], { startTimeUnixNano: undefined }))[1]!.body;
    expect(end['startTime']).toBe(end['endTime']);
    const none = convert(oneSpan([], { startTimeUnixNano: undefined, endTimeUnixNano: undefined }))[1]!.body;
    expect(none['startTime']).toBe(NOW.toISOString());
  });
});

describe('tool definitions move from metadata to input', () => {
  const tool = { type: 'function', name: 'calculator', description: 'Do math', parameters: { type: 'object', properties: { expression: { type: 'string' } } } };

  it('moves gen_ai.tool.definitions next to the messages of gen_ai events', () => {
    const body = convert(
      oneSpan([attr('gen_ai.tool.definitions', str(JSON.stringify([tool]))), attr('custom.attribute', str('keep-me'))], {
        events: [{ name: 'gen_ai.user.message', attributes: [attr('content', str('What is 2 + 2?'))] }],
      }),
    )[1]!.body;
    expect(body['input']).toEqual({ messages: [{ role: 'user', content: 'What is 2 + 2?' }], tools: [tool] });
    const attributes = (body['metadata'] as any).attributes;
    expect(attributes['gen_ai.tool.definitions']).toBeUndefined();
    expect(attributes['custom.attribute']).toBe('keep-me');
  });

  it('moves AI SDK ai.prompt.tools (a list of JSON strings), provider tools without a name included', () => {
    const weather = { type: 'function', name: 'get_weather', inputSchema: { type: 'object' } };
    const provider = { type: 'provider-defined', id: 'openai.web_search' };
    const body = convert(
      oneSpan(
        [
          attr('ai.operationId', str('ai.generateText.doGenerate')),
          attr('ai.model.id', str('gpt-4o')),
          attr('ai.prompt.messages', str(JSON.stringify([{ role: 'user', content: 'Weather in Berlin?' }]))),
          attr('ai.prompt.tools', { arrayValue: { values: [str(JSON.stringify(weather)), str(JSON.stringify(provider))] } }),
        ],
        {},
        { name: 'ai' },
      ),
    )[1]!.body;
    expect(body['input']).toEqual({ messages: [{ role: 'user', content: 'Weather in Berlin?' }], tools: [weather, provider] });
    expect((body['metadata'] as any).attributes['ai.prompt.tools']).toBeUndefined();
  });

  it('leaves metadata alone when a listed item is not a tool', () => {
    const body = convert(oneSpan([attr('gen_ai.tool.definitions', str(JSON.stringify([tool, 42]))), attr('langfuse.observation.input', str('q'))]))[1]!.body;
    expect(body['input']).toBe('q');
    expect((body['metadata'] as any).attributes['gen_ai.tool.definitions']).toBe(JSON.stringify([tool, 42]));
  });
});

describe('GenAI usage normalisation (Langfuse test cases)', () => {
  const int = (n: number) => ({ intValue: { low: n, high: 0, unsigned: false } });
  const usageOf = (attributes: unknown[]) => convert(oneSpan([attr('gen_ai.request.model', str('m')), ...attributes]))[1]!.body['usageDetails'] as Record<string, number>;

  it('takes cache reads and writes off inclusive input and keeps the given total', () => {
    expect(
      usageOf([
        attr('gen_ai.usage.input_tokens', int(100)),
        attr('gen_ai.usage.output_tokens', int(40)),
        attr('gen_ai.usage.total_tokens', int(140)),
        attr('gen_ai.usage.cache_read.input_tokens', int(20)),
        attr('gen_ai.usage.cache_creation.input_tokens', int(10)),
        attr('gen_ai.usage.output_audio_tokens', int(5)),
      ]),
    ).toEqual({ input: 70, output: 40, total: 140, input_cached_tokens: 20, input_cache_creation: 10, output_audio_tokens: 5 });
  });

  it('moves OpenInference reasoning and audio completion details into output buckets', () => {
    const usage = usageOf([
      attr('llm.token_count.prompt', int(100)),
      attr('llm.token_count.completion', int(50)),
      attr('llm.token_count.completion_details.reasoning', int(30)),
      attr('llm.token_count.completion_details.audio', int(5)),
    ]);
    expect(usage).toEqual({ input: 100, output: 15, output_reasoning_tokens: 30, output_audio_tokens: 5 });
  });

  it('subtracts cache tokens once when dotted and flat spellings come together', () => {
    expect(
      usageOf([
        attr('gen_ai.usage.input_tokens', int(100)),
        attr('gen_ai.usage.cache_read.input_tokens', int(20)),
        attr('gen_ai.usage.cache_read_input_tokens', int(20)),
        attr('gen_ai.usage.cache_creation.input_tokens', int(10)),
        attr('gen_ai.usage.cache_creation_input_tokens', int(10)),
      ]),
    ).toEqual({ input: 70, input_cached_tokens: 20, input_cache_creation: 10 });
  });

  it('lets a dotted cache value of 0 shadow the flat spelling', () => {
    expect(usageOf([attr('gen_ai.usage.input_tokens', int(100)), attr('gen_ai.usage.cache_read.input_tokens', int(0)), attr('gen_ai.usage.cache_read_input_tokens', int(20))])).toEqual({
      input: 100,
      input_cached_tokens: 0,
    });
  });
});
