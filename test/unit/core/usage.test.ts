import { describe, expect, it } from 'vitest';
import {
  finalizeProvidedUsage,
  mergeProvidedUsage,
  normalizeCostDetails,
  normalizeLegacyUsage,
  normalizeUsageDetails,
  ObservationRejectedError,
} from '../../../src/core/usage.js';

const provided = (input: Parameters<typeof mergeProvidedUsage>[0]): Record<string, number> => mergeProvidedUsage(input).usage;
const final = (input: Parameters<typeof mergeProvidedUsage>[0]): Record<string, number> => finalizeProvidedUsage(provided(input)).usage;

describe('legacy usage', () => {
  it('maps promptTokens/completionTokens/totalTokens and drops the rest, costs included', () => {
    expect(normalizeLegacyUsage({ promptTokens: 10, completionTokens: 5, totalTokens: 15, inputCost: 1 })).toEqual({ input: 10, output: 5, total: 15 });
    expect(mergeProvidedUsage({ usage: { promptTokens: 10, inputCost: 1 } })).toMatchObject({ usage: { input: 10, total: 10 }, cost: {} });
  });

  it('treats an empty object as no usage', () => {
    expect(normalizeLegacyUsage({})).toBeUndefined();
    expect(normalizeLegacyUsage(null)).toBeUndefined();
  });

  it('ignores the unit but validates it', () => {
    expect(normalizeLegacyUsage({ input: 1, unit: 'CHARACTERS' })).toMatchObject({ input: 1 });
    expect(() => normalizeLegacyUsage({ input: 1, unit: 'BYTES' })).toThrow(ObservationRejectedError);
  });

  it('rejects non-integer counts, like the server schema', () => {
    expect(() => normalizeLegacyUsage({ input: 1.5 })).toThrow(/usage.input must be an integer/);
    expect(() => normalizeLegacyUsage({ promptTokens: '3' })).toThrow(ObservationRejectedError);
    expect(() => normalizeLegacyUsage('10')).toThrow(ObservationRejectedError);
  });
});

describe('usageDetails: OpenAI Chat Completions', () => {
  it('maps the counts and subtracts every detail from its bucket, total unchanged', () => {
    const r = normalizeUsageDetails({
      prompt_tokens: 100,
      completion_tokens: 50,
      total_tokens: 150,
      prompt_tokens_details: { cached_tokens: 20, audio_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 30, text_tokens: 15, accepted_prediction_tokens: null },
    });
    expect(r.shape).toBe('chat-completions');
    expect(r.details).toEqual({
      input: 80,
      output: 5,
      total: 150,
      input_cached_tokens: 20,
      input_audio_tokens: 0,
      output_reasoning_tokens: 30,
      output_text_tokens: 15,
    });
  });

  it('never lets a bucket go below zero', () => {
    const r = normalizeUsageDetails({ prompt_tokens: 10, completion_tokens: 0, total_tokens: 10, prompt_tokens_details: { cached_tokens: 25 } });
    expect(r.details).toEqual({ input: 0, output: 0, total: 10, input_cached_tokens: 25 });
  });

  it('is strict: a missing total or an extra key falls through to the raw map', () => {
    const r = normalizeUsageDetails({ prompt_tokens: 10, completion_tokens: 5 });
    expect(r.shape).toBe('raw');
    expect(r.details).toEqual({ prompt_tokens: 10, completion_tokens: 5 });
    const extra = normalizeUsageDetails({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 2 }, extra: 1 });
    expect(extra.shape).toBe('raw');
    // The nested details object is dropped by the raw map.
    expect(extra.details).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, extra: 1 });
  });
});

describe('usageDetails: OpenAI Responses', () => {
  it('maps input/output tokens and their details', () => {
    const r = normalizeUsageDetails({
      input_tokens: 100,
      output_tokens: 40,
      total_tokens: 140,
      input_tokens_details: { cached_tokens: 60 },
      output_tokens_details: { reasoning_tokens: 25 },
    });
    expect(r.shape).toBe('responses');
    expect(r.details).toEqual({ input: 40, output: 15, total: 140, input_cached_tokens: 60, output_reasoning_tokens: 25 });
  });

  it('leaves Anthropic usage unchanged (extra keys and no total make it a raw map)', () => {
    const anthropic = { input_tokens: 12, output_tokens: 30, cache_read_input_tokens: 100, cache_creation_input_tokens: 7 };
    const r = normalizeUsageDetails(anthropic);
    expect(r.shape).toBe('raw');
    expect(r.details).toEqual(anthropic);
  });
});

