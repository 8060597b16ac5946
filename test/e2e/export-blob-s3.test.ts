// `export blob` to S3 as a user runs it: the built binary against a fake Langfuse data server and
// a real S3-compatible server (s3rver) on a random loopback port, read back by a consumer written
// for Langfuse's manifest format through the AWS SDK.
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, llmobs } from '../helpers/bin.js';
import { expectSameRows, expectWholeExport, PROJECT, readParquet, reference } from '../helpers/blob-compare.js';
import { readExport } from '../helpers/blob-reader.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { type FakeDataOptions, type FakeDataServer, heldAnswer, startFakeDataServer, syntheticGenerations } from '../helpers/fake-data-api.js';
import { S3_KEYS, type S3Server, startS3Server } from '../helpers/s3-server.js';

const TOTAL = 600;
const PREFIX = 'exports/langfuse/';
let server: FakeDataServer | undefined;
let s3: S3Server | undefined;

afterEach(async () => {
  await server?.close();
  await s3?.close();
  server = undefined;
  s3 = undefined;
});

async function start(options: FakeDataOptions = {}) {
  server = await startFakeDataServer(options);
  server.addObservations(syntheticGenerations(TOTAL, { start: new Date(Date.now() - 4 * 3_600_000).toISOString(), stepMs: 20_000 }));
  s3 = await startS3Server(['lake']);
  const env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey, LLMOBS_RETRY_BASE_MS: '10', ...S3_KEYS });
  const args = (...more: string[]) => ['export', 'blob', `s3://lake/${PREFIX}`, '--endpoint', s3!.endpoint, '--force-path-style', ...more];
  return { env, dir: tempDir(), args };
}

describe('export blob to S3', { timeout: 180_000 }, () => {
  it('a first run writes every window under the prefix, Parquet by default, and a consumer reads back what observations export gives', async () => {
    const { env, dir, args } = await start();
    const result = await llmobs(args('--interval', '20m', '--json'), { env, timeout: 120_000 });
    expect(result.exitCode, result.stderr).toBe(0);
    const run = JSON.parse(result.stdout) as { windows: Array<{ maxTimestamp: string; files: Array<{ key: string; compressed: boolean }> }> };
    expect(run.windows.length).toBeGreaterThanOrEqual(11);
    expect(run.windows[0]!.files[0]!.key).toMatch(new RegExp(`^${PREFIX}${PROJECT}/observations_v2/.*\\.parquet$`));
    const read = await readExport(s3!.store('lake'), PREFIX, PROJECT, readParquet);
    expectWholeExport(read, PREFIX);
    expect(read.manifests).toHaveLength(run.windows.length);
    expectSameRows(read.rows.get('observations_v2')!, await reference(env, dir, run.windows.at(-1)!.maxTimestamp), 'parquet');
  });

  it('an incremental run continues from the last manifest in the bucket; CSV uncompressed reads back the same', async () => {
    const { env, dir, args } = await start();
    const first = await llmobs(args('--interval', 'hourly', '--max-windows', '2', '--format', 'csv', '--no-gzip'), { env, timeout: 120_000 });
    expect(first.exitCode, first.stderr).toBe(0);
    expect((await readExport(s3!.store('lake'), PREFIX, PROJECT)).manifests).toHaveLength(2);
    const rest = await llmobs(args('--interval', 'hourly', '--format', 'csv', '--no-gzip', '--json'), { env, timeout: 120_000 });
    expect(rest.exitCode, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({ startedFrom: 'manifest' });
    const read = await readExport(s3!.store('lake'), PREFIX, PROJECT);
    expectWholeExport(read, PREFIX);
    const last = (read.manifests.at(-1)!.maxTimestamp as string);
    expectSameRows(read.rows.get('observations_v2')!, await reference(env, dir, last), 'text');
    expect(read.rows.get('observations_v2')!.size).toBe(TOTAL);
  });

  it('after a kill -9 in the middle of a window (gzipped JSON Lines), the next run loses and repeats nothing', async () => {
    const { step, atGate, release } = heldAnswer();
    let pages = 0;
    const { env, args } = await start({
      fault: ({ path, url }) => {
        if (path !== '/api/public/v2/observations' || !url.searchParams.has('fromStartTime')) return undefined;
        return ++pages === 10 ? step() : undefined;
      },
    });
    const child = execa(process.execPath, [BIN, ...args('--interval', '20m', '--page-size', '20', '--format', 'jsonl')], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    await atGate;
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    release();
    expect((await readExport(s3!.store('lake'), PREFIX, PROJECT)).manifests.length).toBeGreaterThan(0);
    const rerun = await llmobs(args('--interval', '20m', '--page-size', '20', '--format', 'jsonl'), { env, timeout: 120_000 });
    expect(rerun.exitCode, rerun.stderr).toBe(0);
    const read = await readExport(s3!.store('lake'), PREFIX, PROJECT);
    expectWholeExport(read, PREFIX);
    expect(read.rows.get('observations_v2')!.size).toBe(TOTAL);
    expect(read.files.every((f) => f.key.endsWith('.jsonl.gz'))).toBe(true);
  });

  // s3rver checks the access key id, not the signature: a wrong secret passes there, so the
  // wrong key here is an unknown access key id (S3 answers both with 403).
  it('a wrong key is refused with exit 7 before the server is asked anything, and nothing is written', async () => {
    const { env, args } = await start();
    const result = await llmobs(args('--interval', '20m'), { env: { ...env, AWS_ACCESS_KEY_ID: 'NOBODY', AWS_SECRET_ACCESS_KEY: 'wrong-secret-0000' } });
    expect(result.exitCode, result.stderr).toBe(7);
    expect(result.stderr).toContain('cannot reach the bucket lake: the store answered 403');
    expect(result.stderr).toContain('AWS_ACCESS_KEY_ID');
    expect(result.stderr).not.toContain('wrong-secret-0000');
    expect(result.stderr).not.toContain('NodeVersionSupportWarning');
    expect(server!.requests).toHaveLength(0);
    expect(await s3!.store('lake').list('')).toEqual([]);
  });

  it('a bucket that does not exist is a configuration error (exit 3) that says so', async () => {
    const { env } = await start();
    const result = await llmobs(['export', 'blob', 's3://no-such-bucket/', '--endpoint', s3!.endpoint, '--force-path-style'], { env });
    expect(result.exitCode, result.stderr).toBe(3);
    expect(result.stderr).toContain('no-such-bucket');
    expect(result.stderr).toMatch(/does not exist|NoSuchBucket/);
    expect(server!.requests).toHaveLength(0);
  });

  it('refuses a malformed s3:// destination and S3 options for a folder before any request', async () => {
    const { env, dir } = await start();
    for (const args of [['s3://'], ['s3://Bad_Bucket/'], [dir, '--region', 'eu-west-1'], ['s3://lake/', '--endpoint', 'ftp://x']]) {
      const result = await llmobs(['export', 'blob', ...args], { env });
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(2);
    }
    expect(server!.requests).toHaveLength(0);
  });
});
