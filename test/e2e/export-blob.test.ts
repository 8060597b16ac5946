// `export blob` to a local folder as a user runs it (the built binary against a fake Langfuse data
// server), read back by a consumer written for Langfuse's manifest format (helpers/blob-reader.ts)
// and compared row by row with `observations export` of the same observations.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, llmobs } from '../helpers/bin.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { type BlobStore, type ReadExport, readExport } from '../helpers/blob-reader.js';
import { type FakeDataOptions, type FakeDataServer, startFakeDataServer, syntheticGenerations } from '../helpers/fake-data-api.js';

const TOTAL = 600;
const PROJECT = 'project-data';
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

export function folderStore(root: string): BlobStore {
  const walk = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])) : []);
  return {
    list: async (prefix) => walk(root).map((p) => relative(root, p).split('\\').join('/')).filter((k) => k.startsWith(prefix)),
    get: async (key) => readFileSync(join(root, key)),
  };
}

/** Langfuse's observations_v2 columns and the v2 API field each comes from (event-query-builder.ts). */
const COLUMNS: Array<[string, string]> = [
  ['id', 'id'], ['trace_id', 'traceId'], ['start_time', 'startTime'], ['end_time', 'endTime'], ['project_id', 'projectId'], ['parent_observation_id', 'parentObservationId'], ['type', 'type'],
  ['name', 'name'], ['level', 'level'], ['status_message', 'statusMessage'], ['version', 'version'], ['environment', 'environment'], ['bookmarked', 'bookmarked'], ['public', 'public'], ['user_id', 'userId'], ['session_id', 'sessionId'], ['is_root_observation', 'isRootObservation'],
  ['completion_start_time', 'completionStartTime'], ['created_at', 'createdAt'], ['updated_at', 'updatedAt'],
  ['input', 'input'], ['output', 'output'], ['metadata', 'metadata'],
  ['provided_model_name', 'providedModelName'], ['model_id', 'internalModelId'], ['model_parameters', 'modelParameters'],
  ['usage_details', 'usageDetails'], ['cost_details', 'costDetails'], ['total_cost', 'totalCost'], ['usage_pricing_tier_name', 'usagePricingTierName'],
  ['prompt_id', 'promptId'], ['prompt_name', 'promptName'], ['prompt_version', 'promptVersion'],
  ['latency', 'latency'], ['time_to_first_token', 'timeToFirstToken'],
  ['tags', 'tags'], ['release', 'release'], ['trace_name', 'traceName'],
  ['input_price', 'inputPrice'], ['output_price', 'outputPrice'], ['total_price', 'totalPrice'],
];
const TIMES = new Set(['startTime', 'endTime', 'completionStartTime', 'createdAt', 'updatedAt']);

/** `2026-05-01 12:00:00.123000` (UTC) as epoch ms. */
function clickhouseMs(text: string): number {
  expect(text).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{6}$/);
  return Date.parse(`${text.replace(' ', 'T').slice(0, 23)}Z`);
}

/** Each exported row against the observation `observations export` wrote (text: CSV, every value a string). */
function expectSameRows(rows: Map<string, Record<string, unknown>>, reference: Record<string, unknown>[], text: boolean) {
  expect([...rows.keys()].sort()).toEqual(reference.map((o) => o.id as string).sort());
  for (const observation of reference) {
    const row = rows.get(observation.id as string)!;
    for (const [column, field] of COLUMNS) {
      const want = observation[field] ?? null;
      const got = row[column];
      if (TIMES.has(field) && want !== null) expect(clickhouseMs(got as string), `${column} of ${observation.id}`).toBe(Date.parse(want as string));
      else if (text) expect(got, `${column} of ${observation.id}`).toBe(want === null ? '' : typeof want === 'object' ? JSON.stringify(want) : String(want));
      else expect(got ?? null, `${column} of ${observation.id}`).toEqual(want);
    }
  }
}

