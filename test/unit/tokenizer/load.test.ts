import { get_encoding } from 'tiktoken';
import { mkdtempSync, copyFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_RANKS_DIR, loadTokenizer } from '../../../src/tokenizer/load.js';
import { RANKS_DIR } from './support/reference.js';

describe('loadTokenizer', () => {
  const dir = mkdtempSync(join(tmpdir(), 'llmobs-ranks-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads each encoding once per process and directory', () => {
    const a = loadTokenizer('cl100k_base', RANKS_DIR);
    expect(loadTokenizer('cl100k_base', RANKS_DIR)).toBe(a);
    expect(a.name).toBe('cl100k_base');
    expect(a.count('hello world')).toBe(2);
  });

  it('says how to fix missing tables, as a file error', () => {
    let error: unknown;
    try {
      loadTokenizer('gpt2', dir);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ exitCode: 6, hint: expect.stringMatching(/npm run build/) });
  });

  it('refuses a table that holds another encoding', () => {
    copyFileSync(join(RANKS_DIR, 'r50k_base.bin'), join(dir, 'gpt2.bin'));
    expect(() => loadTokenizer('gpt2', dir)).toThrow(/r50k_base, not gpt2/);
  });

  it('finds the built tables by default, also when run from the sources', () => {
    // From the build the tables are beside dist/tokenizer/; from src/ they are in dist/ranks/.
    expect(DEFAULT_RANKS_DIR.replace(/\\/g, '/')).toMatch(/\/dist\/ranks\/$/);
    const reference = get_encoding('gpt2');
    expect(loadTokenizer('gpt2').count('hello world')).toBe(reference.encode('hello world', 'all').length);
    reference.free();
  });
});

describe('count statistics', () => {
  it('report the longest piece over 16 units in UTF-8 bytes and the sum of their squares, added up over calls', () => {
    const tokenizer = loadTokenizer('o200k_base', RANKS_DIR);
    const stats = { longestPiece: 0, pieceWork: 0 };
    expect(tokenizer.count('short words only', stats)).toBe(tokenizer.count('short words only'));
    expect(stats).toEqual({ longestPiece: 0, pieceWork: 0 });
    tokenizer.count(`a ${'b'.repeat(40)} c`, stats);
    // The letters and the space before them are one piece.
    expect(stats).toEqual({ longestPiece: 41, pieceWork: 41 * 41 });
    tokenizer.count(`${'日'.repeat(30)}`, stats);
    expect(stats).toEqual({ longestPiece: 90, pieceWork: 41 * 41 + 90 * 90 });
    tokenizer.count('x'.repeat(20), stats);
    expect(stats).toEqual({ longestPiece: 90, pieceWork: 41 * 41 + 90 * 90 + 20 * 20 });
    const fresh = { longestPiece: 0, pieceWork: 0 };
    tokenizer.count(`${' '.repeat(25)}\n${'-'.repeat(30)}`, fresh);
    expect(fresh.longestPiece).toBe(30);
  });
});
