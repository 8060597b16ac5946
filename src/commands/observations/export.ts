// `llmobs observations export`: every observation that matches, page by page (v2 cursor API,
// pages of up to 1,000), to a file or stdout. Memory holds one page at a time. Writing to a file,
// each page is written and synced before the checkpoint beside the file moves past it; after a
// failure or Ctrl-C, `--resume` cuts the file back to the last checkpoint and continues from its
// cursor, so no line is lost and none is written twice.
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import type { ApiClient, Query } from '../../api/client.js';
import { OBSERVATION_PAGE_LIMIT, observationPages, type WalkState } from '../../api/observations.js';
import type { Context } from '../../context.js';
import { GROUP_NAMES, groupColumns, parseFields, type FieldGroup, type FieldSelection } from '../../core/observations/fields.js';
import { CliError, FileError, UsageError } from '../../errors.js';
import type { ActionInput } from '../action.js';
import { parseOptions } from '../options.js';
import { type Checkpoint, checkpointPath, identityOf, readCheckpoint, removeCheckpoint, writeCheckpoint } from './checkpoint.js';
import { checkWindow, filterShape, observationQuery, wholeNumber } from './filters.js';
import { INTERRUPTED, watchInterruption } from './interrupt.js';
import { Meter } from './meter.js';
import { createWriter, FORMATS, type Format, formatOfFile, type ItemWriter } from './writer.js';

const CHECKPOINT_EVERY_MS = 1_000;

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
    throw new UsageError(`${opts.output} holds an unfinished export (${existing.items.toLocaleString('en-US')} observations so far)`, {
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

function writerFor(cp: Checkpoint): ItemWriter {
  const groups = String(cp.query.fields ?? 'core').split(',') as FieldGroup[];
  return createWriter(cp.format, { groups, columns: cp.columns });
}

function pageOptions(ctx: Context) {
  return { retries: ctx.globals.retries, sleep: ctx.sleep, trace: (line: string) => ctx.trace(line) };
}

async function exportToFile(ctx: Context, client: ApiClient, output: string, shown: string, start: Checkpoint, resuming: boolean): Promise<void> {
  const cpPath = checkpointPath(output);
  const writer = writerFor(start);
  const meter = new Meter(ctx, resuming ? start.items : 0, resuming ? start.pages : 0);
  const cp: Checkpoint = { ...start };
  const resumeHint = `Continue with: llmobs observations export --output ${shown} --resume`;
  let handle: Awaited<ReturnType<typeof open>> | undefined;

  const openOutput = async () => {
    try {
      if (resuming) {
        handle = await open(output, 'r+');
        const { size } = await handle.stat();
        if (size < cp.bytes) {
          throw new FileError(`${shown} is shorter (${size} bytes) than its checkpoint says (${cp.bytes} bytes): it was changed since the export stopped`, { hint: 'Start over with --force.' });
        }
        // Whatever follows the last checkpoint is a page that was not finished: it is written again.
        await handle.truncate(cp.bytes);
      } else {
        handle = await open(output, 'w', 0o644);
        const header = Buffer.from(writer.header());
        await handle.write(header, 0, header.length, 0);
        await handle.datasync();
        cp.bytes = header.length;
      }
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new FileError(`cannot write ${shown}: ${(error as Error).message}`);
    }
    await writeCheckpoint(cpPath, cp);
  };

  const append = async (text: string) => {
    const bytes = Buffer.from(text);
    let at = 0;
    while (at < bytes.length) {
      const { bytesWritten } = await handle!.write(bytes, at, bytes.length - at, cp.bytes + at);
      at += bytesWritten;
    }
    cp.bytes += bytes.length;
  };

  // The checkpoint moves past pages only once they are on disk. Syncing costs milliseconds, so it
  // is done about once a second (and when the export stops): a crash in between costs at most
  // that second's pages, which --resume cuts off and asks for again.
  let lastDurable = performance.now();
  let dirty = false;
  const persist = async () => {
    await handle!.datasync();
    cp.updatedAt = ctx.now().toISOString();
    await writeCheckpoint(cpPath, cp);
    lastDurable = performance.now();
    dirty = false;
  };

  const interruption = watchInterruption((name) => {
    meter.clear();
    ctx.out.info(`${name}: stopping once the page in flight is answered; what is written stays (Ctrl-C again quits at once, --resume continues)`);
  });
  try {
    if (resuming) await openOutput();
    if (!cp.complete) {
      const state: WalkState = { cursor: cp.cursor, items: cp.items, pages: cp.pages };
      const query = { ...cp.query } as Query;
      const pages = observationPages(client, query, state, { ...pageOptions(ctx), max: cp.max ?? undefined, pageSize: cp.pageSize })[Symbol.asyncIterator]();
      for (;;) {
        const next = await interruption.race(pages.next());
        if (next === INTERRUPTED) break;
        if (next.done) break;
        const page = next.value;
        // The first answer arrives before the output is touched: a failing query replaces nothing.
        if (!handle) await openOutput();
        try {
          await append(writer.items(page.items, cp.items));
        } catch (error) {
          throw new FileError(`cannot write ${shown}: ${(error as Error).message}`, { hint: resumeHint });
        }
        cp.cursor = page.state.cursor;
        cp.items = page.state.items;
        cp.pages = page.state.pages;
        cp.complete = page.last;
        dirty = true;
        if (page.last || performance.now() - lastDurable >= CHECKPOINT_EVERY_MS) await persist();
        meter.page(page.items.length);
        if (interruption.interrupted || page.last) break;
      }
    }
    if (dirty) await persist();
    if (interruption.interrupted) {
      throw new CliError(`interrupted (${interruption.name}): ${cp.items.toLocaleString('en-US')} observations in ${shown} so far`, 130, 'interrupted', { hint: resumeHint });
    }
    if (!handle) await openOutput(); // nothing matched: the file still gets its header and footer
    await append(writer.footer(cp.items));
    await handle!.datasync();
    await handle!.close();
    handle = undefined;
    await removeCheckpoint(cpPath);
  } catch (error) {
    meter.clear();
    // Keep what was written before the failure (the checkpoint describes only whole pages).
    if (dirty && handle) await persist().catch(() => {});
    if (error instanceof CliError && error.code !== 'interrupted' && handle) {
      error.hint = `${error.hint ? `${error.hint}\n` : ''}${cp.items.toLocaleString('en-US')} observations are in ${shown}. ${resumeHint}`;
    }
    throw error;
  } finally {
    interruption.dispose();
    await handle?.close().catch(() => {});
  }
  meter.done(`${resuming ? 'Resumed and finished' : 'Exported'} ${cp.items.toLocaleString('en-US')} observations (${cp.pages} pages) to ${shown}`);
  if (ctx.globals.json) {
    ctx.out.printJson({ output: output, format: cp.format, items: cp.items, pages: cp.pages, resumed: resuming, seconds: meter.seconds() });
  }
}

async function toStdout(ctx: Context, client: ApiClient, wanted: Plan): Promise<void> {
  const writer = createWriter(wanted.format, wanted.selection);
  const meter = new Meter(ctx, 0, 0);
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
  meter.done(`Exported ${count.toLocaleString('en-US')} observations`);
}