describe('usageDetails: raw map', () => {
  it('keeps non-negative integers, parseInt-able strings; drops negatives, floats, null and objects', () => {
    const r = normalizeUsageDetails({ a: 1, b: '12', c: '7.9', d: '0x1f', e: -3, f: 2.5, g: null, h: { x: 1 }, i: 'abc', j: '-4', k: true });
    expect(r.details).toEqual({ a: 1, b: 12, c: 7, d: 31 });
    expect(r.dropped.map((d) => d.key)).toEqual(['e', 'f', 'g', 'h', 'i', 'j', 'k']);
  });

  it('becomes undefined when nothing is left', () => {
    expect(normalizeUsageDetails({ a: -1 }).details).toBeUndefined();
    expect(normalizeUsageDetails({}).details).toBeUndefined();
  });

  it('rejects non-objects', () => {
    expect(() => normalizeUsageDetails([1, 2])).toThrow(ObservationRejectedError);
    expect(() => normalizeUsageDetails(5)).toThrow(ObservationRejectedError);
  });
});

describe('merge and final usage_details', () => {
  it('drops negative legacy values: {input:4, output:-7, total:-3} gives provided {input:4}', () => {
    expect(provided({ usage: { input: 4, output: -7, total: -3 } })).toEqual({ input: 4 });
  });

  it('adds total as the sum of every key, cache and reasoning buckets included', () => {
    expect(final({ usageDetails: { input: 1, cached: 2, reasoning: 3 } })).toEqual({ input: 1, cached: 2, reasoning: 3, total: 6 });
  });

  it('keeps a provided total even when it is smaller than the sum', () => {
    expect(final({ usageDetails: { input: 10, output: 10, total: 5 } })).toEqual({ input: 10, output: 10, total: 5 });
  });

  it('computes the legacy total from input and output when usageDetails is empty', () => {
    expect(provided({ usage: { input: 3, output: 4 } })).toEqual({ input: 3, output: 4, total: 7 });
    expect(provided({ usage: { input: 3 } })).toEqual({ input: 3, total: 3 });
    // input && output is falsy for a zero: total falls back to input ?? output.
    expect(provided({ usage: { input: 0, output: 5 } })).toEqual({ input: 0, output: 5, total: 0 });
    // A zero legacy total is falsy and is recomputed.
    expect(provided({ usage: { input: 2, output: 3, total: 0 } })).toEqual({ input: 2, output: 3, total: 5 });
  });

  it('does not compute the legacy total when usageDetails has entries; usageDetails wins conflicts', () => {
    expect(provided({ usage: { input: 3, output: 4 }, usageDetails: { input: 10, cached: 1 } })).toEqual({ input: 10, output: 4, cached: 1 });
    expect(final({ usage: { input: 3, output: 4 }, usageDetails: { input: 10, cached: 1 } })).toEqual({ input: 10, output: 4, cached: 1, total: 15 });
  });

  it('keeps the key order the server builds (legacy keys first, then usageDetails)', () => {
    expect(Object.keys(final({ usage: { output: 1 }, usageDetails: { z: 1, input: 2 } }))).toEqual(['output', 'z', 'input', 'total']);
  });

  it('leaves empty usage empty (no total)', () => {
    expect(finalizeProvidedUsage({})).toEqual({ usage: {}, totalAdded: false });
  });
});

describe('cost details', () => {
  it('keeps non-negative numbers only', () => {
    expect(normalizeCostDetails({ input: 0.1, output: -1, total: '3', x: 0 }).details).toEqual({ input: 0.1, x: 0 });
  });

  it('maps legacy costs to input/output/total and lets costDetails override them', () => {
    expect(mergeProvidedUsage({ usage: { inputCost: 1, outputCost: 2, totalCost: 3 }, costDetails: { output: 5, cache: 1 } }).cost).toEqual({
      input: 1,
      output: 5,
      total: 3,
      cache: 1,
    });
  });

  it('collects every reason the server would reject the event', () => {
    try {
      mergeProvidedUsage({ usage: { input: 1.5 }, usageDetails: 'x', costDetails: [] });
      expect.unreachable();
    } catch (e) {
      expect((e as ObservationRejectedError).issues).toEqual(['usage.input must be an integer', 'usageDetails must be an object', 'costDetails must be an object']);
    }
  });
});
