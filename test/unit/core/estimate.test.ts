import { describe, expect, it } from 'vitest';
import type { EstimateInput } from '../../../src/core/estimate.js';
import { closestNames } from '../../../src/core/did-you-mean.js';
import { estimate } from '../../../src/core/estimate.js';
import { specToDefinition } from '../../../src/core/models/draft.js';
import { describePattern } from '../../../src/core/models/pattern.js';
import type { ModelDefinition } from '../../../src/core/models/types.js';
import { modelDefinitionSchema } from '../../../src/core/models/schemas.js';
import { ObservationRejectedError } from '../../../src/core/usage.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { engineCounter } from '../../../src/tokenizer/index.js';
import { recordingCounter, wasmCounter } from '../tokenizer/support/counter.js';

const builtIns = builtInDefinitions();

function custom(name: string, pattern: string, extra: Partial<Parameters<typeof specToDefinition>[0]> = {}): ModelDefinition {
  return specToDefinition({ name, match_pattern: pattern, ...extra }, { id: name });
}

const run = (input: EstimateInput, definitions: readonly ModelDefinition[] = builtIns, count = wasmCounter) => estimate(input, { definitions, count });
const codes = (r: ReturnType<typeof run>): string[] => r.warnings.map((w) => w.code);
const o200 = (t: string): number => wasmCounter('o200k_base', t);

describe('estimate with provided usage', () => {
  it('prices gpt-4o usage with the built-in standard tier and adds the total', () => {
    const r = run({ model: 'gpt-4o', usageDetails: { input: 1000, output: 200 } });
    expect(r.matchedModel).toEqual({ id: 'b9854a5c92dc496b997d99d20', modelName: 'gpt-4o', matchPattern: '(?i)^(openai/)?(gpt-4o)$', source: 'built-in' });
    expect(r.tokenizer).toEqual({ id: 'openai', encoding: 'o200k_base', tokenizerModel: 'gpt-4o' });
    expect(r.usageDetails).toEqual({ input: 1000, output: 200, total: 1200 });
    // 1000 × 0.0000025 and 200 × 0.00001; the sum is a JS float, stored to 12 decimals.
    expect(r.explain.cost.costDetails).toEqual({ input: 0.0025, output: 0.002, total: 0.0025 + 0.002 });
    expect(r.costDetails).toEqual({ input: 0.0025, output: 0.002, total: 0.0045 });
    expect(r.totalCost).toBe(0.0045);
    expect(r.pricingTier).toBe('Standard');
    expect(r.warnings).toEqual([]);
    expect(r.explain.usage).toMatchObject({ source: 'provided', totalAdded: true, tokenization: null });
    expect(describePattern(r.matchedModel!.matchPattern)).toMatchObject({ status: 'ok', caseInsensitive: true, prefix: '(?i)' });
  });

  it('returns the stored total, and keeps the worker value for explain', () => {
    const d = custom('m', '^m$', { pricing: { input: 0.0001, output: 0.0001, cached: 0.000001 } });
    const r = run({ model: 'm', usageDetails: { input: 34, output: 85, cached: 425 } }, [d]);
    expect(r.explain.cost.totalCost).toBe(0.012325000000000001);
    expect(r.totalCost).toBe(0.012325);
    expect(r.explain.cost.lines.map((l) => [l.usageType, l.units, l.price, l.cost])).toEqual([
      ['input', 34, 0.0001, 0.0034],
      ['output', 85, 0.0001, 0.0085],
      ['cached', 425, 0.000001, 0.000425],
    ]);
  });

  it('maps OpenAI Chat Completions usage and prices the cached bucket', () => {
    const r = run({
      model: 'openai/gpt-4o',
      usageDetails: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100, prompt_tokens_details: { cached_tokens: 400 } },
    });
    expect(r.usageDetails).toEqual({ input: 600, output: 100, total: 1100, input_cached_tokens: 400 });
    expect(r.explain.cost.lines.map((l) => l.usageType)).toEqual(['input', 'output', 'input_cached_tokens']);
  });

  it('picks the Fast mode tier from modelParameters.service_tier', () => {
    const r = run({ model: 'gpt-4o', usageDetails: { input: 1000 }, modelParameters: { service_tier: 'priority' } });
    expect(r.pricingTier).toBe('Fast mode');
    expect(r.costDetails['input']).toBe(0.00425);
    expect(r.explain.tier.evaluated[0]).toMatchObject({ passed: true, conditions: [{ kind: 'attribute', value: 'priority', passed: true }] });
  });

  it('picks Gemini 2.5 Pro "Large Context" above 200k prompt tokens', () => {
    const r = run({ model: 'gemini-2.5-pro', usageDetails: { input: 250000, output: 1000 } });
    expect(r.pricingTier).toBe('Large Context');
    expect(r.costDetails['input']).toBe(0.625);
  });

  it('warns about usage keys without a price, hinting at case mismatches', () => {
    const r = run({ model: 'gpt-4o', usageDetails: { input: 10, Output: 5, image: 1 } });
    const w = r.warnings.find((x) => x.code === 'unpriced-usage-keys');
    expect(w?.message).toContain('"Output", "image"');
    expect(w?.message).toContain('"Output" differs from the priced "output" only by case');
    expect(r.costDetails).toEqual({ input: 0.000025, total: 0.000025 });
  });

  it('does not warn about unpriced parts when a total price applies', () => {
    const d = custom('per-call', '^per-call$', { pricing: { total: 0.001 } });
    const r = run({ model: 'per-call', usageDetails: { input: 10, output: 5 } }, [d]);
    expect(r.costDetails).toEqual({ total: 0.015 });
    expect(r.warnings).toEqual([]);
  });

  it('keeps a provided total that disagrees with the parts, and says so', () => {
    const r = run({ model: 'gpt-4o', usageDetails: { input: 10, output: 10, total: 5 } });
    expect(r.usageDetails['total']).toBe(5);
    expect(codes(r)).toContain('usage-total-mismatch');
  });

  it('reports values the server drops', () => {
    const r = run({ model: 'gpt-4o', usageDetails: { input: 10, output: -1 }, costDetails: { input: -2 } });
    expect(r.usageDetails).toEqual({ input: 10, total: 10 });
    expect(r.warnings.find((w) => w.code === 'values-dropped')?.message).toContain('usageDetails.output (negative)');
  });
});

