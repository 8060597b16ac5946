// Hostile definitions, servers and input against the built binary.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { llmobs } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';

describe('profiles', () => {
  it('20 concurrent profile add commands keep all 21 profiles', async () => {
    const env = isolatedEnv();
    const first = await llmobs(['profile', 'add', 'p0', '--region', 'eu', '--public-key', 'pk-lf-0-aaaaaaaa', '--secret-key-stdin'], { env, input: 'sk-lf-0-bbbbbbbb' });
    expect(first.exitCode).toBe(0);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        llmobs(['profile', 'add', `p${i + 1}`, '--region', 'us', '--public-key', `pk-lf-${i + 1}-aaaaaaaa`, '--secret-key-stdin'], { env, input: `sk-lf-${i + 1}-bbbbbbbb`, timeout: 120_000 }),
      ),
    );
    expect(results.map((r) => r.exitCode)).toEqual(Array(20).fill(0));
    const file = JSON.parse(readFileSync(join(env.LLMOBS_CONFIG_DIR!, 'config.json'), 'utf8'));
    expect(Object.keys(file.profiles).sort()).toEqual(Array.from({ length: 21 }, (_, i) => `p${i}`).sort());
    expect(file.activeProfile).toBe('p0');
  }, 150_000);
});

describe('hostile model definitions', () => {
  const hostile = [
    { modelName: 'planted', matchPattern: '(a+)+$', prices: { input: 0.000001 }, tokenizerId: 'openai', tokenizerConfig: { tokenizerModel: 'gpt-4o', tokensPerMessage: 3, tokensPerName: 1 } },
    { modelName: 'planted-2', matchPattern: '^(a|a)*$', prices: { input: 0.000001 } },
  ];
  const name = `${'a'.repeat(40)}!`;

  function modelsFile(): string {
    const file = join(tempDir(), 'models.json');
    writeFileSync(file, JSON.stringify(hostile));
    return file;
  }

  it('models match, estimate, estimate --batch, tokens count --model and models lint answer at once', async () => {
    const env = isolatedEnv();
    const file = modelsFile();
    const match = await llmobs(['models', 'match', name, '--offline', '--models-file', file, '--json'], { env, timeout: 20_000 });
    expect(match.exitCode).toBe(0);
    expect(JSON.parse(match.stdout).winner).toBeNull();
    const est = await llmobs(['estimate', '--model', name, '--input', 'hi', '--models-file', file, '--json'], { env, timeout: 20_000 });
    expect(est.exitCode).toBe(0);
    expect(JSON.parse(est.stdout).matchedModel).toBeNull();
    const batch = await llmobs(['estimate', '--batch', '-', '--models-file', file], { env, input: `${JSON.stringify({ model: name, input: 'hi' })}\n${JSON.stringify({ model: 'a'.repeat(5000), input: 'hi' })}\n`, timeout: 20_000 });
    expect(batch.exitCode).toBe(0);
    const lines = batch.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0].matchedModel).toBeNull();
    expect(lines[1].matchedModel.modelName).toBe('planted');
    const tokens = await llmobs(['tokens', 'count', 'hello', '--model', 'aaaa', '--models-file', file, '--json'], { env, timeout: 20_000 });
    expect(tokens.exitCode).toBe(0);
    const lint = await llmobs(['models', 'lint', '--offline', '--models-file', file], { env, timeout: 20_000 });
    expect([0, 9]).toContain(lint.exitCode);
  }, 60_000);
});
