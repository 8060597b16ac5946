/**
 * Loads the generated rank tables (dist/ranks/<name>.bin, see scripts/build-ranks.mjs) into
 * tokenizers. Kept to node:fs and the pure core so that a command that only counts tokens starts
 * fast.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FileError } from '../errors.js';
import { fileURLToPath } from 'node:url';
import { createTokenizer, type Tokenizer } from '../core/tokenizer/tokenizer.js';
import { decodeRankTable } from '../core/tokenizer/rank-table.js';
import type { EncodingName } from '../core/tokenizer/encodings.js';

export type { EncodingName, Tokenizer };
export type { StreamingCounter } from '../core/tokenizer/streaming.js';

/**
 * The tables sit in dist/ranks/, beside the compiled dist/tokenizer/ of this module. Run from the
 * sources (src/tokenizer/, as the test runner does), the built tables are in ../../dist/ranks/.
 */
export const DEFAULT_RANKS_DIR = ((): string => {
  const beside = fileURLToPath(new URL('../ranks/', import.meta.url));
  const built = fileURLToPath(new URL('../../dist/ranks/', import.meta.url));
  return import.meta.url.endsWith('.ts') && !existsSync(beside) ? built : beside;
})();

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
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(file);
    } catch (err) {
      throw new FileError(`token ranks for ${name} are missing (${file})`, { hint: 'The package was not built completely; run: npm run build', cause: err });
    }
    const table = decodeRankTable(bytes);
    if (table.meta.name !== name) throw new Error(`${file} holds the ranks of ${table.meta.name}, not ${name}`);
    tokenizer = createTokenizer(name, table);
    loaded.set(key, tokenizer);
  }
  return tokenizer;
}