describe('estimate with provided cost', () => {
  it('uses provided costs entirely and does not tokenize', () => {
    const count = recordingCounter();
    const r = run({ model: 'gpt-4o', input: 'hello', output: 'hi', costDetails: { input: 1, output: 2 } }, builtIns, count);
    expect(count.calls).toEqual([]);
    expect(r.usageDetails).toEqual({});
    expect(r.costDetails).toEqual({ input: 1, output: 2, total: 3 });
    expect(r.totalCost).toBe(3);
    expect(codes(r)).toEqual(['tokenization-skipped']);
  });

  it('maps legacy usage costs and keeps provided usage', () => {
    const r = run({ model: 'gpt-4o', usage: { input: 10, output: 20, inputCost: 0.5, totalCost: 2 } });
    expect(r.usageDetails).toEqual({ input: 10, output: 20, total: 30 });
    expect(r.costDetails).toEqual({ input: 0.5, total: 2 });
    expect(r.totalCost).toBe(2);
  });
});

describe('estimate by tokenization', () => {
  it('counts chat input and text output with the definition tokenizer', () => {
    const messages = [
      { role: 'system', content: 'You are terse.' },
      { role: 'user', content: 'Say hi' },
    ];
    const r = run({ model: 'gpt-4o', input: messages, output: 'Hi!' });
    const input = 3 + o200('system') + o200('You are terse.') + 3 + o200('user') + o200('Say hi') + 3;
    const output = o200('Hi!');
    expect(r.usageDetails).toEqual({ input, output, total: input + output });
    expect(r.explain.usage.source).toBe('tokenized');
    expect(r.totalCost).toBeGreaterThan(0);
    expect(r.warnings).toEqual([]);
  });

  it('does not tokenize a generation with level ERROR', () => {
    const count = recordingCounter();
    const r = run({ model: 'gpt-4o', input: 'hello', level: 'ERROR' }, builtIns, count);
    expect(count.calls).toEqual([]);
    expect(r.usageDetails).toEqual({});
    expect(r.totalCost).toBeNull();
    expect(r.pricingTier).toBeNull();
    expect(codes(r)).toEqual(['tokenization-skipped']);
  });

  it('warns that Claude counts are approximate', () => {
    const r = run({ model: 'claude-3-haiku-20240307', input: 'Hello there', output: 'Hi' });
    expect(r.tokenizer).toEqual({ id: 'claude', encoding: 'claude' });
    expect(r.usageDetails['input']).toBe(wasmCounter('claude', 'Hello there'));
    expect(codes(r)).toEqual(['claude-count-approximate']);
  });

  it('warns that reasoning tokens are invisible for reasoning models', () => {
    expect(codes(run({ model: 'gpt-5', input: 'Think', output: 'Done' }))).toEqual(['reasoning-tokens-not-visible']);
    const o3 = custom('my-o3', '^openai/o3-mini$', { tokenizer: 'openai', tokenization_config: { tokenizerModel: 'gpt-4o' }, pricing: { input: 1 } });
    expect(codes(run({ model: 'openai/o3-mini', input: 'x' }, [o3]))).toContain('reasoning-tokens-not-visible');
    // Reasoning keys that the server dropped still reveal a reasoning model.
    const r = run({ model: 'gpt-4o', input: 'x', usageDetails: { output_reasoning_tokens: -1 } });
    expect(r.explain.usage.source).toBe('tokenized');
    expect(codes(r)).toContain('reasoning-tokens-not-visible');
  });

  it('computes nothing for a definition without tokenizer (o1), and says so', () => {
    const r = run({ model: 'o1', input: 'x', output: 'y' });
    expect(r.usageDetails).toEqual({});
    expect(r.totalCost).toBeNull();
    expect(r.tokenizer).toBeNull();
    expect(codes(r)).toEqual(['no-tokenizer']);
  });

  it('warns when a chat tokenizer model lacks tokensPerMessage/tokensPerName', () => {
    const d = custom('c', '^c$', { tokenizer: 'openai', tokenization_config: { tokenizerModel: 'gpt-4' }, pricing: { input: 1, output: 1 } });
    const r = run({ model: 'c', input: [{ role: 'user', content: 'hi' }], output: 'hello world' }, [d]);
    expect(r.usageDetails).toEqual({ output: 2, total: 2 });
    expect(codes(r)).toEqual(['chat-config-missing']);
  });

  it('warns when the tokenizer model is unknown to the server', () => {
    const d = custom('c', '^c$', { tokenizer: 'openai', tokenization_config: { tokenizerModel: 'gpt-4o-mini' }, pricing: { input: 1 } });
    const r = run({ model: 'c', input: 'hi' }, [d]);
    expect(r.usageDetails).toEqual({});
    expect(r.tokenizer).toBeNull();
    expect(codes(r)).toEqual(['tokenizer-unusable']);
  });

  it('loses all usage when the tokenizer would fail', () => {
    const r = run({ model: 'gpt-4o', input: 'fine', output: [{ role: 'assistant', content: '', tool_calls: [{ id: 't' }] }] });
    expect(r.usageDetails).toEqual({});
    expect(codes(r)).toEqual(['tokenization-failed']);
  });
});

