/**
 * The binary rank table: one buffer that a tokenizer uses in place, through typed-array views, so
 * that loading a vocabulary costs a file read and no per-token parsing.
 *
 * Layout (little-endian, every section 4-byte aligned):
 *
 *   offset 0   magic "LMRT", u32 version (2)
 *          8   u32 metaLength      UTF-8 JSON of {@link RankTableMeta}
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
  /** Rank of every two-byte token, indexed by `first << 8 | second` (-1: not a token). */
  pairs(): Int32Array;
  /** The bytes of an ordinary token (a view into the table). */
  tokenBytes(rank: number): Uint8Array;
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
  const metaBytes = new TextEncoder().encode(JSON.stringify(meta));
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
  if (buf.length !== blobStart + blobLength || (slotCount & (slotCount - 1)) !== 0) {
    throw new Error('rank table: inconsistent section sizes');
  }
  const meta = JSON.parse(new TextDecoder().decode(buf.subarray(HEADER_BYTES, HEADER_BYTES + metaLength))) as RankTableMeta;
  const offsets = new Uint32Array(buf.buffer, buf.byteOffset + offsetsStart, rankCount + 1);
  const slots = new Uint32Array(buf.buffer, buf.byteOffset + slotsStart, slotCount);
  const blob = buf.subarray(blobStart);
  const mask = slotCount - 1;

  function lookup(bytes: Uint8Array, start: number, end: number): number {
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

  let pairTable: Int32Array | undefined;
  // Byte-pair merging starts by looking up every adjacent pair of bytes; a direct table answers
  // those without hashing. Built on first use: a command that counts nothing never pays for it.
  function pairs(): Int32Array {
    if (!pairTable) {
      pairTable = new Int32Array(65536).fill(-1);
      for (let r = 0; r < rankCount; r++) {
        const from = offsets[r]!;
        if (offsets[r + 1]! - from === 2) pairTable[(blob[from]! << 8) | blob[from + 1]!] = r;
      }
    }
    return pairTable;
  }

  return {
    meta,
    rankCount,
    lookup,
    pairs,
    tokenBytes: (rank) => blob.subarray(offsets[rank]!, offsets[rank + 1]!),
  };
}
