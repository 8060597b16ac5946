// `llmobs estimate --batch`: order, one result per line, bad lines reported, totals, exit codes.
import { writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Decimal } from 'decimal.js';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runInProcess, tempDir } from '../../../helpers/cli.js';

const good = (id: string, model: string, input: number, output: number) => JSON.stringify({ id, model, usageDetails: { input, output } });

describe('estimate --batch', () => {
  it('answers every line in order, reports bad ones with their line number, and exits 2 at the end', async () => {
    const dir = tempDir();
    const lines = [
      good('a', 'gpt-4o', 1000, 100),
      '{"model": "gpt-4o", "usage_details": {"input": 10}}',
      '{not json',
      '',
      '[1, 2]',
      '{"id": "no-model"}',
      good('b', 'claude-sonnet-4-5', 500, 50),
      '{"model": "gpt-4o", "modelParameters": {"x": {"nested": 1}}}',
      `${good('c', 'unknown-model', 1, 1)}\r`,
      good('d', 'gpt-4o', 5, 5),
    ];
    writeFileSync(join(dir, 'in.jsonl'), lines.join('\n')); // no final newline
    const result = await runInProcess(['estimate', '--batch', 'in.jsonl'], { env: isolatedEnv(), cwd: dir });
    expect(result.exitCode).toBe(2);
    const out = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(out.map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(out[0]).toMatchObject({ line: 1, id: 'a', model: 'gpt-4o', usageDetails: { input: 1000, output: 100, total: 1100 } });
    expect(out[1].usageDetails).toEqual({ input: 10, total: 10 });
    expect(out[2]).toMatchObject({ line: 3, error: { code: 'invalid_json' } });
    expect(out[3]).toEqual({ line: 4, skipped: 'empty line' });
    expect(out[4]).toMatchObject({ error: { code: 'invalid_line' } });
    expect(out[5]).toMatchObject({ id: 'no-model', error: { code: 'invalid_line', message: '"model" must be a string' } });
    expect(out[7]).toMatchObject({ line: 8, error: { code: 'rejected' } });
    expect(out[8]).toMatchObject({ id: 'c', matchedModel: null, totalCost: null });
    expect(out[9]).toMatchObject({ id: 'd' });
    expect(result.stderr).toContain('line 3: not valid JSON');
    expect(result.stderr).toContain('line 8:');
    expect(result.stderr).toMatch(/10 lines: 5 estimated, 4 failed, 1 skipped/);
  });

  it('gives a batch line the same fields as a single estimate', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'in.jsonl'), `${good('x', 'gpt-4o-mini', 1234, 56)}\n`);
    const batch = await runInProcess(['estimate', '--batch', 'in.jsonl'], { env: isolatedEnv(), cwd: dir });
    const single = await runInProcess(['estimate', '--json', '--model', 'gpt-4o-mini', '--usage', '{"input":1234,"output":56}'], { env: isolatedEnv() });
    const { line, id, ...fromBatch } = JSON.parse(batch.stdout);
    expect([line, id]).toEqual([1, 'x']);
    // The single estimate adds which definitions it used; a batch says it once, in the summary.
    const { definitions, ...fromSingle } = JSON.parse(single.stdout);
    expect(definitions.source).toBe('catalogue');
    expect(fromBatch).toEqual(fromSingle);
    expect(batch.exitCode).toBe(0);
  });

  it('reads stdin and ends with a summary object per model with --json', async () => {
    const input = [good('1', 'gpt-4o', 100, 10), good('2', 'gpt-4o', 200, 20), good('3', 'nope', 1, 1)].join('\n') + '\n';
    const result = await runInProcess(['estimate', '--batch', '-', '--json'], { env: isolatedEnv(), stdin: input });
    expect(result.exitCode).toBe(0);
    const out = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(out).toHaveLength(4);
    const { summary } = out[3];
    expect(summary).toMatchObject({ lines: 3, estimated: 3, failed: 0, skipped: 0 });
    const gpt = summary.models.find((m: { model: string }) => m.model === 'gpt-4o');
    expect(gpt).toMatchObject({ definition: 'gpt-4o', generations: 2, usage: { input: 300, output: 30, total: 330 } });
    expect(gpt.totalCost).toBe(new Decimal(out[0].totalCost).plus(out[1].totalCost).toNumber());
    expect(summary.models.find((m: { model: string }) => m.model === 'nope')).toMatchObject({ definition: null, totalCost: 0, withoutCost: 1 });
    expect(summary.totalCost).toBe(gpt.totalCost);
    expect(summary.definitions).toMatchObject({ source: 'catalogue', modelsFile: null });
    expect(result.stderr).toBe('');
  });

  it('adds up the stored line costs exactly, as the server\'s reports do, not with float drift', async () => {
    // 0.1 + 0.2 is 0.30000000000000004 in floating point; stored costs add up to 0.3.
    const lines = ['0.1', '0.2', '0.000375', '0.00025'].map((total, i) => JSON.stringify({ id: i, model: 'gpt-4o', costDetails: { total: Number(total) } }));
    const result = await runInProcess(['estimate', '--batch', '-', '--json'], { env: isolatedEnv(), stdin: `${lines.join('\n')}\n` });
    expect(result.exitCode, result.stderr).toBe(0);
    const out = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(out.slice(0, 4).map((r) => r.totalCost)).toEqual([0.1, 0.2, 0.000375, 0.00025]);
    expect(0.1 + 0.2 + 0.000375 + 0.00025).not.toBe(0.300625);
    expect(out[4].summary.totalCost).toBe(0.300625);
    expect(out[4].summary.models[0].totalCost).toBe(0.300625);
    const text = await runInProcess(['estimate', '--batch', '-'], { env: isolatedEnv(), stdin: `${lines.join('\n')}\n` });
    expect(text.stderr).toMatch(/^total cost\t\$0\.300625\t/m);
    expect(text.stderr).toMatch(/^Definitions: the built-in catalogue/m);
  });

  it('fails with exit 6 for a missing file', async () => {
    const result = await runInProcess(['estimate', '--batch', 'missing.jsonl'], { env: isolatedEnv(), cwd: tempDir() });
    expect(result.exitCode).toBe(6);
  });
});

