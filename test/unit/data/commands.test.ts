// The command-side pieces of the data commands: writers, checkpoints, re-pricing lines, exported
// lines in estimate --batch, amounts and bars.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { Recomputer } from '../../../src/core/spend/recompute.js';
import { barChart, bar } from '../../../src/commands/cost/chart.js';
import { displayWidth } from '../../../src/output/fit.js';
import { formatCost, formatSeconds, formatShare } from '../../../src/output/format.js';
import { lineChunks } from '../../../src/io/line-chunks.js';
import { costDifference, RecomputeLines } from '../../../src/commands/cost/recompute-lines.js';
import { type Checkpoint, checkpointPath, identityOf, readCheckpoint, removeCheckpoint, writeCheckpoint } from '../../../src/commands/observations/checkpoint.js';
import { createWriter, formatOfFile } from '../../../src/core/observations/writer.js';
import { builtInDefinitions } from '../../../src/data/catalogue.js';
import { engineCounter } from '../../../src/tokenizer/index.js';
import { isolatedEnv, runInProcess, tempDir } from '../../helpers/cli.js';
import { storedCosts, syntheticGenerations } from '../../helpers/fake-data-api.js';

const items = [{ id: 'a', usageDetails: { input: 1 }, name: 'x,"y"' }, { id: 'b', usageDetails: {}, name: null }];

describe('writers', () => {
  it('write pages that join into valid JSON Lines, JSON and CSV, whatever the page cut', () => {
    const selection = { groups: ['core' as const, 'usage' as const], columns: null };
    for (const cut of [0, 1, 2]) {
      const json = createWriter('json', selection);
      const text = json.header() + json.items(items.slice(0, cut), 0) + json.items(items.slice(cut), cut) + json.footer(2);
      expect(JSON.parse(text)).toEqual(items);
      // One element per line: line-oriented readers can stream it.
      expect(text.split('\n')).toHaveLength(5);
    }
    const empty = createWriter('json', selection);
    expect(JSON.parse(empty.header() + empty.footer(0))).toEqual([]);
    const jsonl = createWriter('jsonl', { groups: ['core'], columns: ['id', 'usageDetails.input'] });
    expect(jsonl.items(items, 0)).toBe('{"id":"a","usageDetails.input":1}\n{"id":"b","usageDetails.input":null}\n');
    const csv = createWriter('csv', { groups: ['core'], columns: ['id', 'name', 'usageDetails'] });
    expect(csv.header() + csv.items(items, 0)).toBe('id,name,usageDetails\na,"x,""y""","{""input"":1}"\nb,,{}\n');
  });

  it('take the format from the file name', () => {
    expect(['a.csv', 'b.JSONL', 'c.ndjson', 'd.json', 'e.txt'].map(formatOfFile)).toEqual(['csv', 'jsonl', 'jsonl', 'json', undefined]);
  });
});

describe('checkpoints', () => {
  const checkpoint = (over: Partial<Checkpoint> = {}): Checkpoint => ({
    version: 1, kind: 'observations-export', identity: identityOf('http://x', 'pk'), baseUrl: 'http://x', format: 'jsonl', query: { fields: 'core', environment: ['a', 'b'] },
    columns: null, max: null, pageSize: 1000, cursor: 'abc', items: 10, pages: 1, bytes: 100, complete: false, startedAt: 't', updatedAt: 't', ...over,
  });

  it('are written atomically beside the output and read back; none is undefined', async () => {
    const file = join(tempDir(), 'out.jsonl');
    expect(await readCheckpoint(checkpointPath(file))).toBeUndefined();
    await writeCheckpoint(checkpointPath(file), checkpoint());
    await writeCheckpoint(checkpointPath(file), checkpoint({ items: 20 }));
    expect(await readCheckpoint(checkpointPath(file))).toEqual(checkpoint({ items: 20 }));
    expect(checkpointPath(file)).toBe(`${file}.llmobs-checkpoint`);
  });

  it('leave no temporary file behind once removed, also those of runs killed while writing one', async () => {
    const dir = tempDir();
    const path = checkpointPath(join(dir, 'out.jsonl'));
    await writeCheckpoint(path, checkpoint());
    writeFileSync(`${path}.4242.tmp`, '{"version":1,');
    writeFileSync(join(dir, 'other.jsonl.llmobs-checkpoint.4242.tmp'), 'not ours');
    await removeCheckpoint(path);
    expect(readdirSync(dir).sort()).toEqual(['other.jsonl.llmobs-checkpoint.4242.tmp']);
  });

  it('that cannot be read are a file error that says how to start over', async () => {
    const path = checkpointPath(join(tempDir(), 'out.jsonl'));
    writeFileSync(path, '{"version":1,"items":"many"}');
    await expect(readCheckpoint(path)).rejects.toMatchObject({ exitCode: 6, hint: expect.stringContaining('--force') });
  });

  it('name who was read from without the secret', () => {
    expect(identityOf('http://x', 'pk-1')).toMatch(/^[0-9a-f]{32}$/);
    expect(identityOf('http://x', 'pk-1')).not.toBe(identityOf('http://y', 'pk-1'));
  });
});

