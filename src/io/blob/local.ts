// A blob export to a local folder: each key a file under DEST, written through a temporary file
// and renamed into place (io/atomic.ts), so a key holds a whole file or its previous one. A lock
// in DEST (llmobs-export.llmobs-lock) keeps a second export off the folder while one runs.
import { promises as fsp } from 'node:fs';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { CliError, FileError } from '../../errors.js';
import { openAtomicStream, temporaryTarget } from '../atomic.js';
import { lockOutput, readFileBounded } from '../files.js';
import { InputTooLargeError } from '../stdin.js';
import type { BlobTarget } from './target.js';

export async function openLocalTarget(cwd: string, dest: string, options: { lock: boolean }): Promise<BlobTarget> {
  const root = resolve(cwd, dest);
  const pathOf = (key: string) => {
    const path = resolve(root, ...key.split('/'));
    // Keys come from this program, but a project id is the server's: it must not climb out of DEST.
    if (!path.startsWith(root + sep)) throw new FileError(`the key ${JSON.stringify(key)} would be written outside ${dest}`);
    return path;
  };
  const cannot = (what: string, error: unknown) => new FileError(`cannot ${what} in ${dest}: ${(error as Error).message}`);
  let release: (() => void) | undefined;
  if (options.lock) {
    try {
      await fsp.mkdir(root, { recursive: true });
    } catch (error) {
      throw cannot('create the folder', error);
    }
    release = lockOutput(join(root, 'llmobs-export'), dest);
  }
  return {
    shown: dest,
    async list(prefix) {
      let names: string[];
      try {
        names = await fsp.readdir(pathOf(`${prefix}x`).slice(0, -1));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw cannot('list the files', error);
      }
      return names.filter((name) => temporaryTarget(name) === undefined).map((name) => `${prefix}${name}`);
    },
    async read(key, limit) {
      try {
        return await readFileBounded(pathOf(key), limit);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        if (error instanceof InputTooLargeError) throw new FileError(`${key} in ${dest} is larger than ${limit} bytes: not a manifest llmobs wrote`);
        throw cannot(`read ${key}`, error);
      }
    },
    async put(key, body) {
      const path = pathOf(key);
      let file;
      try {
        await fsp.mkdir(dirname(path), { recursive: true });
        // A run killed while writing this key left its temporary file: this write replaces it.
        for (const name of await fsp.readdir(dirname(path))) {
          if (temporaryTarget(name) === basename(path)) await fsp.rm(join(dirname(path), name), { force: true });
        }
        file = await openAtomicStream(path, { mode: 0o644 });
      } catch (error) {
        body.destroy();
        throw cannot(`write ${key}`, error);
      }
      let bytes = 0;
      try {
        for await (const chunk of body) {
          const data = chunk as Uint8Array;
          bytes += data.length;
          await file.write(data);
        }
        await file.commit();
      } catch (error) {
        await file.discard();
        // The body's own errors (the server's answers) pass as they are; the file system's name the key.
        if (error instanceof CliError || !(error as NodeJS.ErrnoException).syscall) throw error;
        throw cannot(`write ${key}`, error);
      }
      return bytes;
    },
    async check() {},
    async close() {
      release?.();
    },
  };
}