describe('estimate --batch across chunk boundaries', () => {
  it('numbers lines exactly over a large file with a BOM, CRLF endings and one very long line', async () => {
    const dir = tempDir();
    const lines: string[] = [];
    for (let i = 0; i < 6000; i++) {
      if (i === 3000) lines.push(JSON.stringify({ id: 'long', model: 'gpt-4o', usageDetails: { input: 1 }, metadata: { pad: 'x'.repeat(600_000) } }));
      else lines.push(good(`g${i}`, i % 2 ? 'gpt-4o' : 'claude-sonnet-4-5', i, 1));
    }
    writeFileSync(join(dir, 'big.jsonl'), `\uFEFF${lines.join('\r\n')}\r\n`);
    const result = await runInProcess(['estimate', '--batch', 'big.jsonl'], { env: isolatedEnv(), cwd: dir });
    expect(result.exitCode, result.stderr).toBe(0);
    const out = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(out).toHaveLength(6000);
    out.forEach((row, index) => {
      expect(row.line).toBe(index + 1);
      expect(row.id).toBe(index === 3000 ? 'long' : `g${index}`);
    });
    expect(out[5999].usageDetails).toEqual({ input: 5999, output: 1, total: 6000 });
  });
});

describe('estimate --batch with exported observations', () => {
  it('reads providedModelName, the stored usage as provided usage, raw-string input and output, and not the stored cost', async () => {
    const dir = tempDir();
    const lines = [
      { id: 'o1', providedModelName: 'gpt-4o', usageDetails: { input: '1000', output: 100, total: 1100 }, costDetails: { total: 99 }, totalCost: 99, startTime: '2026-05-01T00:00:00Z', modelParameters: { temperature: '0.2' }, metadata: {} },
      { id: 'o2', providedModelName: 'gpt-4o', usageDetails: {}, costDetails: {}, input: JSON.stringify([{ role: 'user', content: 'What is the capital of France?' }]), output: 'Paris.' },
      { id: 'o3', providedModelName: null, type: 'SPAN' },
    ];
    writeFileSync(join(dir, 'export.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    const result = await runInProcess(['estimate', '--batch', 'export.jsonl'], { env: isolatedEnv(), cwd: dir });
    expect(result.exitCode).toBe(0);
    const out = result.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const single = await runInProcess(['estimate', '--json', '--model', 'gpt-4o', '--usage', '{"input":1000,"output":100,"total":1100}'], { env: isolatedEnv() });
    expect(out[0].totalCost).toBe(JSON.parse(single.stdout).totalCost);
    const tokenized = await runInProcess(['estimate', '--json', '--model', 'gpt-4o', '--input', lines[1]!.input as string, '--output', 'Paris.'], { env: isolatedEnv() });
    expect(out[1].usageDetails).toEqual(JSON.parse(tokenized.stdout).usageDetails);
    expect(out[2]).toEqual({ line: 3, id: 'o3', skipped: 'no model name (providedModelName is null)' });
    // The span is skipped, not an empty line.
    expect(result.stderr).toMatch(/^3 lines: 2 estimated, 0 failed, 1 skipped \(empty lines, JSON array brackets, observations without a model\)/m);
    expect(readFileSync(join(dir, 'export.jsonl'), 'utf8')).toContain('"totalCost":99');
  });
});

describe('estimate --batch with an export in the JSON layout', () => {
  it('reads the elements as the JSON Lines export, the brackets skipped', async () => {
    const dir = tempDir();
    const lines = [
      { id: 'o1', providedModelName: 'gpt-4o', usageDetails: { input: 1000, output: 100, total: 1100 }, startTime: '2026-05-01T00:00:00Z' },
      { id: 'o2', providedModelName: 'gpt-4o-mini', usageDetails: { input: 10, output: 5, total: 15 }, startTime: '2026-05-01T00:00:00Z' },
    ];
    writeFileSync(join(dir, 'export.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
    writeFileSync(join(dir, 'export.json'), `[\n${lines.map((l) => JSON.stringify(l)).join(',\n')}\n]\n`);
    const jsonl = await runInProcess(['estimate', '--batch', 'export.jsonl', '--offline'], { env: isolatedEnv(), cwd: dir });
    const json = await runInProcess(['estimate', '--batch', 'export.json', '--offline'], { env: isolatedEnv(), cwd: dir });
    expect(json.exitCode).toBe(0);
    const results = json.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    expect(results.map((r) => r.line)).toEqual([1, 2, 3, 4]);
    expect(results[0]).toMatchObject({ line: 1, skipped: expect.any(String) });
    expect(results[3]).toMatchObject({ line: 4, skipped: expect.any(String) });
    const strip = (r: Record<string, unknown>) => ({ ...r, line: 0 });
    expect(results.slice(1, 3).map(strip)).toEqual(jsonl.stdout.trimEnd().split('\n').map((l) => strip(JSON.parse(l))));
  });
});
