// llmobs export blob: the project's observations to a folder or a bucket in the layout of
// Langfuse's scheduled blob-storage export, one window at a time, each committed by its manifest.
import { defineCommand } from '../define.js';
import { BLOB_FLAGS } from './blob-flags.js';


export default defineCommand({
  name: 'blob',
  summary: 'export observations to a folder, an S3 bucket or an Azure container in the layout of Langfuse\'s blob-storage export: a file per window and table, then a manifest; each run continues from the last manifest',
  args: [{ name: '<dest>', help: 'a folder (created if missing), s3://BUCKET/PREFIX/ or az://CONTAINER/PREFIX/' }],
  flags: [
    ...BLOB_FLAGS,
    { flags: '--max-windows <n>', help: 'write at most this many windows, then stop (the next run continues)' },
    { flags: '--page-size <n>', help: 'observations per request, 1 to 1000 (default 1000)' },
    { flags: '--dry-run', help: 'say which windows and keys a run would write, and write nothing' },
  ],
  notes: `
  Keys are Langfuse's: DEST/PROJECT/observations_v2/2026-05-01T01-00-00.parquet
  for the window ending then, and last DEST/PROJECT/manifests/<same>.json, which
  lists the run's files. A window runs from the end of the last manifest (or
  --from) for one --interval, never past now - 20 minutes. A run stopped before
  a manifest leaves no trace for readers; the next run writes the same keys.
  Columns are Langfuse's (trace_id, start_time ...), times in UTC as
  2026-05-01 12:00:00.123000, latency in seconds.
  S3 credentials come from the AWS SDK (AWS_ACCESS_KEY_ID and
  AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws); files are multipart uploads.
  Azure: AZURE_STORAGE_ACCOUNT and AZURE_STORAGE_KEY, or
  AZURE_STORAGE_CONNECTION_STRING.`,
  examples: [
    'llmobs export blob ./lake --from 2026-05-01 --interval weekly',
    'llmobs export blob ./lake --dry-run',
    'llmobs export blob ./costs --format csv --fields core,usage,model --from 7d --interval daily',
    'llmobs export blob s3://my-bucket/langfuse/ --region eu-west-1',
    'llmobs export blob s3://lake/ --endpoint http://localhost:9000 --force-path-style',
    'llmobs export blob az://lake/langfuse/',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ blobSetup }, { runBlobExport }, { printBlobRun }] = await Promise.all([import('./blob-setup.js'), import('./blob-run.js'), import('./blob-render.js')]);
    const setup = await blobSetup(ctx, given, args[0]);
    const target = await setup.open(!setup.options.dryRun);
    try {
      // The bucket is checked before the server is asked anything.
      await target.check();
      printBlobRun(ctx, await runBlobExport(ctx, await ctx.api(), target, setup.options));
    } finally {
      await target.close();
    }
  },
});
