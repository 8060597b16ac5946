// The regex engine loads only when a pattern must be compiled (src/core/models/engine.ts), and
// decimal.js only when the exact fast paths of src/core/precision.ts do not apply: every path that
// can need them must still get them. Each case runs the binary on a name, definition or price
// that needs them, and checks the answer.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimate } from '../../src/core/estimate.js';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';

const dir = tempDir('llmobs-engine-');
const modelsFile = join(dir, 'models.json');
writeFileSync(
  modelsFile,
  JSON.stringify([
    { modelName: 'my-model', matchPattern: '(?i)^my-mod(el|al)[0-9]*$', prices: { input: 0.000001 } },
    {
      modelName: 'tiered',
      matchPattern: '^tiered$',
      pricingTiers: [
        { name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.000001 } },
        { name: 'Large', isDefault: false, priority: 1, conditions: [{ usageDetailPattern: '^inp', operator: 'gt', value: 100 }], prices: { input: 0.000002 } },
      ],
    },
    // 19 decimals: beyond the exact fast path of costs.
    { modelName: 'fine', matchPattern: '^fine$', prices: { input: 0.0000001234567891234, output: 3.3e-7 } },
  ]),
);

async function json(args: string[], input?: string): Promise<Record<string, any>> {
  const result = await llmobs([...args, '--json', '--verbose'], { env: isolatedEnv(), ...(input === undefined ? {} : { input }) });
  expect(result.exitCode, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

describe('matching and pricing that need the regex engine', () => {
  it('a built-in pattern whose literals are all in the name is compiled', async () => {
    const result = await llmobs(['models', 'match', 'GPT-4.1', '--offline', '--verbose'], { env: isolatedEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('gpt-4.1');
    expect(result.stderr).toMatch(/models: [1-9]\d* match patterns compiled/);
    // "gpt-4x1" matches too: the dot is any character.
    expect((await json(['models', 'match', 'gpt-4x1', '--offline'])).winner.modelName).toBe('gpt-4.1');
    const count = await llmobs(['tokens', 'count', '--model', 'gpt-4.1', 'hello'], { env: isolatedEnv() });
    expect([count.exitCode, count.stdout.trim()]).toEqual([0, '1']);
  });

  it('a pattern of a models file', async () => {
    expect((await json(['models', 'match', 'My-Modal42', '--offline', '--models-file', modelsFile])).winner.modelName).toBe('my-model');
    const estimate = await json(['estimate', '--model', 'my-model7', '--usage', '{"input": 1000}', '--models-file', modelsFile]);
    expect(estimate.matchedModel.modelName).toBe('my-model');
    expect(estimate.totalCost).toBe(0.001);
  });

  it('a usage condition of a pricing tier, built-in or from a file', async () => {
    const large = await json(['estimate', '--model', 'gemini-2.5-pro', '--usage', '{"input": 300000}']);
    expect(large.pricingTier).toBe('Large Context');
    const small = await json(['estimate', '--model', 'gemini-2.5-pro', '--usage', '{"input": 3000}']);
    expect(small.pricingTier).toBe('Standard');
    const tiered = await json(['estimate', '--model', 'tiered', '--usage', '{"input": 300}', '--models-file', modelsFile]);
    expect([tiered.pricingTier, tiered.totalCost]).toEqual(['Large', 0.0006]);
  });

  it('a batch of names', async () => {
    const lines = ['{"model":"gpt-4o","usage":{"input":1000}}', '{"model":"gpt-4.1","usage":{"input":1000}}', '{"model":"gemini-2.5-pro","usage":{"input":300000}}', '{"model":"my-model7","usage":{"input":1000}}'];
    const result = await llmobs(['estimate', '--batch', '-', '--models-file', modelsFile], { env: isolatedEnv(), input: `${lines.join('\n')}\n` });
    expect(result.exitCode, result.stderr).toBe(0);
    const out = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, any>);
    expect(out.map((line) => line.matchedModel?.modelName)).toEqual(['gpt-4o', 'gpt-4.1', 'gemini-2.5-pro', 'my-model']);
    expect(out[2]!.pricingTier).toBe('Large Context');
  });

  it('models lint of a file', async () => {
    const result = await llmobs(['models', 'lint', '--offline', '--models-file', modelsFile], { env: isolatedEnv() });
    expect(result.exitCode, result.stderr).toBe(0);
  });
});

describe('costs that need decimal.js', () => {
  it('are computed exactly, single or in a batch, as the core computes them', async () => {
    const usage = { input: 3, output: 7 };
    const single = await json(['estimate', '--model', 'fine', '--usage', JSON.stringify(usage), '--models-file', modelsFile, '--explain']);
    const definition = { ...single.matchedModel, pricingTiers: [{ id: 't', name: 'Standard', isDefault: true, priority: 0, conditions: [], prices: { input: 0.0000001234567891234, output: 3.3e-7 } }] };
    const core = estimate({ model: 'fine', usageDetails: usage }, { definitions: [definition], count: () => ({ ok: false, reason: 'not used' }) as never });
    expect(single.costDetails).toEqual(core.costDetails);
    expect(single.totalCost).toBe(core.totalCost);
    expect(single.costDetails.input).toBe(3.7037e-7);
    const batch = await llmobs(['estimate', '--batch', '-', '--models-file', modelsFile], { env: isolatedEnv(), input: `${JSON.stringify({ model: 'fine', usage })}\n` });
    expect(batch.exitCode, batch.stderr).toBe(0);
    expect((JSON.parse(batch.stdout) as Record<string, any>).totalCost).toBe(core.totalCost);
  });

  it('large amounts are added up exactly for the text output and --explain', async () => {
    for (const extra of [[], ['--explain']]) {
      const result = await llmobs(['estimate', '--model', 'gpt-4o', '--usage', '{"input": 100000000000, "output": 33333333333}', ...extra], { env: isolatedEnv() });
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/Total cost\s+\$583,333\.33333/);
    }
  });
});
