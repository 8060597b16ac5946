// Tables on a terminal fit its width (`models list`); piped output and --json keep everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayWidth, fitTable, fitWidths, truncate } from '../../../src/output/fit.js';
import { type RunningServer, startServer } from '../../../src/server/index.js';
import { isolatedEnv, runInProcess } from '../../helpers/cli.js';

describe('fitting columns', () => {
  it('leaves a table that fits alone', () => {
    expect(fitWidths([10, 20, 5], [4, 4, undefined], 80, 2)).toBeUndefined();
  });

  it('caps the shrinkable columns at one common width, widest first, never below their minimum', () => {
    // 100 + 30 + 25 + 2×2 gaps into 80: the fixed 25 stays, 51 is left for the other two.
    expect(fitWidths([100, 30, 25], [10, 10, undefined], 80, 2)).toEqual([25, 25, 25]);
    const widths = fitWidths([100, 30, 25], [10, 10, undefined], 80, 2)!;
    expect(widths[2]).toBe(25);
    expect(widths[0]! + widths[1]! + widths[2]! + 4).toBeLessThanOrEqual(80);
    expect(widths[0]).toBe(widths[1]);
    // A short shrinkable column keeps its text while a long one is cut.
    expect(fitWidths([100, 8, 25], [10, 4, undefined], 60, 2)).toEqual([23, 8, 25]);
    // Too narrow for everything: every shrinkable column at its minimum.
    expect(fitWidths([100, 30, 25], [10, 12, undefined], 20, 2)).toEqual([10, 12, 25]);
  });

  it('leaves out droppable columns, lowest first, when cut columns still do not fit', () => {
    const columns = [{ header: 'A', shrinkTo: 5 }, { header: 'B', shrinkTo: 5, dropOrder: 2 }, { header: 'C', dropOrder: 1 }, { header: 'D' }];
    const rows = [['a'.repeat(30), 'b'.repeat(30), 'c'.repeat(20), 'd'.repeat(10)]];
    const fitted = fitTable(columns, rows, 30);
    expect(fitted.columns.map((c) => c.header)).toEqual(['A', 'B', 'D']);
    expect(fitted.rows[0]!.map((cell) => cell.length)).toEqual([8, 8, 10]);
    expect(fitted.cut).toBe(true);
    expect(fitTable(columns, rows, 200)).toEqual({ columns, rows, cut: false });
  });

  it('cuts text to a width with an ellipsis, counting wide characters twice', () => {
    expect(truncate('(?i)^(openai/)?(gpt-4o)$', 10)).toBe('(?i)^(ope…');
    expect(displayWidth(truncate('(?i)^(openai/)?(gpt-4o)$', 10))).toBe(10);
    expect(truncate('short', 10)).toBe('short');
    expect(displayWidth('模型名')).toBe(6);
    expect(truncate('模型名称', 5)).toBe('模型…');
  });
});

describe('models list on a terminal', () => {
  let server: RunningServer;
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    server = await startServer({ port: 0, ephemeral: true });
    env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey });
  });
  afterAll(() => server.close());

  // eslint-disable-next-line no-control-regex
  const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

  it('fits 80 columns, keeps source and id whole, and says how to see everything', async () => {
    const result = await runInProcess(['models', 'list', '--all'], { env, tty: true, columns: 80 });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = plain(result.stdout).trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(100);
    for (const line of lines) expect(displayWidth(line), line).toBeLessThanOrEqual(80);
    expect(result.stdout).toContain('…');
    expect(lines[0]).toMatch(/^NAME +(MATCH PATTERN +)?PRICES \(USD\) +SOURCE +ID$/);
    const gpt = lines.find((line) => line.startsWith('gpt-4o '))!;
    expect(gpt).toMatch(/built-in  b9854a5c92dc496b997d99d20$/);
    expect(result.stderr).toContain('Cut to fit the terminal');
    // 80 columns leave no room for the tokenizer: it is left out first.
    expect(lines[0]).not.toContain('TOKENIZER');
    // A wide terminal gets more of each value.
    const wide = await runInProcess(['models', 'list', '--all'], { env, tty: true, columns: 2000 });
    expect(plain(wide.stdout)).toContain('(?i)^(openai/)?(gpt-4o)$');
    expect(plain(wide.stdout).split('\n')[0]).toMatch(/^NAME +MATCH PATTERN +PRICES \(USD\) +TOKENIZER +SOURCE +ID$/);
    expect(wide.stderr).not.toContain('Cut to fit');
    // Very narrow: the pattern goes too; names and prices are cut, source and id stay whole.
    const narrow = await runInProcess(['models', 'list', '--all'], { env, tty: true, columns: 76 });
    const narrowLines = plain(narrow.stdout).trimEnd().split('\n');
    expect(narrowLines[0]).toMatch(/^NAME +PRICES \(USD\) +SOURCE +ID$/);
    for (const line of narrowLines) expect(displayWidth(line), line).toBeLessThanOrEqual(76);
  });

  it('keeps every value whole when piped or with --json', async () => {
    const piped = await runInProcess(['models', 'list', '--all'], { env, columns: 80 });
    expect(piped.stdout).not.toContain('…');
    expect(piped.stdout).toContain('(?i)^(openai/)?(gpt-4o)$');
    expect(piped.stderr).not.toContain('cut to fit');
    const json = JSON.parse((await runInProcess(['models', 'list', '--all', '--json'], { env, tty: true, columns: 80 })).stdout);
    expect(json.data.find((m: { modelName: string }) => m.modelName === 'gpt-4o').matchPattern).toBe('(?i)^(openai/)?(gpt-4o)$');
  });
});
