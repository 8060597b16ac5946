// Answers of the Metrics API kept for a few minutes: Langfuse Cloud's Hobby plan allows 100
// metrics requests a day, and a CI job or a person re-running a report should not spend them on
// the same question. One file per question (server, key, and the request as the user gave it,
// so "--from 7d" asked twice within minutes is the same question), named by a hash, holding no
// secret, written atomically. --no-cache asks the server and refreshes the copy.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Context } from '../../context.js';
import { cacheDirectory } from '../../model-definitions/remote.js';

export const METRICS_CACHE_TTL_MS = 5 * 60_000;
const PREFIX = 'metrics-';
const CLEAN_AFTER_MS = 24 * 3_600_000;

const EntrySchema = z.object({
  version: z.literal(1),
  key: z.string(),
  fetchedAt: z.string(),
  from: z.string(),
  to: z.string(),
  data: z.array(z.record(z.string(), z.unknown())),
});

export type CachedAnswer = z.infer<typeof EntrySchema>;

export function cacheKey(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

function pathFor(ctx: Context, key: string): string {
  return join(cacheDirectory(ctx.env), `${PREFIX}${key.slice(0, 32)}.json`);
}

export async function readAnswer(ctx: Context, key: string): Promise<CachedAnswer | undefined> {
  try {
    const parsed = EntrySchema.safeParse(JSON.parse(await readFile(pathFor(ctx, key), 'utf8')));
    if (!parsed.success || parsed.data.key !== key) return undefined;
    const age = ctx.now().getTime() - Date.parse(parsed.data.fetchedAt);
    return age >= 0 && age <= METRICS_CACHE_TTL_MS ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

export async function writeAnswer(ctx: Context, entry: CachedAnswer): Promise<void> {
  const dir = cacheDirectory(ctx.env);
  const path = pathFor(ctx, entry.key);
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(temp, JSON.stringify(entry), { mode: 0o600 });
    await rename(temp, path);
    await cleanOld(ctx, dir);
  } catch (error) {
    // A cache that cannot be written costs a request later, nothing more.
    ctx.trace(`metrics: cache not written (${(error as Error).message})`);
    await rm(temp, { force: true }).catch(() => {});
  }
}

async function cleanOld(ctx: Context, dir: string): Promise<void> {
  const now = ctx.now().getTime();
  for (const name of await readdir(dir)) {
    if (!name.startsWith(PREFIX)) continue;
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > CLEAN_AFTER_MS) await rm(file, { force: true }).catch(() => {});
  }
}