async function reference(env: Record<string, string | undefined>, dir: string, to: string): Promise<Record<string, unknown>[]> {
  const file = join(dir, 'reference.jsonl');
  const result = await llmobs(['observations', 'export', '--output', file, '--to', to], { env });
  expect(result.exitCode, result.stderr).toBe(0);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

function expectWholeExport(read: ReadExport, dest: string) {
  expect(read.repeated.size).toBe(0);
  expect(read.unlisted.filter((k) => !k.endsWith('.llmobs-lock'))).toEqual([]);
  // Each manifest is Langfuse's version 1, its files as they are in the folder.
  for (const manifest of read.manifests) {
    expect(Object.keys(manifest)).toEqual(['version', 'projectId', 'exportSource', 'window', 'maxTimestamp', 'createdAt', 'tables', 'files']);
    expect(manifest).toMatchObject({ version: 1, projectId: PROJECT, exportSource: 'EVENTS', tables: ['observations_v2'] });
    const window = manifest.window as { minTimestamp: string; maxTimestamp: string };
    expect(window.maxTimestamp).toBe(manifest.maxTimestamp);
    for (const file of manifest.files as Array<{ key: string; sizeBytes: number; rowCount: number }>) {
      expect(file.key).toBe(`${PROJECT}/observations_v2/${window.maxTimestamp.replace(/:/g, '-').slice(0, 19)}.${file.key.split('.').slice(1).join('.')}`);
      expect(statSync(join(dest, file.key)).size).toBe(file.sizeBytes);
    }
  }
  // The windows follow each other without a gap.
  const windows = read.manifests.map((m) => m.window as { minTimestamp: string; maxTimestamp: string });
  for (let i = 1; i < windows.length; i++) expect(windows[i]!.minTimestamp).toBe(windows[i - 1]!.maxTimestamp);
}

describe('export blob to a folder', () => {
  it('writes every window in Langfuse\'s layout, gzipped JSON Lines by default, and a consumer reads back what observations export gives', async () => {
    const { env, dir } = await start();
    const dest = join(dir, 'lake');
    const result = await llmobs(['export', 'blob', dest, '--interval', '20m', '--json'], { env, timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as { windows: Array<{ maxTimestamp: string; files: Array<{ key: string; format: string; contentType: string; rowCount: number }> }> };
    expect(run.windows.length).toBeGreaterThanOrEqual(11);
    expect(run.windows[0]!.files[0]).toMatchObject({ format: 'jsonl-gzip', contentType: 'application/gzip' });
    expect(run.windows[0]!.files[0]!.key).toMatch(/\.jsonl\.gz$/);
    expect(result.stderr).toMatch(/Exported 600 observations in \d+ windows/);
    const read = await readExport(folderStore(dest), '', PROJECT);
    expectWholeExport(read, dest);
    expect(read.manifests).toHaveLength(run.windows.length);
    expectSameRows(read.rows.get('observations_v2')!, await reference(env, dir, run.windows.at(-1)!.maxTimestamp), false);
  });

  it('writes CSV and a JSON array, compressed or not, with the same rows', async () => {
    const { env, dir } = await start();
    let to = '';
    for (const [format, gzip] of [['csv', false], ['json', true], ['csv', true], ['json', false], ['jsonl', false]] as const) {
      const dest = join(dir, `${format}-${gzip}`);
      const result = await llmobs(['export', 'blob', dest, '--interval', 'hourly', '--max-windows', '3', '--format', format, ...(gzip ? [] : ['--no-gzip']), '--json'], { env, timeout: 120_000 });
      expect(result.exitCode, result.stderr).toBe(0);
      const run = JSON.parse(result.stdout) as { windows: Array<{ maxTimestamp: string; files: Array<{ key: string; compressed: boolean; fileType: string }> }> };
      expect(run.windows[0]!.files[0]).toMatchObject({ compressed: gzip, fileType: format.toUpperCase() });
      expect(run.windows[0]!.files[0]!.key.endsWith(gzip ? `.${format}.gz` : `.${format}`)).toBe(true);
      const read = await readExport(folderStore(dest), '', PROJECT);
      expectWholeExport(read, dest);
      // Three whole hours from the first observation: the same windows in every run.
      expect(run.windows).toHaveLength(3);
      to ||= run.windows.at(-1)!.maxTimestamp;
      expect(run.windows.at(-1)!.maxTimestamp).toBe(to);
      expectSameRows(read.rows.get('observations_v2')!, await reference(env, dir, to), format === 'csv');
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
    const read = await readExport(folderStore(dest), '', PROJECT);
    expectWholeExport(read, dest);
    expect(read.rows.get('observations_v2')!.size).toBe(TOTAL);
  });

  it('after a kill -9 in the middle of a window, the next run loses and repeats nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const atGate = new Promise<void>((resolve) => (reached = resolve));
    let pages = 0;
    const { env, dir } = await start({
      fault: ({ path, url }) => {
        // Pages of windows only (not the probes for the first observation), 20 observations a
        // page, 60 a window: the tenth is in the middle of the third or fourth window.
        if (path !== '/api/public/v2/observations' || !url.searchParams.has('fromStartTime')) return undefined;
        if (++pages === 10) {
          reached();
          return { hold: gate };
        }
        return undefined;
      },
    });
    const dest = join(dir, 'lake');
    const child = execa(process.execPath, [BIN, 'export', 'blob', dest, '--interval', '20m', '--page-size', '20'], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    await atGate;
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    release();
    const before = await readExport(folderStore(dest), '', PROJECT);
    expect(before.manifests.length).toBeGreaterThan(0);
    const rerun = await llmobs(['export', 'blob', dest, '--interval', '20m', '--page-size', '20'], { env, timeout: 120_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const read = await readExport(folderStore(dest), '', PROJECT);
    expectWholeExport(read, dest);
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
