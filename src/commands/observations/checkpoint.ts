// The checkpoint of an export, kept beside its output (`FILE.llmobs-checkpoint`): what was asked
// (server, key, query, format, columns, limit) and how far it got (the cursor of the next page,
// items, pages, and the output's length after the last whole page). It is replaced atomically
// (written to a temporary file, synced, renamed: io/atomic.ts) only after the page it describes is
// on disk, so at any moment, even after a crash, it describes a prefix of the output.
import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { sha256Hex } from '../../core/hashes.js';
import { type ExportRequest, recordOf } from '../../core/observations/export-plan.js';
import { FileError } from '../../errors.js';
import { openAtomicStream, temporaryTarget } from '../../io/atomic.js';
import { readFileBounded } from '../../io/files.js';
import { InputTooLargeError } from '../../io/stdin.js';

export const CHECKPOINT_SUFFIX = '.llmobs-checkpoint';
/** A checkpoint is a few hundred bytes; a larger file at its path is not one. */
const MAX_CHECKPOINT_BYTES = 1024 * 1024;

const CheckpointSchema = z.object({
  version: z.literal(1),
  kind: z.literal('observations-export'),
  identity: z.string(),
  baseUrl: z.string(),
  format: z.enum(['jsonl', 'csv', 'json']),
  query: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  columns: z.array(z.string()).nullable(),
  max: z.number().int().nullable(),
  pageSize: z.number().int().positive(),
  cursor: z.string().nullable(),
  items: z.number().int().nonnegative(),
  pages: z.number().int().nonnegative(),
  bytes: z.number().int().nonnegative(),
  /** Every page is written; only the footer may be missing. */
  complete: z.boolean(),
  startedAt: z.string(),
  updatedAt: z.string(),
});

export type Checkpoint = z.infer<typeof CheckpointSchema>;

export function checkpointPath(output: string): string {
  return `${output}${CHECKPOINT_SUFFIX}`;
}

/** Who the export reads from, without the secret: a hash of the server and public key. */
export function identityOf(baseUrl: string, key: string): string {
  return sha256Hex(`${baseUrl}\n${key}`).slice(0, 32);
}

/** The checkpoint of an export about to start: what it asks for, and no page yet. */
export function newCheckpoint(request: ExportRequest, source: { identity: string; baseUrl: string }, now: string): Checkpoint {
  return { version: 1, kind: 'observations-export', ...source, ...recordOf(request), cursor: null, items: 0, pages: 0, bytes: 0, complete: false, startedAt: now, updatedAt: now };
}

export async function readCheckpoint(path: string): Promise<Checkpoint | undefined> {
  let text: string;
  try {
    text = await readFileBounded(path, MAX_CHECKPOINT_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (error instanceof InputTooLargeError) {
      throw new FileError(`the checkpoint ${path} is not one llmobs can read (${error.message.replace(/^the input/, 'it')})`, { hint: 'Start the export over with --force (the partial output is replaced).' });
    }
    throw new FileError(`cannot read the checkpoint ${path}: ${(error as Error).message}`);
  }
  let parsed;
  try {
    parsed = CheckpointSchema.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (!parsed?.success) {
    throw new FileError(`the checkpoint ${path} is not one llmobs can read`, { hint: 'Start the export over with --force (the partial output is replaced).' });
  }
  return parsed.data;
}

export async function writeCheckpoint(path: string, checkpoint: Checkpoint): Promise<void> {
  const file = await openAtomicStream(path, { mode: 0o600 });
  try {
    await file.write(`${JSON.stringify(checkpoint)}\n`);
    await file.commit();
  } catch (error) {
    await file.discard();
    throw error;
  }
}

export async function removeCheckpoint(path: string): Promise<void> {
  await rm(path, { force: true });
  // A run killed while writing a checkpoint leaves its temporary file: the finished export takes
  // those along, so nothing of it stays beside the output.
  const name = basename(path);
  let names: string[] = [];
  try {
    names = await readdir(dirname(path));
  } catch {
    return;
  }
  for (const other of names) {
    if (temporaryTarget(other) === name) await rm(join(dirname(path), other), { force: true });
  }
}
