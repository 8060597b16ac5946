// `llmobs observations export`: every observation that matches, page by page (v2 cursor API,
// pages of up to 1,000), to a file or stdout. Memory holds one page at a time. Writing to a file,
// each page is written and synced before the checkpoint beside the file moves past it; after a
// failure or Ctrl-C, `--resume` cuts the file back to the last checkpoint and continues from its
// cursor, so no line is lost and none is written twice.
import { resolve } from 'node:path';
import { z } from 'zod';
import type { ApiClient, Query } from '../../api/client.js';
import { OBSERVATION_PAGE_LIMIT, observationPages } from '../../api/observations.js';
import type { Context } from '../../context.js';
import { GROUP_NAMES, groupColumns, parseFields, type FieldGroup, type FieldSelection } from '../../core/observations/fields.js';
import { UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { type Checkpoint, checkpointPath, identityOf, readCheckpoint } from './checkpoint.js';
import { exportToFile } from './export-file.js';
import { checkWindow, filterShape, observationQuery, wholeNumber } from './filters.js';
import { Meter } from './meter.js';
import { createWriter, FORMATS, type Format, formatOfFile } from './writer.js';
import { countOf } from '../../output/format.js';

export const EXPORT_GROUPS: readonly FieldGroup[] = GROUP_NAMES;

function options(now: Date) {
  return z
    .object({
      ...filterShape(now),
      fields: z.array(z.string()).optional(),
      format: z.enum(FORMATS, { error: `must be one of ${FORMATS.join(', ')}` }).optional(),
      output: z.string().min(1, 'must not be empty').optional(),
      limit: wholeNumber(1).optional(),
      pageSize: wholeNumber(1, OBSERVATION_PAGE_LIMIT).optional(),
      expandMetadata: z.string().min(1).optional(),
      resume: z.boolean().default(false),
      force: z.boolean().default(false),
    })
    .superRefine(checkWindow);
}

type Options = z.infer<ReturnType<typeof options>>;

/** The options that decide what is exported (a resume must not change them). */
const QUERY_OPTIONS = ['type', 'name', 'trace', 'user', 'session', 'environment', 'level', 'version', 'from', 'to', 'fields', 'format', 'limit', 'pageSize', 'expandMetadata'] as const;

export default async function action(ctx: Context, { opts }: ActionInput): Promise<void> {
  await run(ctx, parseOptions(options(ctx.now()), opts));
}

interface Plan {
  format: Format;
  selection: FieldSelection;
  query: Query;
  max: number | undefined;
  pageSize: number;
}

function plan(opts: Options): Plan {
  const fields = parseFields(opts.fields, EXPORT_GROUPS);
  if (!fields.ok) throw new UsageError(`--fields: ${fields.message}`);
  const format = opts.format ?? (opts.output && opts.output !== '-' ? formatOfFile(opts.output) : undefined) ?? 'jsonl';
  const query: Query = { ...observationQuery(opts), fields: fields.selection.groups.join(','), expandMetadata: opts.expandMetadata };
  return { format, selection: fields.selection, query, max: opts.limit, pageSize: opts.pageSize ?? OBSERVATION_PAGE_LIMIT };
}

/** The query as the checkpoint keeps it: only the parameters that are set, as strings. */
function storedQuery(query: Query): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    out[key] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return out;
}

