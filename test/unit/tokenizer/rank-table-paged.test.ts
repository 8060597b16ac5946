import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeRankTable, openRankTable } from '../../../src/tokenizer/rank-table.js';
import { createTokenizer } from '../../../src/tokenizer/tokenizer.js';
import { RANKS_DIR, withTiktoken } from './support/reference.js';

/** A table of o200k_base read in part from memory, recording what it reads. */
function paged(file: Uint8Array): { table: ReturnType<typeof openRankTable>; reads: Array<[number, number]> } {
  const reads: Array<[number, number]> = [];
  const table = openRankTable(file.length, (into, position) => {
    reads.push([position, into.length]);
    into.set(file.subarray(position, position + into.length));
  });
  return { table, reads };
}

describe('rank table read in part', () => {
  const file = new Uint8Array(readFileSync(join(RANKS_DIR, 'o200k_base.bin')));

  it('counts a short text from a few pages of the table, and counts it right', () => {
    const { table, reads } = paged(file);
    const tokenizer = createTokenizer('o200k_base', table);
    expect(tokenizer.count('hi')).toBe(1);
    expect(tokenizer.count('hello, world')).toBe(withTiktoken('o200k_base', (enc) => enc.encode('hello, world', 'all').length));
    const bytesRead = reads.reduce((n, [, length]) => n + length, 0);
    expect(bytesRead).toBeLessThan(file.length / 20);
    expect(reads.some(([position, length]) => position === 0 && length === file.length)).toBe(false);
  });

  it('reads the rest at once after a few dozen pages, and answers as the whole table does', () => {
    const { table, reads } = paged(file);
    const whole = decodeRankTable(file);
    const text = 'Ünïcödé, numbers 1234567, code `x => x * 2;` and 日本語のテキスト\n\n  spaces ';
    const probe = new TextEncoder().encode(text.repeat(3));
    for (let start = 0; start < probe.length - 4; start += 3) {
      for (let end = start + 1; end <= start + 4; end++) expect(table.lookup(probe, start, end)).toBe(whole.lookup(probe, start, end));
    }
    expect(reads.at(-1)).toEqual([0, file.length]);
    for (const rank of [0, 1, 1000, 199_997]) expect(Array.from(table.tokenBytes(rank))).toEqual(Array.from(whole.tokenBytes(rank)));
  });

  it('gives the same token ids as tiktoken for a mixed text, before and after the whole read', () => {
    const { table } = paged(file);
    const tokenizer = createTokenizer('o200k_base', table);
    const texts = ['hi', 'The quick brown fox 🦊 jumps', 'Ünïcödé 日本語 ' + 'lorem ipsum dolor sit amet '.repeat(200), 'tail text'];
    withTiktoken('o200k_base', (enc) => {
      for (const t of texts) expect(tokenizer.encode(t)).toEqual(Array.from(enc.encode(t, 'all')));
    });
  });

  it('refuses a truncated table before reading its body', () => {
    expect(() => openRankTable(10, () => undefined)).toThrow(/truncated/);
    const { table } = paged(file);
    expect(table.meta.name).toBe('o200k_base');
    expect(() => openRankTable(file.length - 1, (into, position) => into.set(file.subarray(position, position + into.length)))).toThrow(/inconsistent/);
  });
});
