// The export of the blob-storage integration configured through the server's API (PUT
// /api/public/integrations/blob-storage), run by `llmobs server` as Langfuse's worker runs it: when
// it is enabled and due (nextSyncAt passed, or never run), it writes the due windows to the
// integration's bucket with its own keys, then records lastSyncAt and nextSyncAt, or lastError.
// The bucket's last manifest says where to continue; a first run starts as its export mode says.
import type { ApiClient } from '../../api/client.js';
import type { Context } from '../../context.js';
import { INTERVALS } from '../../core/blob-export/layout.js';
import { GROUP_NAMES, type FieldGroup } from '../../core/observations/fields.js';
import { CliError } from '../../errors.js';
import type { RunningServer } from '../../server/index.js';
import { runBlobExport } from '../export/blob-run.js';

/** Runs the integration's export if it is due; says nothing otherwise. */
export async function runIntegrationIfDue(ctx: Context, client: ApiClient, server: RunningServer): Promise<void> {
  const found = server.blobIntegration();
  if (!found || !found.record.enabled) return;
  const { record, secret } = found;
  const now = ctx.now();
  if (record.nextSyncAt && Date.parse(record.nextSyncAt) > now.getTime()) return;
  const fail = (message: string) => server.updateBlobIntegration({ lastError: message, lastErrorAt: ctx.now().toISOString(), runStartedAt: null, nextSyncAt: new Date(ctx.now().getTime() + 60_000).toISOString() });
  if (record.exportSource !== 'EVENTS') return fail('this server exports the OBSERVATIONS_V2 source only');
  server.updateBlobIntegration({ runStartedAt: now.toISOString() });
  const shown = `s3://${record.bucketName}/${record.prefix}`;
  const parquet = record.fileType === 'PARQUET' ? await import('../../io/blob/parquet.js') : undefined;
  let target;
  try {
    // Azure as Langfuse configures it: the container in bucketName, the account's name and key in
    // accessKeyId and secretAccessKey, its URL in endpoint.
    target =
      record.type === 'AZURE_BLOB_STORAGE'
        ? (await import('../../io/blob/azure.js')).openAzureTarget({ container: record.bucketName, prefix: record.prefix }, `az://${record.bucketName}/${record.prefix}`, {
            endpoint: record.endpoint ?? undefined,
            env: { AZURE_STORAGE_ACCOUNT: record.accessKeyId ?? undefined, AZURE_STORAGE_KEY: secret ?? undefined },
          })
        : (await import('../../io/blob/s3.js')).openS3Target({ bucket: record.bucketName, prefix: record.prefix }, shown, {
            endpoint: record.endpoint ?? undefined,
            region: record.region,
            forcePathStyle: record.forcePathStyle,
            credentials: record.accessKeyId && secret ? { accessKeyId: record.accessKeyId, secretAccessKey: secret } : undefined,
          });
  } catch (error) {
    return fail((error as Error).message);
  }
  const groups = (record.exportFieldGroups ?? GROUP_NAMES).filter((g): g is FieldGroup => (GROUP_NAMES as readonly string[]).includes(g));
  try {
    await target.check();
    const result = await runBlobExport(ctx, client, target, {
      prefix: record.prefix,
      // As Langfuse's worker writes the enriched source: scores, then the events table.
      tables: ['scores', 'observations_v2'],
      type: record.fileType.toLowerCase() as 'parquet' | 'jsonl' | 'csv' | 'json',
      gzip: record.compressed,
      interval: record.exportFrequency,
      from: record.lastSyncAt ? new Date(record.lastSyncAt) : record.exportStartDate ? new Date(record.exportStartDate) : undefined,
      fromIfNew: true,
      selection: { groups: GROUP_NAMES.filter((g) => g === 'core' || groups.includes(g)), columns: null },
      dryRun: false,
      maxWindows: undefined,
      pageSize: 1000,
      quiet: true,
      parquet: parquet?.parquetEncoder,
    });
    const lastSyncAt = result.windows.at(-1)?.maxTimestamp ?? record.lastSyncAt ?? null;
    // Nothing to export yet: due again at the next tick, when the first observations may be there.
    const next = lastSyncAt ? new Date(Date.parse(lastSyncAt) + INTERVALS[record.exportFrequency]).toISOString() : null;
    server.updateBlobIntegration({ lastSyncAt, nextSyncAt: next, lastError: null, lastErrorAt: null, runStartedAt: null });
  } catch (error) {
    fail(error instanceof CliError ? error.message : (error as Error).message);
    ctx.out.warn(`blob storage integration: ${(error as Error).message}`);
  } finally {
    await target.close();
  }
}
