import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeRankTable, encodeRankTable, hashBytes, type RankTableMeta, openRankTable } from '../../../src/tokenizer/rank-table.js';
import { createTokenizer } from '../../../src/tokenizer/tokenizer.js';
import { SPECIAL_STRINGS } from './support/corpus.js';
import { OPENAI_ENCODINGS, RANKS_DIR, withTiktoken, freeTiktokens } from './support/reference.js';

afterAll(freeTiktokens);

const meta: RankTableMeta = { name: 'test', pattern: 'x', specials: { '<s>': 9 }, source: 'test' };
const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('rank table format', () => {
  it('round-trips tokens, holes and metadata', () => {
    const tokens = [bytes('a'), bytes('b'), undefined, bytes('ab'), bytes('\u00e9'), bytes('abc')];
    const table = decodeRankTable(encodeRankTable(meta, tokens));
    expect(table.meta).toEqual(meta);
    expect(table.rankCount).toBe(6);
    tokens.forEach((t, rank) => {
      if (t) {
        expect(table.lookup(t, 0, t.length)).toBe(rank);
        expect(Array.from(table.tokenBytes(rank))).toEqual(Array.from(t));
      } else {
        expect(table.tokenBytes(rank).length).toBe(0);
      }
    });
    const probe = bytes('xabcx');
    expect(table.lookup(probe, 1, 4)).toBe(5);
    expect(table.lookup(probe, 0, 2)).toBe(-1);
    expect(table.lookup(probe, 1, 1)).toBe(-1);
  });

  it('writes the metadata as ASCII JSON, other characters escaped, and reads them back', () => {
    const wide: RankTableMeta = { ...meta, specials: { '<\u00e9t\u00e9>': 3, '<\u{1f600}>': 4 }, source: 'caf\u00e9 \u2713 \u{1f600}' };
    const encoded = encodeRankTable(wide, [bytes('a')]);
    const metaLength = new DataView(encoded.buffer, encoded.byteOffset).getUint32(8, true);
    expect(encoded.subarray(24, 24 + metaLength).every((b) => b < 0x80)).toBe(true);
    expect(decodeRankTable(encoded).meta).toEqual(wide);
  });

  it('rejects duplicate tokens, bad magic and truncated input', () => {
    expect(() => encodeRankTable(meta, [bytes('a'), bytes('a')])).toThrow(/same bytes/);
    const good = encodeRankTable(meta, [bytes('a')]);
    const bad = good.slice();
    bad[0] = 0;
    expect(() => decodeRankTable(bad)).toThrow(/magic/);
    expect(() => decodeRankTable(good.subarray(0, good.length - 1))).toThrow(/sizes/);
  });

  it('reads a table that is not 4-byte aligned in its buffer', () => {
    const good = encodeRankTable(meta, [bytes('a'), bytes('bc')]);
    const shifted = new Uint8Array(good.length + 1);
    shifted.set(good, 1);
    const table = decodeRankTable(shifted.subarray(1));
    expect(table.lookup(bytes('bc'), 0, 2)).toBe(1);
  });

  it('hashes with FNV-1a', () => {
    expect(hashBytes(bytes(''), 0, 0)).toBe(0x811c9dc5);
    expect(hashBytes(bytes('a'), 0, 1)).toBe(0xe40c292c);
    expect(hashBytes(bytes('foobar'), 0, 6)).toBe(0xbf9cf968);
  });
});

describe.each(OPENAI_ENCODINGS)('generated %s table', (name) => {
  const table = decodeRankTable(readFileSync(`${RANKS_DIR}${name}.bin`));

  it('holds the same token bytes as WASM tiktoken for every rank', () => {
    withTiktoken(name, (enc) => {
      const specialIds = new Set(Object.values(table.meta.specials));
      let checked = 0;
      for (let rank = 0; rank < table.rankCount; rank++) {
        const ours = table.tokenBytes(rank);
        if (ours.length === 0) {
          // A hole is either a special token's id or unused by the reference too.
          if (!specialIds.has(rank)) expect(() => enc.decode_single_token_bytes(rank), `rank ${rank}`).toThrow();
          continue;
        }
        const theirs = enc.decode_single_token_bytes(rank);
        if (Buffer.compare(Buffer.from(ours), Buffer.from(theirs)) !== 0) expect.fail(`rank ${rank} differs`);
        if (table.lookup(ours, 0, ours.length) !== rank) expect.fail(`rank ${rank} is not found by its bytes`);
        checked++;
      }
      expect(checked).toBe(table.rankCount - [...Array(table.rankCount).keys()].filter((r) => table.tokenBytes(r).length === 0).length);
      expect(checked).toBeGreaterThan(50_000);
    });
  });

  it('has the special tokens of WASM tiktoken, and only those', () => {
    withTiktoken(name, (enc) => {
      for (const special of SPECIAL_STRINGS) {
        const reference = Array.from(enc.encode(special, 'all'));
        if (special in table.meta.specials) expect(reference).toEqual([table.meta.specials[special]]);
        else expect(reference.length, special).toBeGreaterThan(1);
      }
    });
  });
});

describe('claude table', () => {
  it('holds the ranks and special tokens of claude.json', () => {
    const table = decodeRankTable(readFileSync(`${RANKS_DIR}claude.bin`));
    const source = JSON.parse(readFileSync(new URL('../../../node_modules/@anthropic-ai/tokenizer/claude.json', import.meta.url), 'utf8')) as {
      bpe_ranks: string;
      special_tokens: Record<string, number>;
      pat_str: string;
    };
    expect(table.meta.specials).toEqual(source.special_tokens);
    expect(table.meta.pattern).toBe(source.pat_str);
    const [, first, ...encoded] = source.bpe_ranks.trim().split(' ');
    encoded.forEach((b64, i) => {
      const t = Buffer.from(b64, 'base64');
      if (table.lookup(t, 0, t.length) !== Number(first) + i) expect.fail(`rank ${Number(first) + i}`);
    });
    expect(table.rankCount).toBe(Number(first) + encoded.length);
  });
});

describe('gpt2 and r50k_base', () => {
  it('are the same vocabulary (the reference loads them from different files)', () => {
    const gpt2 = decodeRankTable(readFileSync(`${RANKS_DIR}gpt2.bin`));
    const r50k = decodeRankTable(readFileSync(`${RANKS_DIR}r50k_base.bin`));
    expect(gpt2.rankCount).toBe(r50k.rankCount);
    for (let rank = 0; rank < gpt2.rankCount; rank++) {
      if (Buffer.compare(Buffer.from(gpt2.tokenBytes(rank)), Buffer.from(r50k.tokenBytes(rank))) !== 0) expect.fail(`rank ${rank}`);
    }
    expect(gpt2.meta.specials).toEqual(r50k.meta.specials);
  });
});

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
