// Observations written as their pages arrive: by observations list --format (to stdout, or to an
// --output file that appears only whole) and by observations export to stdout. An export to a
// file, resumable, is export-file.ts's.
import type { ApiClient, Query } from '../../api/client.js';
import { routedObservationPages } from '../../api/observation-routes.js';
import { FIRST_PAGE, retryOptions } from '../../api/observations.js';
import type { Context } from '../../context.js';
import type { ExportRequest } from '../../core/observations/export-plan.js';
import { type FieldSelection, FIELD_GROUPS } from '../../core/observations/fields.js';
import { V1_MISSING_FIELDS } from '../../core/observations/v1-as-v2.js';
import { createWriter, type ItemWriter } from '../../core/observations/writer.js';
import type { AtomicStream } from '../../io/atomic.js';
import type { OutputClaim } from '../../io/files.js';
import { countOf } from '../../output/format.js';
import { Meter } from './meter.js';

/**
 * Writes the pages of a listing to stdout, or to the `output` file (its lock held since before the
 * first request). Nothing is written before the first answer, so a failing query prints no half
 * document and leaves no file. How many were written.
 */
export async function writeListing(ctx: Context, pages: AsyncIterable<{ items: Record<string, unknown>[] }>, writer: ItemWriter, output: OutputClaim | undefined): Promise<number> {
  // The file is opened with the first write and renamed into place when complete.
  let file: AtomicStream | undefined;
  const write = async (text: string) => {
    if (output === undefined) return ctx.out.writeChunk(text);
    file ??= await output.open();
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
    const onRoute = (route: 'v2' | 'v1') => {
      meter.clear();
      noteRoute(ctx, route, request.selection);
    };
    for await (const page of routedObservationPages(ctx, client, request.query, FIRST_PAGE, { ...retryOptions(ctx), warn, onRoute, max: request.max, pageSize: request.pageSize })) {
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

/**
 * Said once when a listing reads the v1 list (a Langfuse deployment in the legacy write mode):
 * the fields it cannot give, when some of them are written.
 */
export function noteRoute(ctx: Context, route: 'v2' | 'v1', selection: FieldSelection): void {
  if (route !== 'v1') return;
  const written = selection.columns ?? selection.groups.flatMap((group) => [...FIELD_GROUPS[group]]);
  const missing = V1_MISSING_FIELDS.filter((field) => written.some((column) => column === field || column.startsWith(`${field}.`)));
  ctx.out.hint(`Read from the v1 observations API (this server has no v2 observations: Langfuse's legacy write mode)${missing.length ? `; it does not give ${missing.join(', ')}, written as null (tags as [])` : ''}.`);
}