describe('re-pricing lines', () => {
  const recomputer = () => new Recomputer({ definitions: builtInDefinitions(), count: engineCounter, datedMatching: true });

  it('reads JSON Lines and the JSON array layout alike, with a BOM, CRLF and blank lines', () => {
    const rows = syntheticGenerations(4).map((g) => JSON.stringify({ ...g, totalCost: g.costDetails?.total }));
    const jsonl = new RecomputeLines(recomputer(), true).processChunk(`\ufeff${rows.join('\r\n')}\r\n\r\n`, 1);
    const array = new RecomputeLines(recomputer(), true).processChunk(`[\n${rows.join(',\n')}\n]\n`, 1);
    expect(jsonl.generations).toBe(4);
    expect(array.generations).toBe(4);
    expect(jsonl.failed + array.failed).toBe(0);
    expect(array.output!.toString()).toBe(jsonl.output!.toString());
  });

  it('writes each result as JSON.stringify writes the same object', () => {
    const raw = { id: 'g"1', traceId: null, startTime: '2026-05-01T00:00:00Z', providedModelName: 'gpt-4o', usageDetails: { input: 1234, output: 56 }, totalCost: 0.001 };
    const out = new RecomputeLines(recomputer(), true).processChunk(`${JSON.stringify(raw)}\n`, 1);
    const line = out.output!.toString();
    const parsed = JSON.parse(line);
    expect(line).toBe(`${JSON.stringify(parsed)}\n`);
    expect(parsed).toEqual({ id: 'g"1', traceId: null, startTime: '2026-05-01T00:00:00Z', model: 'gpt-4o', definition: 'gpt-4o', storedCost: 0.001, recomputedCost: storedCosts('gpt-4o', { input: 1234, output: 56 }).total, difference: costDifference(0.001, parsed.recomputedCost) });
  });

  it('reports bad lines with their numbers and goes on', () => {
    const out = new RecomputeLines(recomputer(), false).processChunk('{"id":"a","providedModelName":"gpt-4o","usageDetails":{"input":1}}\nid,model\n{"id":\n[1]\n', 7);
    expect(out.generations).toBe(1);
    expect(out.failures.map((f) => f.line)).toEqual([8, 9, 10]);
    expect(out.output).toBeNull();
  });

  it('rounds differences to the stored 12 decimals', () => {
    expect(costDifference(0.0001, 0.0003)).toBe(0.0002);
    expect(costDifference(null, 1)).toBeNull();
  });

  it('cuts a byte stream into whole lines, never inside a character', async () => {
    const text = `${'é'.repeat(10)}\n${'x'.repeat(50)}\nlast`;
    async function* bytes() {
      const all = Buffer.from(text);
      for (let i = 0; i < all.length; i += 3) yield all.subarray(i, i + 3);
    }
    const chunks: string[] = [];
    for await (const chunk of lineChunks(bytes(), 8)) chunks.push(chunk.toString('utf8'));
    expect(chunks.join('')).toBe(text);
    expect(chunks.slice(0, -1).every((c) => c.endsWith('\n'))).toBe(true);
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

describe('amounts and bars', () => {
  it('read as people read money', () => {
    expect([1234.5, 12, 0.5, 0.04567, 0.0123, 0.000125, 0.0000012346, 0, -3.2].map(formatCost)).toEqual(['$1,234.50', '$12.00', '$0.50', '$0.0457', '$0.0123', '$0.000125', '$0.000001235', '$0.00', '-$3.20']);
    expect([0.5, 0.0004, 1.2, 0].map(formatShare)).toEqual(['50.0%', '<0.1%', '120.0%', '0.0%']);
    expect([0.25, 2.5, 75, null].map(formatSeconds)).toEqual(['250 ms', '2.50 s', '1 min 15 s', '']);
  });

  it('draw bars in eighths, the largest one full width', () => {
    expect(bar(1, 1, 4)).toBe('████');
    expect(bar(0.5, 1, 3)).toBe('█▌');
    expect(bar(0, 1, 4)).toBe('');
    expect(bar(0.0001, 1, 4)).toBe('▏');
    const lines = barChart([{ label: 'gpt-4o', value: 2, text: '$2.00' }, { label: 'a-very-long-model-name-that-goes-on-and-on', value: 1, text: '$1.00' }], 60, new Chalk({ level: 0 }));
    expect(lines[0]).toMatch(/^gpt-4o {24}█+ {2}\$2\.00$/);
    expect(lines[1]).toMatch(/^a-very-long-model-name-that…  █+[▏▎▍▌▋▊▉]? +\$1\.00$/);
    expect(lines.every((l) => l.length <= 60)).toBe(true);
  });

  it('measure labels in terminal columns: wide characters count 2, the bars start at one column', () => {
    const items = [
      { label: 'サポート回答', value: 2, text: '$2.00' },
      { label: 'ascii-name', value: 1, text: '$1.00' },
      { label: '日本語のとても長いトレースの名前です', value: 1, text: '$1.00' },
    ];
    const lines = barChart(items, 60, new Chalk({ level: 0 }));
    expect(lines.every((l) => displayWidth(l) <= 60)).toBe(true);
    const barAt = lines.map((l) => displayWidth(l.slice(0, l.indexOf('█'))));
    expect(new Set(barAt).size).toBe(1);
    expect(lines[2]).toContain('…');
  });
});
