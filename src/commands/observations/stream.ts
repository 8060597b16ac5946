// Observations written as their pages arrive: by observations list --format (to stdout, or to an
// --output file that appears only whole) and by observations export to stdout. An export to a
// file, resumable, is export-file.ts's.
import type { ApiClient, Query } from '../../api/client.js';
import { FIRST_PAGE, observationPages, retryOptions } from '../../api/observations.js';
import type { Context } from '../../context.js';
import type { ExportRequest } from '../../core/observations/export-plan.js';
import { createWriter, type ItemWriter } from '../../core/observations/writer.js';
import type { AtomicStream } from '../../io/atomic.js';
import { openOutputFile } from '../../io/files.js';
import { countOf } from '../../output/format.js';
import { Meter } from './meter.js';

/**
 * Writes the pages of a listing to stdout, or to `output` (as given). Nothing is written before the
 * first answer, so a failing query prints no half document and leaves no file. How many were written.
 */
export async function writeListing(ctx: Context, pages: AsyncIterable<{ items: Record<string, unknown>[] }>, writer: ItemWriter, output: string | undefined): Promise<number> {
  // The file is opened with the first write and renamed into place when complete.
  let file: AtomicStream | undefined;
  const write = async (text: string) => {
    if (output === undefined) return ctx.out.writeChunk(text);
    file ??= await openOutputFile(ctx, output);
    await file.write(text);
  };
  let count = 0;
  let started = false;
  const begin = async () => {
    if (!started) await write(writer.header());
    started = true;
  };
  try {
    for await (const page of pages) {
      await begin();
      await write(writer.items(page.items, count));
      count += page.items.length;
    }
    await begin();
    await write(writer.footer(count));
    await file?.commit();
  } catch (error) {
    await file?.discard();
    throw error;
  }
  return count;
}

/** An export to stdout: every page as it arrives, with progress on stderr. */
export async function exportToStdout(ctx: Context, client: ApiClient, request: ExportRequest & { query: Query }): Promise<void> {
  const writer = createWriter(request.format, request.selection);
  const meter = new Meter(ctx, 0, 0);
  meter.announceRetries(client);
  await ctx.out.writeChunk(writer.header());
  let count = 0;
  try {
    const warn = (line: string) => {
      meter.clear();
      ctx.out.warn(line);
    };
    for await (const page of observationPages(client, request.query, FIRST_PAGE, { ...retryOptions(ctx), warn, max: request.max, pageSize: request.pageSize })) {
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
