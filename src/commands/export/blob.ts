// llmobs export blob: the project's observations to a folder or a bucket in the layout of
// Langfuse's scheduled blob-storage export, one window at a time, each committed by its manifest.
import { UsageError } from '../../errors.js';
import { parseOptions } from '../options.js';
import { defineCommand } from '../define.js';

export const BLOB_FLAGS = [
  { flags: '--format <format>', help: 'parquet (default, as Langfuse), jsonl, csv or json', choices: ['parquet', 'jsonl', 'csv', 'json'] },
  { flags: '--no-gzip', help: 'write the text formats uncompressed (default: gzip, .gz keys)' },
  { flags: '--interval <interval>', help: 'the window of each file: 20m, hourly (default), daily or weekly', choices: ['20m', 'hourly', 'daily', 'weekly'] },
  { flags: '--from <time>', help: 'where a first export starts (default: the project\'s first observation)' },
  { flags: '--fields <list>', help: 'field groups (core, basic, time, io, metadata, model, usage, prompt, metrics, trace_context) or fields, as in observations export (default: every group)', repeatable: true },
  { flags: '--tables <list>', help: 'the tables to write (default and only one so far: observations_v2)' },
  { flags: '--endpoint <url>', help: 'an S3-compatible store\'s endpoint (R2, MinIO, GCS with HMAC keys); default: AWS' },
  { flags: '--region <region>', help: 'the bucket\'s region (default: the AWS SDK\'s, or auto with --endpoint)' },
  { flags: '--force-path-style', help: 'address the bucket in the path (https://host/bucket/key), as MinIO needs' },
] as const;

export default defineCommand({
  name: 'blob',
  summary: 'export observations to a folder or an S3 bucket in the layout of Langfuse\'s blob-storage export: a file per window and table, then a manifest; each run continues from the last manifest',
  args: [{ name: '<dest>', help: 'a folder (created if missing) or s3://BUCKET/PREFIX/' }],
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
  AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ~/.aws); files are multipart uploads.`,
  examples: [
    'llmobs export blob ./lake --from 2026-05-01 --interval daily',
    'llmobs export blob ./lake --dry-run',
    'llmobs export blob ./lake --format csv --fields core,usage,model',
    'llmobs export blob s3://my-bucket/langfuse/ --region eu-west-1',
    'llmobs export blob s3://lake/ --endpoint http://localhost:9000 --force-path-style',
  ],
  async run(ctx, { args, opts: given }) {
    const [{ z }, { OBSERVATION_PAGE_LIMIT }, { GROUP_NAMES, parseFields }, { INTERVAL_NAMES }, { timeOption, wholeNumber }, { runBlobExport }, { openLocalTarget }, { printBlobRun }] = await Promise.all([
      import('zod'),
      import('../../api/observations.js'),
      import('../../core/observations/fields.js'),
      import('../../core/blob-export/layout.js'),
      import('../observations/filters.js'),
      import('./blob-run.js'),
      import('../../io/blob/local.js'),
      import('./blob-render.js'),
    ]);
    const opts = parseOptions(
      z.object({
        dest: z.string().min(1, 'must not be empty'),
        format: z.enum(['parquet', 'jsonl', 'csv', 'json']).default('parquet'),
        gzip: z.boolean().default(true),
        interval: z.string().default('hourly'),
        from: timeOption(ctx.now()).optional(),
        fields: z.array(z.string()).optional(),
        tables: z.string().default('observations_v2'),
        maxWindows: wholeNumber(1).optional(),
        pageSize: wholeNumber(1, OBSERVATION_PAGE_LIMIT).optional(),
        dryRun: z.boolean().default(false),
        endpoint: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
        region: z.string().regex(/^[a-z0-9-]+$/, 'must be a region name such as eu-west-1 or auto').optional(),
        forcePathStyle: z.boolean().default(false),
      }),
      { ...given, dest: args[0] },
    );
    const interval = INTERVAL_NAMES[opts.interval];
    if (!interval) throw new UsageError(`--interval must be 20m, hourly, daily or weekly, not ${JSON.stringify(opts.interval)}`);
    const tables = [...new Set(opts.tables.split(',').map((t) => t.trim()).filter(Boolean))];
    const unknown = tables.filter((t) => t !== 'observations_v2');
    if (tables.length === 0 || unknown.length) {
      throw new UsageError(`--tables: ${unknown.length ? `${unknown.join(', ')} cannot be exported` : 'empty'}; the table llmobs exports is observations_v2`, { hint: 'Scores and the legacy traces and observations tables are not exported yet.' });
    }
    const fields = parseFields(opts.fields, GROUP_NAMES);
    if (!fields.ok) throw new UsageError(`--fields: ${fields.message}`);
    const s3 = opts.dest.startsWith('s3://');
    if (!s3 && /^[a-z][a-z0-9+.-]*:\/\//i.test(opts.dest)) throw new UsageError(`${opts.dest}: DEST is a folder or s3://BUCKET/PREFIX/`);
    if (!s3 && (opts.endpoint || opts.region || opts.forcePathStyle)) throw new UsageError('--endpoint, --region and --force-path-style are for an s3:// destination');
    let prefix = '';
    let target;
    if (s3) {
      const { openS3Target, parseS3Url } = await import('../../io/blob/s3.js');
      const location = parseS3Url(opts.dest);
      if ('error' in location) throw new UsageError(`${opts.dest}: ${location.error}`);
      prefix = location.prefix;
      target = openS3Target(location, opts.dest, { endpoint: opts.endpoint, region: opts.region, forcePathStyle: opts.forcePathStyle });
    } else {
      target = await openLocalTarget(ctx.cwd, opts.dest, { lock: !opts.dryRun });
    }
    try {
      const result = await runBlobExport(ctx, target, {
        prefix,
        tables: tables as ['observations_v2'],
        type: opts.format,
        gzip: opts.gzip,
        interval,
        from: opts.from,
        selection: fields.selection,
        dryRun: opts.dryRun,
        maxWindows: opts.maxWindows,
        pageSize: opts.pageSize ?? OBSERVATION_PAGE_LIMIT,
        parquet: opts.format === 'parquet' ? (await import('../../io/blob/parquet.js')).parquetEncoder : undefined,
      });
      printBlobRun(ctx, result);
    } finally {
      await target.close();
    }
  },
});
