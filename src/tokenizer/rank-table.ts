/**
 * The binary rank table: one buffer that a tokenizer uses in place, through typed-array views, so
 * that loading a vocabulary costs a file read and no per-token parsing.
 *
 * Layout (little-endian, every section 4-byte aligned):
 *
 *   offset 0   magic "LMRT", u32 version (2)
 *          8   u32 metaLength      JSON of {@link RankTableMeta}, in ASCII (other characters are
 *                                  written as \u escapes), so that it decodes without a
 *                                  TextDecoder
 *         12   u32 rankCount       R: ordinary ranks are 0..R-1 (a rank may be unused)
 *         16   u32 slotCount       S: a power of two
 *         20   u32 blobLength
 *         24   meta JSON, zero-padded to a multiple of 4
 *              u32 offsets[R + 1]  token r is blob[offsets[r] .. offsets[r + 1]] (empty if unused)
 *              u32 slots[S]        open addressing, linear probing on h = hashBytes(token):
 *                                  (rank + 1) | (h >>> 18) << 18, 0 = empty. The high bits are a
 *                                  fingerprint of the hash, so that a look-up of bytes that are no
 *                                  token (most of those made while merging) rarely reads the
 *                                  offsets or the blob.
 *              u8  blob[blobLength] the token bytes, in rank order
 */

export interface RankTableMeta {
  /** Encoding name, e.g. "o200k_base". */
  readonly name: string;
  /** The pre-tokenisation regex as the reference spells it (checked against the known patterns). */
  readonly pattern: string;
  /** Special token strings and their ids. */
  readonly specials: Readonly<Record<string, number>>;
  /** Where the ranks came from, and under which licence. */
  readonly source: string;
}

export interface RankTable {
  readonly meta: RankTableMeta;
  readonly rankCount: number;
  /** Rank of the bytes `bytes[start..end)`, or -1 when they are not a token. */
  lookup(bytes: Uint8Array, start: number, end: number): number;
  /**
   * Rank of every two-byte token, indexed by `first << 8 | second` (-1: not a token; -2: not
   * looked up yet, from a table read in part).
   */
  pairs(): Int32Array;
  /** The bytes of an ordinary token (a view into the table). */
  tokenBytes(rank: number): Uint8Array;
  /** The length in bytes of the longest ordinary token. */
  maxTokenBytes(): number;
}

const MAGIC = 0x54524d4c; // "LMRT" read as a little-endian u32
const VERSION = 2;
/** Ranks + 1 must fit below the fingerprint. */
const RANK_BITS = 18;
const RANK_MASK = (1 << RANK_BITS) - 1;
const HEADER_BYTES = 24;

/** FNV-1a over a byte range. Written so that the writer and the reader cannot disagree. */
export function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

const align4 = (n: number): number => (n + 3) & ~3;

/**
 * Serialises a vocabulary. `tokens[r]` holds the bytes of rank r; holes are unused ranks.
 * Throws on duplicate tokens, since a lookup could then return only one of the ranks.
 */
export function encodeRankTable(meta: RankTableMeta, tokens: ReadonlyArray<Uint8Array | undefined>): Uint8Array {
  const metaBytes = new TextEncoder().encode(JSON.stringify(meta).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const rankCount = tokens.length;
  if (rankCount >= RANK_MASK) throw new Error(`rank table: at most ${RANK_MASK - 1} ranks`);
  let blobLength = 0;
  let used = 0;
  for (const t of tokens) {
    if (t) {
      blobLength += t.length;
      used++;
    }
  }
  // Load factor at most 2/3 keeps linear-probing chains short.
  let slotCount = 1024;
  while (slotCount * 2 < used * 3) slotCount *= 2;

  const metaStart = HEADER_BYTES;
  const offsetsStart = metaStart + align4(metaBytes.length);
  const slotsStart = offsetsStart + 4 * (rankCount + 1);
  const blobStart = slotsStart + 4 * slotCount;
  const out = new Uint8Array(blobStart + blobLength);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, VERSION, true);
  view.setUint32(8, metaBytes.length, true);
  view.setUint32(12, rankCount, true);
  view.setUint32(16, slotCount, true);
  view.setUint32(20, blobLength, true);
  out.set(metaBytes, metaStart);

  const blob = out.subarray(blobStart);
  const mask = slotCount - 1;
  let at = 0;
  for (let r = 0; r < rankCount; r++) {
    view.setUint32(offsetsStart + 4 * r, at, true);
    const t = tokens[r];
    if (!t) continue;
    if (t.length === 0) throw new Error(`rank ${r} is empty`);
    blob.set(t, at);
    const h = hashBytes(t, 0, t.length);
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const slot = view.getUint32(slotsStart + 4 * s, true);
      if (slot === 0) {
        view.setUint32(slotsStart + 4 * s, ((r + 1) | ((h >>> RANK_BITS) << RANK_BITS)) >>> 0, true);
        break;
      }
      const other = tokens[(slot & RANK_MASK) - 1]!;
      if (other.length === t.length && other.every((b, i) => b === t[i])) {
        throw new Error(`ranks ${(slot & RANK_MASK) - 1} and ${r} have the same bytes`);
      }
    }
    at += t.length;
  }
  view.setUint32(offsetsStart + 4 * rankCount, at, true);
  return out;
}