describe('estimate: matching outcomes', () => {
  it('warns when nothing matches, but keeps provided usage', () => {
    const r = run({ model: 'my-llm', usageDetails: { input: 5 } });
    expect(r.matchedModel).toBeNull();
    expect(r.usageDetails).toEqual({ input: 5, total: 5 });
    expect(r.totalCost).toBeNull();
    expect(codes(r)).toEqual(['no-matching-model']);
    // Provided costs are still stored without a match.
    const withCost = run({ model: 'my-llm', input: 'hello', costDetails: { input: 0.5 } });
    expect(withCost.costDetails).toEqual({ input: 0.5, total: 0.5 });
    expect(withCost.usageDetails).toEqual({});
  });

  it('suggests names when nothing matches and a suggest function is given, and only then', () => {
    const suggest = (model: string) => closestNames(model, builtIns.map((d) => d.modelName));
    const r = estimate({ model: 'gpt4o', usageDetails: { input: 5 } }, { definitions: builtIns, count: wasmCounter, suggest });
    expect(r.suggestions?.[0]).toBe('gpt-4o');
    expect(r.warnings).toEqual([{ code: 'no-matching-model', message: expect.stringMatching(/^No model definition matches "gpt4o"; did you mean gpt-4o.*\? The server computes neither usage nor cost for it\.$/) }]);
    expect(estimate({ model: 'my-llm' }, { definitions: builtIns, count: wasmCounter, suggest }).suggestions).toEqual([]);
    expect(run({ model: 'gpt4o' })).not.toHaveProperty('suggestions');
    expect(estimate({ model: 'gpt-4o' }, { definitions: builtIns, count: wasmCounter, suggest })).not.toHaveProperty('suggestions');
    expect(estimate({ model: '' }, { definitions: builtIns, count: wasmCounter, suggest })).not.toHaveProperty('suggestions');
  });

  it('does not look up an empty model name', () => {
    const r = run({ model: '', usageDetails: { input: 5 } }, [custom('any', '', { pricing: { input: 1 } })]);
    expect(r.matchedModel).toBeNull();
    expect(r.explain.match).toBeNull();
  });

  it('prefers a custom definition and reports ties', () => {
    const a = custom('a', '^gpt-4o$', { pricing: { input: 1 } });
    const b = custom('b', '(?i)gpt-4o', { pricing: { input: 2 } });
    const r = run({ model: 'gpt-4o', usageDetails: { input: 1 } }, [...builtIns, b, a]);
    expect(r.matchedModel).toMatchObject({ id: 'a', source: 'custom' });
    expect(r.totalCost).toBe(1);
    expect(codes(r)).toEqual(['ambiguous-match']);
  });

  it('warns about a pattern that could take precedence but cannot be evaluated', () => {
    const bad = custom('bad', '(?e)gpt', { pricing: { input: 1 } });
    const r = run({ model: 'gpt-4o', usageDetails: { input: 1 } }, [...builtIns, bad]);
    expect(r.matchedModel?.source).toBe('built-in');
    expect(codes(r)).toEqual(['pattern-not-evaluable']);
  });

  it('warns when the matched definition has no prices', () => {
    const r = run({ model: 'x', usageDetails: { input: 1 } }, [custom('x', '^x$')]);
    expect(r.costDetails).toEqual({});
    expect(codes(r)).toEqual(['no-prices']);
  });
});