export async function run(ctx: Context, opts: Options): Promise<void> {
  if (opts.resume && opts.force) throw new UsageError('--resume continues an export and --force starts it over: use one');
  const toFile = opts.output !== undefined && opts.output !== '-';
  if (opts.resume && !toFile) throw new UsageError('--resume needs --output FILE: only an export to a file keeps a checkpoint');
  const given = QUERY_OPTIONS.filter((key) => opts[key] !== undefined);
  const wanted = plan(opts);

  if (!toFile) {
    const client = await ctx.api();
    await toStdout(ctx, client, wanted);
    return;
  }
  const output = resolve(ctx.cwd, opts.output!);
  const cpPath = checkpointPath(output);
  const existing = await readCheckpoint(cpPath);
  const client = await ctx.api();
  const identity = identityOf(client.baseUrl, client.config.auth.type === 'basic' ? client.config.auth.publicKey : client.config.auth.type);

  if (opts.resume) {
    if (!existing) throw new UsageError(`nothing to resume: ${opts.output} has no checkpoint (${cpPath}); the export finished or never started`);
    if (existing.identity !== identity) {
      throw new UsageError(`the checkpoint of ${opts.output} was made with another server or key (${existing.baseUrl})`, { hint: 'Resume with the same profile (or --base-url and keys) as the export that was interrupted, or start over with --force.' });
    }
    const differences = given.length ? differencesFrom(existing, wanted) : [];
    if (differences.length) {
      throw new UsageError(`--resume continues the export as it was started; these options differ: ${differences.join(', ')}`, { hint: `Resume with only: llmobs observations export --output ${opts.output} --resume` });
    }
    await exportToFile(ctx, client, output, opts.output!, existing, true);
    return;
  }
  if (existing && !opts.force) {
    throw new UsageError(`${opts.output} holds an unfinished export (${countOf(existing.items, 'observation')} so far)`, {
      hint: `Continue it with: llmobs observations export --output ${opts.output} --resume   (or start over with --force)`,
    });
  }
  const now = ctx.now().toISOString();
  const checkpoint: Checkpoint = {
    version: 1,
    kind: 'observations-export',
    identity,
    baseUrl: client.baseUrl,
    format: wanted.format,
    query: storedQuery(wanted.query),
    columns: wanted.format === 'csv' ? createCsvColumns(wanted.selection) : wanted.selection.columns,
    max: wanted.max ?? null,
    pageSize: wanted.pageSize,
    cursor: null,
    items: 0,
    pages: 0,
    bytes: 0,
    complete: false,
    startedAt: now,
    updatedAt: now,
  };
  await exportToFile(ctx, client, output, opts.output!, checkpoint, false);
}

function createCsvColumns(selection: FieldSelection): string[] {
  return selection.columns ?? groupColumns(selection.groups);
}

function differencesFrom(cp: Checkpoint, wanted: Plan): string[] {
  const out: string[] = [];
  const a = storedQuery(wanted.query);
  for (const key of new Set([...Object.keys(a), ...Object.keys(cp.query)])) {
    if (JSON.stringify(a[key]) !== JSON.stringify(cp.query[key])) out.push(`${key} (${JSON.stringify(cp.query[key] ?? null)} then, ${JSON.stringify(a[key] ?? null)} now)`);
  }
  if (wanted.format !== cp.format) out.push(`format (${cp.format} then, ${wanted.format} now)`);
  if ((wanted.max ?? null) !== cp.max) out.push(`limit (${cp.max ?? 'none'} then, ${wanted.max ?? 'none'} now)`);
  const columns = wanted.format === 'csv' ? createCsvColumns(wanted.selection) : wanted.selection.columns;
  if (JSON.stringify(columns) !== JSON.stringify(cp.columns)) out.push('fields');
  if (wanted.pageSize !== cp.pageSize) out.push(`page size (${cp.pageSize} then, ${wanted.pageSize} now)`);
  return out;
}

function pageOptions(ctx: Context) {
  return { retries: ctx.globals.retries, sleep: ctx.sleep, trace: (line: string) => ctx.trace(line) };
}

async function toStdout(ctx: Context, client: ApiClient, wanted: Plan): Promise<void> {
  const writer = createWriter(wanted.format, wanted.selection);
  const meter = new Meter(ctx, 0, 0);
  meter.announceRetries(client);
  await ctx.out.writeChunk(writer.header());
  let count = 0;
  try {
    for await (const page of observationPages(client, wanted.query, { cursor: null, items: 0, pages: 0 }, { ...pageOptions(ctx), max: wanted.max, pageSize: wanted.pageSize })) {
      await ctx.out.writeChunk(writer.items(page.items, count));
      count += page.items.length;
      meter.page(page.items.length);
    }
  } finally {
    meter.clear();
  }
  await ctx.out.writeChunk(writer.footer(count));
  meter.done(`Exported ${countOf(count, 'observation')}`);
}