/** Reads a table in place. The buffer must not be modified afterwards. */
export function decodeRankTable(input: Uint8Array): RankTable {
  // Typed-array views need 4-byte alignment; small files read by Node may sit at any offset of a
  // shared pool.
  const buf = input.byteOffset % 4 === 0 ? input : input.slice();
  return tableOver(buf, buf.length, undefined);
}

/**
 * Reads `into.length` bytes of the table's file from `position` into `into`, all of them (a
 * short file is an error of the reader).
 */
export type ReadAt = (into: Uint8Array, position: number) => void;

/** Pages of a table read in part: small enough that a short text reads little. */
const PAGE_BITS = 12;
/**
 * Once this many pages have been read one by one, the rest of the table is read at once: a long
 * text would otherwise make thousands of small reads, and the look-ups stop checking pages.
 */
const PAGED_READ_LIMIT = 48;

/**
 * Opens a table of `size` bytes that is read in part, through `readAt`: the header first, then
 * the 4 KiB pages that look-ups touch, until {@link PAGED_READ_LIMIT} pages have been read; then
 * the whole of it. Counting a short text ("hi") reads a few pages of a 4 MB table, not all of it.
 * Answers are those of {@link decodeRankTable} over the same bytes.
 */
export function openRankTable(size: number, readAt: ReadAt): RankTable {
  if (size < HEADER_BYTES) throw new Error('rank table: truncated header');
  const buf = new Uint8Array(size);
  const pageCount = (size + (1 << PAGE_BITS) - 1) >>> PAGE_BITS;
  const loaded = new Uint8Array(pageCount);
  let reads = 0;
  const paging: Paging & { readAll(): void } = {
    whole: false,
    ensure(from: number, to: number): void {
      if (paging.whole) return;
      const last = Math.min(pageCount - 1, (Math.max(to, from + 1) - 1) >>> PAGE_BITS);
      for (let p = from >>> PAGE_BITS; p <= last; p++) {
        if (loaded[p]) continue;
        if (++reads > PAGED_READ_LIMIT) {
          paging.readAll();
          return;
        }
        // Neighbouring pages not yet read go in the same read.
        let q = p;
        while (q < last && !loaded[q + 1]) q++;
        const start = p << PAGE_BITS;
        readAt(buf.subarray(start, Math.min(size, (q + 1) << PAGE_BITS)), start);
        loaded.fill(1, p, q + 1);
        p = q;
      }
    },
    readAll(): void {
      readAt(buf, 0);
      paging.whole = true;
      paging.onWhole();
    },
    onWhole: (): void => undefined,
  };
  return tableOver(buf, size, paging);
}

interface Paging {
  /** True once the whole table is in the buffer. */
  whole: boolean;
  /** Makes bytes [from, to) of the table present. */
  ensure(from: number, to: number): void;
  /** Called once the whole table is present. */
  onWhole(): void;
}

