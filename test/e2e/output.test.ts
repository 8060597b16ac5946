// The built binary: jq's WebAssembly loads from the installed package, help and version work.
import { describe, expect, it } from 'vitest';
import { llmobs } from '../helpers/bin.js';

describe('the built binary', () => {
  it('filters with --jq (jq-wasm loads from node_modules) and prints CSV', async () => {
    const jq = await llmobs(['tokens', 'count', 'hello world', '--jq', '"\\(.tokens) \\(.encoding)"']);
    expect([jq.exitCode, jq.stdout, jq.stderr]).toEqual([0, '2 o200k_base\n', '']);
    const csv = await llmobs(['profile', 'list', '--names', '--csv']);
    expect(csv.exitCode).toBe(0);
  });

  it('prints help at any depth and its version', async () => {
    const help = await llmobs(['help', 'prompts', 'create']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/^Usage: llmobs prompts create/);
    expect(help.stdout).toContain('Examples:\n  llmobs prompts create support/greeting');
    const version = await llmobs(['version', '--jq', '.version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});
