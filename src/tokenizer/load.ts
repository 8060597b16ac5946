/**
 * Loads the generated rank tables (dist/ranks/<name>.bin, see scripts/build-ranks.mjs) into
 * tokenizers. Kept to node:fs and the engine so that a command that only counts tokens starts
 * fast.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { join, sep } from 'node:path';
import { FileError } from '../errors.js';
import { createTokenizer, type Tokenizer } from './tokenizer.js';
import { openRankTable, type RankTable } from './rank-table.js';
import type { EncodingName } from './encodings.js';

/**
 * The tables sit in dist/ranks/, beside the bundle's files. Run from the sources (src/tokenizer/,
 * as the test runner does), the built tables are in ../../dist/ranks/.
 */
export const DEFAULT_RANKS_DIR = import.meta.filename.endsWith('.ts') ? join(import.meta.dirname, '..', '..', 'dist', 'ranks') + sep : join(import.meta.dirname, 'ranks') + sep;

const loaded = new Map<string, Tokenizer>();

/**
 * The tokenizer for an encoding, loaded once per process and directory. Synchronous: it reads one
 * file. `ranksDir` is for running from sources, where the tables are not next to this module.
 */
export function loadTokenizer(name: EncodingName, ranksDir: string = DEFAULT_RANKS_DIR): Tokenizer {
  const key = `${ranksDir}\0${name}`;
  let tokenizer = loaded.get(key);
  if (!tokenizer) {
    const file = join(ranksDir, `${name}.bin`);
    const table = openTable(file, name);
    tokenizer = createTokenizer(name, table);
    loaded.set(key, tokenizer);
  }
  return tokenizer;
}

/**
 * The table in `file`, read in part: the file stays open until the table has been read whole
 * (after a few dozen pages, see openRankTable), so a command that counts "hi" reads a few pages.
 */
function openTable(file: string, name: EncodingName): RankTable {
  let fd: number;
  let size: number;
  try {
    fd = openSync(file, 'r');
    size = fstatSync(fd).size;
  } catch (err) {
    throw new FileError(`token ranks for ${name} are missing (${file})`, { hint: 'The package was not built completely; run: npm run build', cause: err });
  }
  let open = true;
  const readAt = (into: Uint8Array, position: number): void => {
    if (!open) throw new Error(`${file} was read whole already`);
    for (let done = 0; done < into.length; ) {
      const n = readSync(fd, into, done, into.length - done, position + done);
      if (n === 0) throw new FileError(`token ranks for ${name} are truncated (${file})`, { hint: 'The package was not built completely; run: npm run build' });
      done += n;
    }
    // The whole table has just been read: nothing more will be.
    if (position === 0 && into.length === size) {
      closeSync(fd);
      open = false;
    }
  };
  try {
    const table = openRankTable(size, readAt);
    if (table.meta.name !== name) throw new Error(`${file} holds the ranks of ${table.meta.name}, not ${name}`);
    return table;
  } catch (err) {
    if (open) closeSync(fd);
    throw err;
  }
}