function tableOver(buf: Uint8Array, size: number, paging: Paging | undefined): RankTable {
  paging?.ensure(0, HEADER_BYTES);
  if (buf.length < HEADER_BYTES) throw new Error('rank table: truncated header');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw new Error('rank table: bad magic');
  if (view.getUint32(4, true) !== VERSION) throw new Error(`rank table: unsupported version ${view.getUint32(4, true)}`);
  const metaLength = view.getUint32(8, true);
  const rankCount = view.getUint32(12, true);
  const slotCount = view.getUint32(16, true);
  const blobLength = view.getUint32(20, true);
  const offsetsStart = HEADER_BYTES + align4(metaLength);
  const slotsStart = offsetsStart + 4 * (rankCount + 1);
  const blobStart = slotsStart + 4 * slotCount;
  if (size !== blobStart + blobLength || (slotCount & (slotCount - 1)) !== 0) {
    throw new Error('rank table: inconsistent section sizes');
  }
  paging?.ensure(HEADER_BYTES, HEADER_BYTES + metaLength);
  // ASCII: one byte is one character. (Making the process's first TextDecoder loads Node's
  // encoding module, and checking the bytes first costs more than the decoding.)
  const meta = JSON.parse(String.fromCharCode.apply(null, buf.subarray(HEADER_BYTES, HEADER_BYTES + metaLength) as unknown as number[])) as RankTableMeta;
  const offsets = new Uint32Array(buf.buffer, buf.byteOffset + offsetsStart, rankCount + 1);
  const slots = new Uint32Array(buf.buffer, buf.byteOffset + slotsStart, slotCount);
  const blob = buf.subarray(blobStart);
  const mask = slotCount - 1;

  function lookupWhole(bytes: Uint8Array, start: number, end: number): number {
    const len = end - start;
    const h = hashBytes(bytes, start, end);
    const fingerprint = h >>> RANK_BITS;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const slot = slots[s]!;
      if (slot === 0) return -1;
      if (slot >>> RANK_BITS !== fingerprint) continue;
      const rank = (slot & RANK_MASK) - 1;
      const from = offsets[rank]!;
      if (offsets[rank + 1]! - from !== len) continue;
      let i = 0;
      while (i < len && blob[from + i] === bytes[start + i]) i++;
      if (i === len) return rank;
    }
  }

  // The same search, making each slot, offset and token present before reading it.
  function lookupPaged(p: Paging, bytes: Uint8Array, start: number, end: number): number {
    const len = end - start;
    const h = hashBytes(bytes, start, end);
    const fingerprint = h >>> RANK_BITS;
    for (let s = h & mask; ; s = (s + 1) & mask) {
      p.ensure(slotsStart + 4 * s, slotsStart + 4 * s + 4);
      const slot = slots[s]!;
      if (slot === 0) return -1;
      if (slot >>> RANK_BITS !== fingerprint) continue;
      const rank = (slot & RANK_MASK) - 1;
      p.ensure(offsetsStart + 4 * rank, offsetsStart + 4 * rank + 8);
      const from = offsets[rank]!;
      if (offsets[rank + 1]! - from !== len) continue;
      p.ensure(blobStart + from, blobStart + from + len);
      let i = 0;
      while (i < len && blob[from + i] === bytes[start + i]) i++;
      if (i === len) return rank;
    }
  }

  // Read in part, the table looks up through the pages until it has been read whole, and from
  // then on as a table read at once (`whole` replaces `lookup` on the table object; callers call
  // `table.lookup`, not a copy of it).
  const lookup =
    paging === undefined
      ? lookupWhole
      : (bytes: Uint8Array, start: number, end: number): number =>
          paging.whole ? lookupWhole(bytes, start, end) : lookupPaged(paging, bytes, start, end);

  let pairTable: Int32Array | undefined;
  // Byte-pair merging starts by looking up every adjacent pair of bytes; a direct table answers
  // those without hashing. Built on first use: a command that counts nothing never pays for it.
  // A table read in part answers "not looked up yet" (UNKNOWN in bpe.ts) for every pair instead,
  // which the merger fills in from look-ups: building it would read the whole table.
  function pairs(): Int32Array {
    if (!pairTable) {
      if (paging !== undefined && !paging.whole) return new Int32Array(65536).fill(PAIR_UNKNOWN);
      pairTable = new Int32Array(65536).fill(-1);
      for (let r = 0; r < rankCount; r++) {
        const from = offsets[r]!;
        if (offsets[r + 1]! - from === 2) pairTable[(blob[from]! << 8) | blob[from + 1]!] = r;
      }
    }
    return pairTable;
  }

  let maxTokenBytes = -1;
  // Only long pieces need it (see long-piece.ts): read from the offsets on first use.
  function longest(): number {
    if (maxTokenBytes < 0) {
      paging?.ensure(offsetsStart, slotsStart);
      maxTokenBytes = 0;
      for (let r = 0; r < rankCount; r++) maxTokenBytes = Math.max(maxTokenBytes, offsets[r + 1]! - offsets[r]!);
    }
    return maxTokenBytes;
  }

  const table: RankTable = {
    meta,
    rankCount,
    lookup,
    pairs,
    maxTokenBytes: longest,
    tokenBytes: (rank) => {
      paging?.ensure(offsetsStart + 4 * rank, offsetsStart + 4 * rank + 8);
      const from = offsets[rank]!;
      const to = offsets[rank + 1]!;
      paging?.ensure(blobStart + from, blobStart + to);
      return blob.subarray(from, to);
    },
  };
  if (paging) paging.onWhole = () => (table.lookup = lookupWhole);
  return table;
}

/** UNKNOWN of bpe.ts (not imported, so that this module stays a leaf). */
const PAIR_UNKNOWN = -2;
