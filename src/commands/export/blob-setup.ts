// The options of a blob export, read and checked before anything is sent (by `export blob` and by
// `server --blob-export`), and the target they name: a folder, or a bucket through the AWS SDK
// (loaded only then).
import { z } from 'zod';
import { OBSERVATION_PAGE_LIMIT } from '../../api/observations.js';
import { INTERVAL_NAMES, type Table } from '../../core/blob-export/layout.js';
import { GROUP_NAMES, parseFields } from '../../core/observations/fields.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { openLocalTarget } from '../../io/blob/local.js';
import type { BlobTarget } from '../../io/blob/target.js';
import { parseOptions } from '../options.js';
import { timeOption, wholeNumber } from '../observations/filters.js';
import type { BlobExportOptions } from './blob-run.js';

export interface BlobSetup {
  dest: string;
  options: BlobExportOptions;
  /** Opens the target (a folder is locked while `lock`). */
  open(lock: boolean): Promise<BlobTarget>;
}

/** `given`: the parsed flags, `dest` the destination (argument or --blob-export). */
export async function blobSetup(ctx: Context, given: Record<string, unknown>, dest: unknown): Promise<BlobSetup> {
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
    { ...given, dest },
  );
  const interval = INTERVAL_NAMES[opts.interval];
  if (!interval) throw new UsageError(`--interval must be 20m, hourly, daily or weekly, not ${JSON.stringify(opts.interval)}`);
  const tables = [...new Set(opts.tables.split(',').map((t) => t.trim()).filter(Boolean))];
  const unknown = tables.filter((t) => t !== 'observations_v2' && t !== 'scores');
  if (tables.length === 0 || unknown.length) {
    throw new UsageError(`--tables: ${unknown.length ? `${unknown.join(', ')} cannot be exported` : 'empty'}; llmobs exports observations_v2 and scores`, { hint: 'The legacy traces and observations tables are not exported.' });
  }
  const fields = parseFields(opts.fields, GROUP_NAMES);
  if (!fields.ok) throw new UsageError(`--fields: ${fields.message}`);
  const s3 = opts.dest.startsWith('s3://');
  const azure = opts.dest.startsWith('az://');
  if (!s3 && !azure && /^[a-z][a-z0-9+.-]*:\/\//i.test(opts.dest)) throw new UsageError(`${opts.dest}: DEST is a folder, s3://BUCKET/PREFIX/ or az://CONTAINER/PREFIX/`);
  if (!s3 && !azure && (opts.endpoint || opts.region || opts.forcePathStyle)) throw new UsageError('--endpoint, --region and --force-path-style are for an s3:// destination (--endpoint also for az://)');
  if (azure && (opts.region || opts.forcePathStyle)) throw new UsageError('--region and --force-path-style are for an s3:// destination');
  let prefix = '';
  let open: (lock: boolean) => Promise<BlobTarget> = (lock) => openLocalTarget(ctx.cwd, opts.dest, { lock });
  if (s3) {
    const { openS3Target, parseS3Url } = await import('../../io/blob/s3.js');
    const location = parseS3Url(opts.dest);
    if ('error' in location) throw new UsageError(`${opts.dest}: ${location.error}`);
    prefix = location.prefix;
    open = async () => openS3Target(location, opts.dest, { endpoint: opts.endpoint, region: opts.region, forcePathStyle: opts.forcePathStyle });
  }
  if (azure) {
    const { openAzureTarget, parseAzureUrl } = await import('../../io/blob/azure.js');
    const location = parseAzureUrl(opts.dest);
    if ('error' in location) throw new UsageError(`${opts.dest}: ${location.error}`);
    prefix = location.prefix;
    open = async () => openAzureTarget(location, opts.dest, { endpoint: opts.endpoint, env: ctx.env });
  }
  return {
    dest: opts.dest,
    open,
    options: {
      prefix,
      tables: tables as Table[],
      type: opts.format,
      gzip: opts.gzip,
      interval,
      from: opts.from,
      selection: fields.selection,
      dryRun: opts.dryRun,
      maxWindows: opts.maxWindows,
      pageSize: opts.pageSize ?? OBSERVATION_PAGE_LIMIT,
      parquet: opts.format === 'parquet' ? (await import('../../io/blob/parquet.js')).parquetEncoder : undefined,
    },
  };
}
