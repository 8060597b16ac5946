// Answers of the Metrics API kept for a few minutes: Langfuse Cloud's Hobby plan allows 100
// metrics requests a day, and a CI job or a person re-running a report should not spend them on
// the same question. One file per question (server, key, and the request as the user gave it,
// so "--from 7d" asked twice within minutes is the same question), named by a hash, holding no
// secret, written atomically. --no-cache asks the server and refreshes the copy. A cached answer
// is read with synchronous fs calls and named by a non-cryptographic hash of the question, which
// the file holds whole and is compared with: node:crypto and node:fs/promises (and the streams
// and readline modules they bring) are not loaded for it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { nameHash } from '../../core/hashes.js';
import { cacheDirectory, removeOldCacheFiles, writeCacheFile } from '../../io/cache-files.js';

export const METRICS_CACHE_TTL_MS = 5 * 60_000;
const PREFIX = 'metrics-';
const CLEAN_AFTER_MS = 24 * 3_600_000;

const EntrySchema = z.object({
  version: z.literal(2),
  key: z.string(),
  fetchedAt: z.string(),
  from: z.string(),
  to: z.string(),
  data: z.array(z.record(z.string(), z.unknown())),
});

export type CachedAnswer = z.infer<typeof EntrySchema>;

/**
 * The question an answer is kept for, whole (server, key, request: what the caller passes, which
 * must hold no secret): the file is named by its hash and holds it, so two questions whose names
 * collide are told apart.
 */
export function cacheKey(parts: unknown): string {
  return JSON.stringify(parts);
}

function pathFor(ctx: Context, key: string): string {
  return join(cacheDirectory(ctx.env), `${PREFIX}${nameHash(key)}.json`);
}

export function readAnswer(ctx: Context, key: string): CachedAnswer | undefined {
  try {
    const parsed = EntrySchema.safeParse(JSON.parse(readFileSync(pathFor(ctx, key), 'utf8')));
    if (!parsed.success || parsed.data.key !== key) return undefined;
    const age = ctx.now().getTime() - Date.parse(parsed.data.fetchedAt);
    return age >= 0 && age <= METRICS_CACHE_TTL_MS ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export function writeAnswer(ctx: Context, entry: CachedAnswer): void {
  const dir = cacheDirectory(ctx.env);
  const trace = (line: string) => ctx.trace(`metrics: ${line}`);
  // Answers not written for a day go: this format's names, and the one before's.
  if (writeCacheFile(dir, pathFor(ctx, entry.key), JSON.stringify(entry), trace)) removeOldCacheFiles(dir, /^metrics-(?:[0-9a-f]{16}|[0-9a-f]{32})\.json$/, CLEAN_AFTER_MS, trace);
}
