// Writing an export to a file, page by page, with the checkpoint beside it that makes it
// resumable (see checkpoint.ts): a new export creates the file once the first page has arrived;
// a resumed one cuts the file back to the checkpoint's length and continues from its cursor, and
// only when it asks for what the interrupted one asked for, from the same server and key. The
// lock beside the file (FILE.llmobs-lock) keeps a second run off it while one runs.
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ApiClient, Query } from '../../api/client.js';
import { routedObservationPages } from '../../api/observation-routes.js';
import { retryOptions, type WalkState } from '../../api/observations.js';
import type { Context } from '../../context.js';
import { differencesFrom, type ExportRequest } from '../../core/observations/export-plan.js';
import type { FieldGroup } from '../../core/observations/fields.js';
import { createWriter, type ItemWriter } from '../../core/observations/writer.js';
import { CliError, FileError, UsageError } from '../../errors.js';
import { lockOutput } from '../../io/files.js';
import { type Checkpoint, checkpointPath, identityOf, newCheckpoint, readCheckpoint, removeCheckpoint, writeCheckpoint } from './checkpoint.js';
import { INTERRUPTED, watchInterruption } from './interrupt.js';
import { Meter } from './meter.js';
import { noteRoute } from './stream.js';
import { countOf } from '../../output/format.js';

const CHECKPOINT_EVERY_MS = 1_000;

function writerFor(cp: Checkpoint): ItemWriter {
  const groups = String(cp.query.fields ?? 'core').split(',') as FieldGroup[];
  return createWriter(cp.format, { groups, columns: cp.columns });
}


export interface FileTarget {
  /** --output as given. */
  output: string;
  resume: boolean;
  force: boolean;
  /** Whether an option that decides what is exported was given (a resume then checks them). */
  requestGiven: boolean;
}

/** Exports what `request` asks for to a file: a new export, or (--resume) the rest of one. */
export async function exportToFile(ctx: Context, request: ExportRequest, target: FileTarget): Promise<void> {
  const output = resolve(ctx.cwd, target.output);
  // Held from before the checkpoint is read until the export stops: a second export of the same
  // file (or a --resume or --force of it) would interleave its pages with this one's.
  const release = lockOutput(output, target.output);
  try {
    await exportLocked(ctx, request, target, output);
  } finally {
    release();
  }
}

async function exportLocked(ctx: Context, request: ExportRequest, target: FileTarget, output: string): Promise<void> {
  const cpPath = checkpointPath(output);
  const existing = await readCheckpoint(cpPath);
  const client = await ctx.api();
  const identity = identityOf(client.baseUrl, client.config.auth.type === 'basic' ? client.config.auth.publicKey : client.config.auth.type);

  if (target.resume) {
    if (!existing) throw new UsageError(`nothing to resume: ${target.output} has no checkpoint (${cpPath}); the export finished or never started`);
    if (existing.identity !== identity) {
      throw new UsageError(`the checkpoint of ${target.output} was made with another server or key (${existing.baseUrl})`, { hint: 'Resume with the same profile (or --base-url and keys) as the export that was interrupted, or start over with --force.' });
    }
    const differences = target.requestGiven ? differencesFrom(existing, request) : [];
    if (differences.length) {
      throw new UsageError(`--resume continues the export as it was started; these options differ: ${differences.join(', ')}`, { hint: `Resume with only: llmobs observations export --output ${target.output} --resume` });
    }
    await writeExport(ctx, client, output, target.output, existing, true);
    return;
  }
  if (existing && !target.force) {
    throw new UsageError(`${target.output} holds an unfinished export (${countOf(existing.items, 'observation')} so far)`, {
      hint: `Continue it with: llmobs observations export --output ${target.output} --resume   (or start over with --force)`,
    });
  }
  await writeExport(ctx, client, output, target.output, newCheckpoint(request, { identity, baseUrl: client.baseUrl }, ctx.now().toISOString()), false);
}

async function writeExport(ctx: Context, client: ApiClient, output: string, shown: string, start: Checkpoint, resuming: boolean): Promise<void> {
  const cpPath = checkpointPath(output);
  const writer = writerFor(start);
  const meter = new Meter(ctx, resuming ? start.items : 0, resuming ? start.pages : 0);
  meter.announceRetries(client);
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
      const warn = (line: string) => {
        meter.clear();
        ctx.out.warn(line);
      };
      const onRoute = (route: 'v2' | 'v1') => {
        meter.clear();
        noteRoute(ctx, route, { groups: String(cp.query.fields ?? 'core').split(',') as FieldGroup[], columns: cp.columns });
      };
      const pages = routedObservationPages(ctx, client, query, state, { ...retryOptions(ctx), warn, onRoute, max: cp.max ?? undefined, pageSize: cp.pageSize })[Symbol.asyncIterator]();
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
        if (interruption.interrupted || page.last) {
          // Ends the walk, which then says what it dropped (not while a page is in flight: Ctrl-C).
          await pages.return?.(undefined);
          break;
        }
      }
    }
    if (dirty) await persist();
    if (interruption.interrupted) {
      throw new CliError(`interrupted (${interruption.name}): ${countOf(cp.items, 'observation')} in ${shown} so far`, 130, 'interrupted', { hint: resumeHint });
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
      error.hint = `${error.hint ? `${error.hint}\n` : ''}${cp.items === 1 ? '1 observation is' : `${countOf(cp.items, 'observation')} are`} in ${shown}. ${resumeHint}`;
    }
    throw error;
  } finally {
    interruption.dispose();
    await handle?.close().catch(() => {});
  }
  meter.done(`${resuming ? 'Resumed and finished' : 'Exported'} ${countOf(cp.items, 'observation')} (${countOf(cp.pages, 'page')}) to ${shown}`);
  if (ctx.globals.json) {
    ctx.out.printJson({ output: output, format: cp.format, items: cp.items, pages: cp.pages, resumed: resuming, seconds: meter.seconds() });
  }
}