describe('estimate: pricing tiers with conditions llmobs does not know', () => {
  const definition = modelDefinitionSchema.parse({
    id: 'n-1',
    modelName: 'night-model',
    matchPattern: '(?i)^night-model$',
    tokenizerConfig: null,
    isLangfuseManaged: false,
    pricingTiers: [
      { id: 'n-1_tier_default', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000002 } },
      { id: 'n-1_tier_night', name: 'Night', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: 'input', operator: 'gt', value: 100 }, { source: 'clock', after: '22:00' }], prices: { input: 0.000001 } },
    ],
  });

  it('prices with the tiers llmobs can decide, and warns that the server may choose the other one', () => {
    const r = run({ model: 'night-model', usageDetails: { input: 1000 } }, [definition]);
    expect(r.pricingTier).toBe('Standard');
    expect(r.costDetails).toEqual({ input: 0.002, total: 0.002 });
    expect(codes(r)).toEqual(['tier-condition-unknown']);
    expect(r.warnings[0]!.message).toBe(
      'Tier "Night" of "night-model" has a condition of a kind llmobs cannot evaluate ({"source":"clock","after":"22:00"}), treated as not met; the server may choose this tier, so the estimate may differ from the server\'s.',
    );
    expect(r.explain.tier.evaluated[0]!.conditions.map((c) => [c.kind, c.passed])).toEqual([
      ['usage', true],
      ['unknown', false],
    ]);
  });

  it('does not warn when a known condition already rules the tier out', () => {
    const r = run({ model: 'night-model', usageDetails: { input: 10 } }, [definition]);
    expect(r.pricingTier).toBe('Standard');
    expect(codes(r)).toEqual([]);
  });
});

