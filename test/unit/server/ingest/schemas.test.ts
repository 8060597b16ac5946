// The event schemas take shortcuts for the common values of metadata, model parameters and usage
// (see `shortcut` in schemas.ts). With and without them, every event must validate to the same
// output or fail with the same message.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestionEvent, shortcuts, normalizeEnvironment } from '../../../../src/server/ingest/schemas.js';

afterEach(() => {
  shortcuts.enabled = true;
});

function both(event: unknown) {
  shortcuts.enabled = true;
  const fast = ingestionEvent.safeParse(event);
  shortcuts.enabled = false;
  const full = ingestionEvent.safeParse(event);
  shortcuts.enabled = true;
  return { fast, full };
}

const value = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(undefined, Number.NaN, Infinity, -Infinity, -1, 1.5, '12', 'abc'),
  fc.array(fc.oneof(fc.string(), fc.integer())),
  fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.string(), fc.integer(), fc.constant(null))),
);
const usageKeys = fc.constantFrom('input', 'output', 'total', 'prompt_tokens', 'completion_tokens', 'total_tokens', 'input_tokens', 'output_tokens', 'prompt_tokens_details', 'input_tokens_details', 'cache_read_input_tokens');
const details = fc.option(fc.dictionary(fc.constantFrom('cached_tokens', 'reasoning_tokens'), fc.oneof(fc.nat(100), fc.constant(null))), { nil: undefined });
const openAi = fc.oneof(
  fc.record({ prompt_tokens: fc.nat(500), completion_tokens: fc.nat(500), total_tokens: fc.nat(1000), prompt_tokens_details: details, completion_tokens_details: details }, { requiredKeys: ['prompt_tokens', 'completion_tokens', 'total_tokens'] }),
  fc.record({ input_tokens: fc.nat(500), output_tokens: fc.nat(500), total_tokens: fc.nat(1000), input_tokens_details: details, output_tokens_details: details }, { requiredKeys: ['input_tokens', 'output_tokens', 'total_tokens'] }),
);
const usage = fc.oneof(value, openAi, fc.dictionary(usageKeys, fc.oneof(fc.integer({ min: -5, max: 500 }), fc.constantFrom('7', 'x', null, undefined, 1.5), fc.dictionary(fc.constantFrom('cached_tokens', 'reasoning_tokens'), fc.oneof(fc.nat(100), fc.constant(-1))))));

describe('event schemas with and without shortcuts', () => {
  it('give the same output, or the same error message', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('generation-create', 'span-create', 'trace-create', 'score-create', 'sdk-log'),
        fc.record({ metadata: value, modelParameters: value, usageDetails: usage, log: value }, { requiredKeys: [] }),
        (type, fields) => {
          const body = type === 'score-create' ? { name: 'q', value: 1, traceId: 't', ...fields } : { id: 'x', ...fields };
          const event = { id: 'e', type, timestamp: '2026-03-01T10:00:00.000Z', body, metadata: fields.metadata };
          const { fast, full } = both(event);
          expect(fast.success).toBe(full.success);
          if (fast.success && full.success) expect(fast.data).toEqual(full.data);
          else expect(fast.error!.message).toBe(full.error!.message);
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('read an own "__proto__" key (as JSON.parse makes it) as the full schemas do', () => {
    for (const type of ['sdk-log', 'span-create', 'generation-create']) {
      for (const inner of ['""', '{"a": 1}', '[1]', 'null']) {
        const fields = JSON.parse(`{"log": {"__proto__": ${inner}, "b": 2}, "metadata": {"__proto__": ${inner}}, "modelParameters": {"__proto__": "x"}, "usageDetails": {"__proto__": 1, "input": 3}}`);
        const { fast, full } = both({ id: 'e', type, timestamp: '2026-03-01T10:00:00.000Z', body: { id: 'x', ...fields }, metadata: fields.metadata });
        expect(fast.success, `${type} ${inner}`).toBe(full.success);
        if (fast.success && full.success) expect(fast.data, `${type} ${inner}`).toEqual(full.data);
        else expect(fast.error!.message).toBe(full.error!.message);
      }
    }
  });

  it('refuses non-finite numbers and non-JSON values as the full schemas do', () => {
    for (const metadata of [{ a: Number.NaN }, { a: [1, Infinity] }, { a: new Date(0) }, { a: undefined }]) {
      const { fast, full } = both({ id: 'e', type: 'span-create', timestamp: '2026-03-01T10:00:00.000Z', body: { id: 's', metadata } });
      expect(fast.success).toBe(full.success);
      if (!fast.success) expect(fast.error.message).toBe(full.error!.message);
    }
  });
});

describe('environment names', () => {
  it.each([
    [undefined, 'default'],
    ['Production', 'production'],
    ['langfuse-prod', 'prod'],
    ['LANGFUSElangfuse_staging', 'staging'],
    ['langfuse', 'default'],
    ['has space', 'default'],
    ['a'.repeat(50), 'a'.repeat(40)],
    [42, 'default'],
  ])('%s -> %s', (input, expected) => {
    expect(normalizeEnvironment(input)).toBe(expected);
  });
});
