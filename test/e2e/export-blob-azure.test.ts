// `export blob` to Azure Blob Storage as a user runs it: the built binary against a fake Langfuse
// data server and Azurite (Microsoft's emulator) on a random loopback port, read back by a consumer
// of Langfuse's manifests through the Azure SDK.
import { afterEach, describe, expect, it } from 'vitest';
import { llmobs } from '../helpers/bin.js';
import { type Azurite, AZURITE_ACCOUNT, startAzurite } from '../helpers/azurite.js';
import { expectSameRows, expectWholeExport, PROJECT, readParquet, reference } from '../helpers/blob-compare.js';
import { readExport } from '../helpers/blob-reader.js';
import { isolatedEnv, tempDir } from '../helpers/cli.js';
import { basicHeader, type Started, startServerProcess } from '../helpers/server-process.js';
import { type FakeDataServer, startFakeDataServer, syntheticGenerations } from '../helpers/fake-data-api.js';

const TOTAL = 600;
let server: FakeDataServer | undefined;
let azurite: Azurite | undefined;

afterEach(async () => {
  await server?.close();
  await azurite?.close();
  server = undefined;
  azurite = undefined;
});

async function start() {
  server = await startFakeDataServer();
  server.addObservations(syntheticGenerations(TOTAL, { start: new Date(Date.now() - 4 * 3_600_000).toISOString(), stepMs: 20_000 }));
  azurite = await startAzurite(['lake']);
  const env = isolatedEnv({ LANGFUSE_HOST: server.url, LANGFUSE_PUBLIC_KEY: server.keys.publicKey, LANGFUSE_SECRET_KEY: server.keys.secretKey, ...AZURITE_ACCOUNT });
  return { env, dir: tempDir() };
}

describe('export blob to Azure Blob Storage (Azurite)', { timeout: 180_000 }, () => {
  it('a first and an incremental run write Langfuse\'s layout that a consumer reads back whole', async () => {
    const { env, dir } = await start();
    const args = (...more: string[]) => ['export', 'blob', 'az://lake/exports/', '--endpoint', azurite!.endpoint, '--interval', 'hourly', ...more];
    const first = await llmobs(args('--max-windows', '2'), { env, timeout: 120_000 });
    expect(first.exitCode, first.stderr).toBe(0);
    const rest = await llmobs(args('--json'), { env, timeout: 120_000 });
    expect(rest.exitCode, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({ startedFrom: 'manifest' });
    const read = await readExport(azurite!.store('lake'), 'exports/', PROJECT, readParquet);
    expectWholeExport(read, 'exports/');
    const last = read.manifests.at(-1)!.maxTimestamp as string;
    expectSameRows(read.rows.get('observations_v2')!, await reference(env, dir, last), 'parquet');
  });

  it('a wrong key is exit 7 and a missing container exit 3, before the server is asked anything', async () => {
    const { env } = await start();
    const wrong = await llmobs(['export', 'blob', 'az://lake/', '--endpoint', azurite!.endpoint], { env: { ...env, AZURE_STORAGE_KEY: Buffer.from('not the key').toString('base64') } });
    expect(wrong.exitCode, wrong.stderr).toBe(7);
    const missing = await llmobs(['export', 'blob', 'az://nowhere/', '--endpoint', azurite!.endpoint], { env });
    expect(missing.exitCode, missing.stderr).toBe(3);
    expect(missing.stderr).toContain('the container does not exist');
    const noKey = await llmobs(['export', 'blob', 'az://lake/', '--endpoint', azurite!.endpoint], { env: { ...env, AZURE_STORAGE_KEY: undefined } });
    expect(noKey.exitCode, noKey.stderr).toBe(3);
    expect(server!.requests).toHaveLength(0);
    expect(await azurite!.store('lake').list('')).toEqual([]);
  });
});

describe('the local server\'s blob storage integration, to Azure', { timeout: 180_000 }, () => {
  it('exports to the container that export integration set names, with the account\'s key', async () => {
    azurite = await startAzurite(['lake']);
    const process_ = startServerProcess(['--ephemeral', '--write-mode', 'dual'], isolatedEnv({ LLMOBS_BLOB_EXPORT_EVERY_MS: '300' }));
    try {
      const started = (await process_.ready) as Started & { organizationPublicKey: string; organizationSecretKey: string; project: { id: string } };
      const project = started.project.id;
      const orgEnv = isolatedEnv({ LANGFUSE_HOST: started.url, LANGFUSE_PUBLIC_KEY: started.organizationPublicKey, LANGFUSE_SECRET_KEY: started.organizationSecretKey });
      const first = Date.now() - 3 * 3_600_000;
      const batch = Array.from({ length: 20 }, (_, i) => {
        const at = new Date(first + i * 300_000).toISOString();
        return { id: `e-${i}`, type: 'span-create', timestamp: at, body: { id: `s-${i}`, traceId: 't-1', name: 'step', startTime: at, endTime: at } };
      });
      const ingested = await fetch(`${started.url}/api/public/ingestion`, { method: 'POST', headers: { authorization: basicHeader(started), 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
      expect(ingested.status).toBe(207);
      const set = await llmobs(['export', 'integration', 'set', project, '--type', 'AZURE_BLOB_STORAGE', '--bucket', 'lake', '--endpoint', azurite.endpoint, '--access-key-id', AZURITE_ACCOUNT.AZURE_STORAGE_ACCOUNT, '--secret-access-key-stdin', '--prefix', 'lf/', '--format', 'csv'], { env: orgEnv, input: AZURITE_ACCOUNT.AZURE_STORAGE_KEY });
      expect(set.exitCode, set.stderr).toBe(0);
      let status: Record<string, unknown> = {};
      for (let i = 0; i < 300 && status.syncStatus !== 'up_to_date' && status.syncStatus !== 'error'; i++) {
        await new Promise((r) => setTimeout(r, 200));
        status = JSON.parse((await llmobs(['export', 'integration', 'status', project, '--json'], { env: orgEnv })).stdout);
      }
      expect(status).toMatchObject({ syncStatus: 'up_to_date', lastError: null });
      const read = await readExport(azurite.store('lake'), 'lf/', project);
      expect(read.repeated.size).toBe(0);
      expect([...read.rows.get('observations_v2')!.keys()].sort()).toEqual(batch.map((e) => e.body.id).sort());
    } finally {
      process_.child.kill('SIGTERM');
      await process_.child;
    }
  });
});