describe('estimate: rejected observations', () => {
  it('throws when the server schema would reject the generation', () => {
    expect(() => run({ model: 'gpt-4o', usage: { input: 1.5 } })).toThrow(ObservationRejectedError);
    expect(() => run({ model: 'gpt-4o', modelParameters: { a: { b: 1 } } })).toThrow(/modelParameters.a/);
    expect(() => run({ model: 'gpt-4o', level: 'FATAL' as never })).toThrow(/level/);
    expect(() => run({ model: 42 as never })).toThrow(/model must be a string/);
  });
});

describe('runs the server tokenizes slowly', () => {
  const slow = (input: unknown, output: unknown = 'ok', model = 'gpt-4o') => run({ model, input, output }, builtIns, engineCounter);

  it('warns from 100,000 bytes in one piece, counted in UTF-8 bytes, in input or output or chat content', () => {
    expect(codes(slow('a'.repeat(99_999)))).not.toContain('tokenization-may-time-out');
    const r = slow('a'.repeat(100_000));
    expect(codes(r)).toContain('tokenization-may-time-out');
    expect(r.warnings.find((w) => w.code === 'tokenization-may-time-out')!.message).toContain('100,000 bytes');
    // The count itself is still what the tokenizer gives.
    expect(r.usageDetails['input']).toBe(engineCounter('o200k_base', 'a'.repeat(100_000)));
    expect(codes(slow('ok', '日'.repeat(33_334)))).toContain('tokenization-may-time-out');
    expect(codes(slow([{ role: 'user', content: 'z'.repeat(120_000) }]))).toContain('tokenization-may-time-out');
    expect(codes(slow('x'.repeat(120_000), 'ok', 'claude-3-opus-20240229'))).toContain('tokenization-may-time-out');
  });

  it('adds up the long pieces of one call, not of input and output together', () => {
    // Two runs of 80,000 bytes in one text take about as long as one of 113,000.
    const twice = `${'a'.repeat(80_000)} ${'b'.repeat(80_000)}`;
    const r = slow(twice);
    expect(codes(r)).toContain('tokenization-may-time-out');
    // The space before the second run belongs to it: 80,001 bytes; sqrt(80,000² + 80,001²) rounds to 113,138.
    expect(r.warnings.find((w) => w.code === 'tokenization-may-time-out')!.message).toContain('runs of up to 80,001 bytes, together as slow to tokenize as one run of 113,138 bytes');
    expect(codes(slow([{ role: 'user', content: 'a'.repeat(80_000) }, { role: 'user', content: 'b'.repeat(80_000) }]))).toContain('tokenization-may-time-out');
    // The input and the output are separate calls on the server, each with its own limit.
    expect(codes(slow('a'.repeat(80_000), 'b'.repeat(80_000)))).not.toContain('tokenization-may-time-out');
    expect(codes(slow(`${'a'.repeat(60_000)} ${'b'.repeat(60_000)}`))).not.toContain('tokenization-may-time-out');
  });

  it('does not warn for long text that breaks into ordinary pieces', () => {
    expect(codes(slow('word '.repeat(50_000)))).not.toContain('tokenization-may-time-out');
    expect(codes(slow('1'.repeat(200_000)))).not.toContain('tokenization-may-time-out');
  });

  it('does not warn when usage is provided, as nothing is tokenized', () => {
    expect(codes(run({ model: 'gpt-4o', input: 'a'.repeat(150_000), usageDetails: { input: 5 } }, builtIns, engineCounter))).not.toContain('tokenization-may-time-out');
  });
});
