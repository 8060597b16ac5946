// parseEvent takes a shortcut for the common events; with or without it, every event must
// validate to the same output (the same fields in the same order, undefined ones included) or
// fail with the same message.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEvent } from '../../../../src/server/ingest/event-shortcut.js';
import { ingestionEvent, shortcuts } from '../../../../src/server/ingest/schemas.js';

afterEach(() => {
  shortcuts.enabled = true;
});

/** A value with its keys' order made visible, and undefined told apart from absent. */
function ordered(value: unknown): unknown {
  if (value === undefined) return '<undefined>';
  if (Array.isArray(value)) return value.map(ordered);
  if (typeof value === 'object' && value !== null) return Object.keys(value).map((key) => [key, ordered((value as Record<string, unknown>)[key])]);
  return value;
}

function expectSame(event: unknown): void {
  shortcuts.enabled = true;
  const fast = parseEvent(event);
  shortcuts.enabled = false;
  const full = ingestionEvent.safeParse(event);
  shortcuts.enabled = true;
  expect(fast.success).toBe(full.success);
  if (fast.success && full.success) expect(ordered(fast.data)).toEqual(ordered(full.data));
  else expect(fast.error!.message).toBe(full.error!.message);
}

const time = fc.constantFrom('2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123456+02:00', '2026-02-29T10:00:00Z', '2026-03-01T10:00Z', '2026-03-01 10:00:00Z', '');
const text = fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom('x'.repeat(1001), 'a\rb', 'Production', 'langfuse-prod', 'has space'));
const json = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom({ a: Number.NaN }, { b: [1, Infinity] }, { c: new Date(0) }));
const any = fc.oneof(text, time, json, fc.integer({ min: -3, max: 3 }), fc.constantFrom(null, undefined, true, 1.5, 'DEBUG', 'ERROR', 'loud', ['a', 'b'], ['a', 1], []));
const usage = fc.oneof(
  any,
  fc.dictionary(fc.constantFrom('input', 'output', 'total', 'total_tokens', 'prompt_tokens', 'completion_tokens', 'promptTokens', 'unit'), fc.oneof(fc.integer({ min: -2, max: 50 }), fc.constantFrom('7', 'x', null, 1.5, 'TOKENS'))),
);
// Each field mostly valid (so that the shortcut is taken), now and then anything.
const validTime = fc.constantFrom('2026-03-01T10:00:00.000Z', '2026-03-01T10:00:00Z', '2026-03-01T10:00:00.123456+02:00', '2024-02-29T23:59:59.9-11:30');
// Some at or past a bound, so that the bound is checked too.
const validId = fc.constantFrom('obs-1', 'x'.repeat(800), 'x'.repeat(801), 'ü', '');
const validString = fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom('x'.repeat(1000), 'x'.repeat(1001)));
const validUsage = fc.oneof(
  fc.dictionary(fc.constantFrom('input', 'output', 'total', 'input_cached_tokens', 'prompt_tokens', 'completion_tokens', 'total_tokens'), fc.oneof(fc.nat(50), fc.constantFrom(-1, 1.5, '7', 'x', null))),
  fc.record({ prompt_tokens: fc.nat(50), completion_tokens: fc.nat(50), total_tokens: fc.nat(100) }),
);
const VALID: Record<string, fc.Arbitrary<unknown>> = {
  id: validId,
  traceId: validId,
  environment: fc.oneof(validString, fc.constantFrom('Production', 'langfuse-prod', 'langfuse', 'has space', 'x'.repeat(50), 42)),
  startTime: validTime,
  endTime: validTime,
  completionStartTime: validTime,
  timestamp: validTime,
  metadata: fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }))),
  input: any,
  output: any,
  level: fc.constantFrom('DEBUG', 'DEFAULT', 'WARNING', 'ERROR'),
  public: fc.boolean(),
  tags: fc.array(fc.string({ maxLength: 3 }), { maxLength: 3 }),
  modelParameters: fc.dictionary(fc.constantFrom('temperature', 'stop', 'extra'), fc.oneof(fc.double(), fc.string(), fc.boolean(), fc.array(fc.string()), fc.dictionary(fc.string(), fc.string()), fc.constant(null))),
  usage: fc.constantFrom(null, undefined),
  usageDetails: validUsage,
  costDetails: fc.dictionary(fc.constantFrom('input', 'output', 'total'), fc.oneof(fc.double(), fc.constantFrom(-1, null, '3'))),
  promptName: fc.constantFrom(null, undefined),
  promptVersion: fc.constantFrom(null, undefined),
};
const FIELDS = [
  ...Object.keys(VALID),
  ...['name', 'statusMessage', 'parentObservationId', 'version', 'model', 'externalId', 'sessionId', 'userId', 'release', 'unknownField'],
];
const fieldValue = (field: string) => fc.oneof({ weight: 12, arbitrary: VALID[field] ?? validString }, { weight: 1, arbitrary: field === 'usageDetails' || field === 'usage' ? usage : any });
const body = fc.record(Object.fromEntries(FIELDS.map((field) => [field, fieldValue(field)])), { requiredKeys: [] });
const TYPES = ['trace-create', 'span-create', 'span-update', 'generation-create', 'generation-update', 'event-create', 'agent-create', 'embedding-create', 'score-create', 'sdk-log', 'observation-create', 'bogus'];

describe('parseEvent', () => {
  it('gives what the schemas give, or their error message', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...TYPES),
        fc.oneof({ weight: 12, arbitrary: fc.constant('e-1') }, { weight: 1, arbitrary: any }),
        fc.oneof({ weight: 12, arbitrary: validTime }, { weight: 1, arbitrary: any }),
        fc.option(json, { nil: undefined }),
        fc.boolean(),
        body,
        (type, id, timestamp, metadata, withMetadata, fields) => {
          const event: Record<string, unknown> = { id, type, timestamp, body: fields };
          if (withMetadata) event['metadata'] = metadata;
          expectSame(event);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('gives what the schemas give for the events the SDKs send', () => {
    const now = '2026-03-01T10:00:00.000Z';
    expectSame({ id: 'e1', type: 'trace-create', timestamp: now, body: { id: 't1', name: 'bench', userId: 'u', tags: ['a'], public: false, environment: 'Langfuse-Prod' } });
    expectSame({
      id: 'e2',
      type: 'generation-create',
      timestamp: now,
      body: {
        id: 'g1',
        traceId: 't1',
        name: 'llm-call',
        model: 'gpt-4o',
        startTime: now,
        endTime: now,
        input: [{ role: 'user', content: 'hi' }],
        output: 'hello',
        modelParameters: { temperature: 0.2, max_tokens: 256 },
        metadata: { request: '1' },
        usageDetails: { input: 200, output: 40, input_cached_tokens: 1 },
        costDetails: { input: 0.1, total: 0.2 },
      },
    });
    expectSame({ id: 'e3', type: 'span-update', timestamp: now, metadata: null, body: { id: 's1', endTime: now, level: 'ERROR', statusMessage: 'boom', usage: null } });
    expectSame({ id: 'e4', type: 'event-create', timestamp: now, body: { id: 'v1', traceId: 't1', input: undefined } });
    // Fields the shortcut leaves to the schemas.
    expectSame({ id: 'e5', type: 'generation-create', timestamp: now, body: { id: 'g2', usage: { promptTokens: 3 }, promptName: 'p', promptVersion: 2 } });
    expectSame({ id: 'e6', type: 'generation-create', timestamp: now, body: { traceId: 't1' } });
  });
});
