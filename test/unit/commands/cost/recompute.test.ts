// cost recompute over an export.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../../helpers/cli.js';

describe('cost recompute', () => {
  it('shows no difference as $0.00, as every other amount', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'export.jsonl'), `${JSON.stringify({ id: 'g1', type: 'GENERATION', providedModelName: 'gpt-4o', usageDetails: { input: 10, output: 2, total: 12 }, costDetails: { input: 0.000025, output: 0.00002, total: 0.000045 }, totalCost: 0.000045, startTime: '2026-05-01T00:00:00Z' })}\n`);
    const result = await runInProcess(['cost', 'recompute', '--input', 'export.jsonl', '--offline'], { env: isolatedEnv(), cwd: dir });
    expect(result.exitCode).toBe(0);
    expect(result.stdout.split('\t').slice(0, 6)).toEqual(['gpt-4o', '1', '$0.000045', '$0.000045', '$0.00', 'gpt-4o']);
  });

  it('--output refuses a file another llmobs command is writing (its lock names a live pid), and leaves it as it was', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'export.jsonl'), `${JSON.stringify({ id: 'g1', type: 'GENERATION', providedModelName: 'gpt-4o', usageDetails: { input: 10, output: 2, total: 12 }, startTime: '2026-05-01T00:00:00Z' })}\n`);
    writeFileSync(join(dir, 'out.jsonl'), 'the other command\'s\n');
    // This process is alive: the lock is held.
    writeFileSync(join(dir, 'out.jsonl.llmobs-lock'), `${process.pid} ${Date.now()}\n`);
    const result = await runInProcess(['cost', 'recompute', '--input', 'export.jsonl', '--offline', '--output', 'out.jsonl'], { env: isolatedEnv(), cwd: dir });
    expect(result.exitCode).toBe(6);
    expect(result.stderr).toContain(`out.jsonl is being written by another llmobs command (pid ${process.pid}, since `);
    expect(readFileSync(join(dir, 'out.jsonl'), 'utf8')).toBe('the other command\'s\n');
    expect(existsSync(join(dir, 'out.jsonl.llmobs-lock'))).toBe(true);

    const free = await runInProcess(['cost', 'recompute', '--input', 'export.jsonl', '--offline', '--output', 'mine.jsonl'], { env: isolatedEnv(), cwd: dir });
    expect(free.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'mine.jsonl'), 'utf8')).id).toBe('g1');
    expect(existsSync(join(dir, 'mine.jsonl.llmobs-lock'))).toBe(false);
  });
});
