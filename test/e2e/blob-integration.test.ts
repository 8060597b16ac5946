// The blob-storage integration routes of `llmobs server` as Langfuse answers them, configured with
// `llmobs export integration` and its organization key, and the export the server then runs to a
// real S3-compatible server (s3rver), read back by a consumer of Langfuse's manifests.
import { afterEach, describe, expect, it } from 'vitest';
import { llmobs } from '../helpers/bin.js';
import { readExport } from '../helpers/blob-reader.js';
import { isolatedEnv } from '../helpers/cli.js';
import { type S3Server, startS3Server } from '../helpers/s3-server.js';
import { basicHeader, type ServerProcess, type Started, startServerProcess } from '../helpers/server-process.js';

type StartedWithOrg = Started & { organizationPublicKey: string; organizationSecretKey: string; project: { id: string } };
let server: ServerProcess | undefined;
let s3: S3Server | undefined;

afterEach(async () => {
  server?.child.kill('SIGTERM');
  await server?.child;
  await s3?.close();
  server = undefined;
  s3 = undefined;
});

async function start() {
  server = startServerProcess(['--ephemeral', '--write-mode', 'dual'], isolatedEnv({ LLMOBS_BLOB_EXPORT_EVERY_MS: '300' }));
  const started = (await server.ready) as StartedWithOrg;
  const org = `Basic ${Buffer.from(`${started.organizationPublicKey}:${started.organizationSecretKey}`).toString('base64')}`;
  const call = async (method: string, path: string, auth: string, body?: unknown) => {
    const response = await fetch(`${started.url}${path}`, { method, headers: { authorization: auth, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const orgEnv = isolatedEnv({ LANGFUSE_HOST: started.url, LANGFUSE_PUBLIC_KEY: started.organizationPublicKey, LANGFUSE_SECRET_KEY: started.organizationSecretKey });
  return { started, org, call, orgEnv };
}

const ROUTE = '/api/public/integrations/blob-storage';

describe('blob storage integration routes', { timeout: 120_000 }, () => {
  it('take the organization key only, and validate a PUT as Langfuse does', async () => {
    const { started, org, call } = await start();
    expect(await call('GET', ROUTE, basicHeader(started))).toEqual({ status: 403, body: { message: 'Organization-scoped API key required for this operation.', error: 'ForbiddenError' } });
    expect(await call('GET', ROUTE, org)).toEqual({ status: 200, body: { data: [] } });
    expect((await call('GET', '/api/public/v2/observations', org)).status).toBe(403);
    const valid = { projectId: started.project.id, type: 'S3_COMPATIBLE', bucketName: 'lake', endpoint: 'http://127.0.0.1:9', region: 'auto', accessKeyId: 'id', secretAccessKey: 'secret-never-shown', prefix: 'lf/', exportFrequency: 'hourly', enabled: false, forcePathStyle: true, fileType: 'JSONL', exportMode: 'FULL_HISTORY' };
    for (const bad of [{ ...valid, prefix: 'no-slash' }, { ...valid, extra: 1 }, { ...valid, exportMode: 'FROM_CUSTOM_DATE' }, { ...valid, exportFieldGroups: ['io'] }, { ...valid, exportSource: 'OBSERVATIONS_V2', exportFieldGroups: ['io'] }]) {
      const answer = await call('PUT', ROUTE, org, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.message).toBe('Invalid request data');
    }
    expect((await call('PUT', ROUTE, org, { ...valid, secretAccessKey: undefined })).body).toEqual({ message: 'Secret access key is required for new configuration', error: 'InvalidRequestError' });
    expect((await call('PUT', ROUTE, org, { ...valid, projectId: 'other' })).status).toBe(404);
    const put = await call('PUT', ROUTE, org, valid);
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ id: started.project.id, exportSource: 'OBSERVATIONS_V2', compressed: true, exportFieldGroups: null, lastSyncAt: null });
    expect(JSON.stringify(put.body)).not.toContain('secret-never-shown');
    expect(Object.keys(put.body)).toEqual(['id', 'projectId', 'type', 'bucketName', 'endpoint', 'region', 'accessKeyId', 'prefix', 'exportFrequency', 'enabled', 'forcePathStyle', 'fileType', 'exportMode', 'exportStartDate', 'compressed', 'exportSource', 'exportFieldGroups', 'nextSyncAt', 'lastSyncAt', 'lastError', 'lastErrorAt', 'createdAt', 'updatedAt']);
    expect((await call('GET', `${ROUTE}/${started.project.id}`, org)).body).toMatchObject({ syncStatus: 'disabled', enabled: false });
    expect((await call('GET', `${ROUTE}/nope`, org)).body).toEqual({ message: 'Blob storage integration not found', error: 'LangfuseNotFoundError' });
    expect((await call('DELETE', `${ROUTE}/${started.project.id}`, org)).body).toEqual({ message: 'Blob storage integration successfully deleted' });
    expect((await call('GET', ROUTE, org)).body).toEqual({ data: [] });
  });

  it('llmobs export integration set configures the export that the server then runs to the bucket', async () => {
    const { started, orgEnv, call, org } = await start();
    s3 = await startS3Server(['lake']);
    const project = started.project.id;
    const set = await llmobs(['export', 'integration', 'set', project, '--bucket', 'lake', '--endpoint', s3.endpoint, '--force-path-style', '--access-key-id', 'S3RVER', '--secret-access-key-stdin', '--prefix', 'lf/', '--interval', 'hourly', '--format', 'jsonl'], { env: orgEnv, input: 'store-secret-4242' });
    expect(set.exitCode, set.stderr).toBe(0);
    expect(set.stderr).toContain(`Blob storage export of ${project} set: JSONL to lake/lf/, hourly`);
    // Thirty spans, two to three hours ago.
    const first = Date.now() - 3 * 3_600_000;
    const batch = Array.from({ length: 30 }, (_, i) => {
      const at = new Date(first + i * 120_000).toISOString();
      return { id: `e-${i}`, type: 'span-create', timestamp: at, body: { id: `s-${i}`, traceId: 't-1', name: 'step', startTime: at, endTime: at } };
    });
    const ingested = await fetch(`${started.url}/api/public/ingestion`, { method: 'POST', headers: { authorization: basicHeader(started), 'content-type': 'application/json' }, body: JSON.stringify({ batch }) });
    expect(ingested.status).toBe(207);
    // The first run may have found nothing yet; the integration is due again a minute later at most.
    for (let i = 0; i < 300; i++) {
      const now = (await call('GET', `${ROUTE}/${project}`, org)).body;
      if (now.syncStatus === 'up_to_date' || now.syncStatus === 'error') break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const status = JSON.parse((await llmobs(['export', 'integration', 'status', project, '--json'], { env: orgEnv })).stdout);
    expect(status).toMatchObject({ syncStatus: 'up_to_date', enabled: true, lastError: null });
    const read = await readExport(s3.store('lake'), 'lf/', project);
    expect(read.repeated.size).toBe(0);
    expect([...read.rows.get('observations_v2')!.keys()].sort()).toEqual(batch.map((e) => e.body.id).sort());
    const listed = await llmobs(['export', 'integration', 'get', '--json'], { env: orgEnv });
    expect(JSON.parse(listed.stdout)).toMatchObject([{ projectId: project, bucketName: 'lake', prefix: 'lf/', fileType: 'JSONL' }]);
    expect(listed.stdout + set.stdout + set.stderr).not.toContain('store-secret-4242');
    const removed = await llmobs(['export', 'integration', 'delete', project, '--yes'], { env: orgEnv });
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect((await llmobs(['export', 'integration', 'status', project], { env: orgEnv })).exitCode).toBe(8);
  });

  it('a project key is refused with exit 7 and a hint, and bad input before any request', async () => {
    const { started, orgEnv } = await start();
    const projectEnv = { ...orgEnv, LANGFUSE_PUBLIC_KEY: started.publicKey, LANGFUSE_SECRET_KEY: started.secretKey };
    const refused = await llmobs(['export', 'integration', 'get'], { env: projectEnv });
    expect(refused.exitCode).toBe(7);
    expect(refused.stderr).toContain('organization-scoped API key');
    for (const args of [['status'], ['set', 'p'], ['delete', 'p'], ['set', 'p', '--bucket', 'b', '--prefix', 'x'], ['frobnicate']]) {
      expect((await llmobs(['export', 'integration', ...args], { env: orgEnv })).exitCode, args.join(' ')).toBe(2);
    }
  });
});
