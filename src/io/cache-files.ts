// The files of llmobs's caches under $XDG_CACHE_HOME/llmobs (the models' definitions, the
// metrics answers): written whole under a temporary name and renamed, private to this user, and
// cleaned of old ones. Synchronous: these are small files, and the cached path of a command then
// loads no more of Node than node:fs.
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { temporaryTarget, writeFileAtomic } from './atomic.js';

/** Where llmobs keeps its caches: $LLMOBS_CACHE_DIR, else $XDG_CACHE_HOME/llmobs (~/.cache/llmobs). */
export function cacheDirectory(env: Record<string, string | undefined>): string {
  if (env.LLMOBS_CACHE_DIR) return env.LLMOBS_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.cache'), 'llmobs');
}

/**
 * Writes `text` to `path` in `dir` (made private if new) through a temporary file, renamed into
 * place: a reader finds no file or a whole one. Whether it was written; on failure `trace` says why
 * (a cache that cannot be written only costs a request later).
 */
export function writeCacheFile(dir: string, path: string, text: string, trace: (line: string) => void): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Not flushed: a cache lost in a crash only costs a request.
    writeFileAtomic(path, text, { mode: 0o600, durable: false });
    return true;
  } catch (error) {
    trace(`cache not written: ${path} (${(error as Error).message})`);
    return false;
  }
}

/**
 * Removes the files of `dir` whose names match `names` (and the temporary files of their writes
 * cut short, see temporaryTarget) not written for `maxAgeMs`. Only names of a cache's own form: LLMOBS_CACHE_DIR
 * may be a folder that holds other files.
 */
export function removeOldCacheFiles(dir: string, names: RegExp, maxAgeMs: number, trace: (line: string) => void): void {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  // File times are the system clock's (a command's clock may be another in tests).
  const now = Date.now();
  for (const name of entries) {
    if (!names.test(temporaryTarget(name) ?? name)) continue;
    const file = join(dir, name);
    try {
      const info = statSync(file, { throwIfNoEntry: false });
      if (info?.isFile() && now - info.mtimeMs > maxAgeMs) rmSync(file, { force: true });
    } catch (error) {
      trace(`cache: ${file} not removed (${(error as Error).message})`);
    }
  }
}
