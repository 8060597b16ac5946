// `export blob` to a local folder as a user runs it (the built binary against a fake Langfuse data
// server), read back by a consumer written for Langfuse's manifest format (helpers/blob-reader.ts)
// and compared row by row with `observations export` of the same observations.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, llmobs } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { readExport } from '../helpers/blob-reader.js';
import { expectSameRows, expectWholeExport, folderStore, PROJECT, readParquet, reference } from '../helpers/blob-compare.js';
import { type FakeDataOptions, type FakeDataServer, heldAnswer, startFakeDataServer, syntheticGenerations } from '../helpers/fake-data-api.js';

const TOTAL = 600;
let server: FakeDataServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(options: FakeDataOptions = {}) {
  server = await startFakeDataServer(options);
  // Every 20 s from 4 hours ago to 40 minutes ago: a dozen 20-minute windows, all older than the lag bound.
  server.addObservations(syntheticGenerations(TOTAL, { start: new Date(Date.now() - 4 * 3_600_000).toISOString(), stepMs: 20_000 }));
  const env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey, LLMOBS_RETRY_BASE_MS: '10' });
  return { env, dir: tempDir() };
}

describe('export blob to a folder', { timeout: 180_000 }, () => {
  it('writes every window in Langfuse\'s layout, gzipped JSON Lines, and a consumer reads back what observations export gives', async () => {
    const { env, dir } = await start();
    const dest = join(dir, 'lake');
    const result = await llmobs(['export', 'blob', dest, '--interval', '20m', '--format', 'jsonl', '--json'], { env, timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as { windows: Array<{ maxTimestamp: string; files: Array<{ key: string; format: string; contentType: string; rowCount: number }> }> };
    expect(run.windows.length).toBeGreaterThanOrEqual(11);
    expect(run.windows[0]!.files[0]).toMatchObject({ format: 'jsonl-gzip', contentType: 'application/gzip' });
    expect(run.windows[0]!.files[0]!.key).toMatch(/\.jsonl\.gz$/);
    expect(result.stderr).toMatch(/Exported 600 observations in \d+ windows/);
    const read = await readExport(folderStore(dest), '', PROJECT, readParquet);
    expectWholeExport(read);
    expect(read.manifests).toHaveLength(run.windows.length);
    expectSameRows(read.rows.get('observations_v2')!, await reference(env, dir, run.windows.at(-1)!.maxTimestamp), 'json');
  });

  it('writes Parquet by default, and CSV and a JSON array compressed or not, with the same rows', async () => {
    const { env, dir } = await start();
    let to = '';
    let rows: Record<string, unknown>[] | undefined;
    for (const [format, gzip] of [['parquet', false], ['csv', false], ['json', true], ['csv', true], ['json', false], ['jsonl', false]] as const) {
      const dest = join(dir, `${format}-${gzip}`);
      const chosen = format === 'parquet' ? [] : ['--format', format, ...(gzip ? [] : ['--no-gzip'])];
      const result = await llmobs(['export', 'blob', dest, '--interval', 'hourly', '--max-windows', '3', ...chosen, '--json'], { env, timeout: 120_000 });
      expect(result.exitCode, result.stderr).toBe(0);
      const run = JSON.parse(result.stdout) as { windows: Array<{ maxTimestamp: string; files: Array<{ key: string; compressed: boolean; fileType: string; rowCount: number | null }> }> };
      expect(run.windows[0]!.files[0]).toMatchObject({ compressed: gzip, fileType: format.toUpperCase() });
      // Langfuse counts the rows of text files only.
      expect(run.windows[0]!.files[0]!.rowCount === null).toBe(format === 'parquet');
      expect(run.windows[0]!.files[0]!.key.endsWith(gzip ? `.${format}.gz` : `.${format}`)).toBe(true);
      const read = await readExport(folderStore(dest), '', PROJECT, readParquet);
      expectWholeExport(read);
      // Three whole hours from the first observation: the same windows in every run.
      expect(run.windows).toHaveLength(3);
      to ||= run.windows.at(-1)!.maxTimestamp;
      expect(run.windows.at(-1)!.maxTimestamp).toBe(to);
      rows ??= await reference(env, dir, to);
      expectSameRows(read.rows.get('observations_v2')!, rows, format === 'csv' ? 'text' : format === 'parquet' ? 'parquet' : 'json');
    }
  });

  it('continues from the last manifest, window by window, and writes nothing when up to date', async () => {
    const { env, dir } = await start();
    const dest = join(dir, 'lake');
    const dry = await llmobs(['export', 'blob', dest, '--interval', 'hourly', '--dry-run'], { env });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stderr).toMatch(/Would write \d windows, starting at .* \(the project's first observation\)/);
    expect(existsSync(join(dest, PROJECT))).toBe(false);
    const first = await llmobs(['export', 'blob', dest, '--interval', 'hourly', '--max-windows', '2'], { env });
    expect(first.exitCode, first.stderr).toBe(0);
    expect(readdirSync(join(dest, PROJECT, 'manifests'))).toHaveLength(2);
    const refused = await llmobs(['export', 'blob', dest, '--from', '2026-01-01'], { env });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--from only sets where a first run starts');
    const rest = await llmobs(['export', 'blob', dest, '--interval', 'hourly'], { env });
    expect(rest.exitCode, rest.stderr).toBe(0);
    const again = await llmobs(['export', 'blob', dest, '--interval', 'hourly', '--json'], { env });
    expect(JSON.parse(again.stdout)).toMatchObject({ startedFrom: 'manifest', windows: [] });
    expect(again.stderr).toMatch(/Up to date: .* the next window is due at /);
    const read = await readExport(folderStore(dest), '', PROJECT, readParquet);
    expectWholeExport(read);
    expect(read.rows.get('observations_v2')!.size).toBe(TOTAL);
  });

  it('after a kill -9 in the middle of a window, the next run loses and repeats nothing', async () => {
    const { step, atGate, release } = heldAnswer();
    let pages = 0;
    const { env, dir } = await start({
      fault: ({ path, url }) => {
        // Pages of windows only (not the probes for the first observation), 20 observations a
        // page, 60 a window: the tenth is in the middle of the third or fourth window.
        if (path !== '/api/public/v2/observations' || !url.searchParams.has('fromStartTime')) return undefined;
        return ++pages === 10 ? step() : undefined;
      },
    });
    const dest = join(dir, 'lake');
    const child = execa(process.execPath, [BIN, 'export', 'blob', dest, '--interval', '20m', '--page-size', '20'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    await atGate;
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    release();
    const before = await readExport(folderStore(dest), '', PROJECT, readParquet);
    expect(before.manifests.length).toBeGreaterThan(0);
    const rerun = await llmobs(['export', 'blob', dest, '--interval', '20m', '--page-size', '20'], { env, timeout: 120_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const read = await readExport(folderStore(dest), '', PROJECT, readParquet);
    expectWholeExport(read);
    expect(read.rows.get('observations_v2')!.size).toBe(TOTAL);
    // No temporary file of the killed write is left beside the keys.
    expect(readdirSync(join(dest, PROJECT, 'observations_v2')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('refuses a destination that is a URL, a table it cannot write and a bad interval before any request', async () => {
    const { env, dir } = await start();
    for (const args of [['s3x://bucket/'], [join(dir, 'x'), '--tables', 'traces'], [join(dir, 'x'), '--interval', 'monthly']]) {
      const result = await llmobs(['export', 'blob', ...args], { env });
      expect(result.exitCode, result.stderr).toBe(2);
    }
    expect(server!.requests).toHaveLength(0);
  });
});
