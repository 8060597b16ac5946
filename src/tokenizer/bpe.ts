/**
 * Byte-pair merging with tiktoken's rule: repeatedly merge the adjacent pair whose concatenation
 * has the lowest rank, the leftmost one on ties, until no adjacent pair is a token.
 *
 * Short pieces (nearly all of them) use tiktoken's own array scan, which is quadratic but has
 * the smallest constant. Long pieces keep their parts in a linked list and the candidate merges
 * in a priority queue keyed by (rank, start offset); start offsets increase from left to right,
 * so "lowest rank, then leftmost" is the queue's minimum and the merges happen in the same order.
 *
 * Every part is a token, so the rank of a merged pair depends only on the ranks of its two parts:
 * a small cache keyed by those answers most pair look-ups without hashing bytes.
 */
import { MergeQueue } from './merge-queue.js';

export type Lookup = (bytes: Uint8Array, start: number, end: number) => number;

/** The rank table, as merging uses it (see rank-table.ts). */
export interface Ranks {
  lookup: Lookup;
  /**
   * Rank of every two-byte token, indexed by `first << 8 | second`: -1 when the pair is no token,
   * {@link UNKNOWN} where the table has not looked yet (a table read in part, see rank-table.ts):
   * the merger then asks `lookup` and writes the answer in.
   */
  pairs(): Int32Array;
}

/** An entry of a pair or byte table that has not been looked up yet. */
export const UNKNOWN = -2;

/** Pieces up to this many bytes use the array scan. */
export const SMALL_PIECE_BYTES = 64;

const NONE = 0x7fffffff;
const CACHE_BITS = 16;

export class BytePairMerger {
  private byteRank: Int32Array | undefined;
  private pairTable: Int32Array | undefined;
  // Direct-mapped: a colliding pair replaces the previous one.
  private cacheLeft: Int32Array | undefined;
  private cacheRight = new Int32Array(0);
  private cacheMerged = new Int32Array(0);
  private starts = new Int32Array(SMALL_PIECE_BYTES + 1);
  private parts = new Int32Array(SMALL_PIECE_BYTES + 1);
  private pairs = new Int32Array(SMALL_PIECE_BYTES + 1);
  /** The merge queue's arrays, kept from one long piece to the next (see mergeByQueue). */
  private next = new Int32Array(0);
  private prev = new Int32Array(0);
  private queueParts = new Int32Array(0);
  private queuePairs = new Int32Array(0);
  private readonly queue = new MergeQueue();

  // `ranks.lookup` is called through the table each time: a table read in part replaces it once
  // it has been read whole.
  constructor(private readonly ranks: Ranks) {}

  /**
   * Merges `bytes[0..n)` (n >= 2). Appends the ranks of the resulting tokens to `out` (when
   * given) and returns how many there are. `small` moves the switch between the two algorithms
   * (for tests).
   */
  merge(bytes: Uint8Array, n: number, out?: number[], small = SMALL_PIECE_BYTES): number {
    if (!this.cacheLeft) this.prepare();
    return n <= small ? this.mergeByScan(bytes, n, out) : this.mergeByQueue(bytes, n, out);
  }

  /**
   * Merges `bytes[0..n)` like `merge`, and says where the tokens are: token i is
   * `bytes[starts[i]..starts[i + 1])`, of rank `ranks[i]`. Returns their number. `starts` needs
   * room for n + 1 entries, `ranks` for n.
   */
  mergeInto(bytes: Uint8Array, n: number, starts: Int32Array, ranks: Int32Array, small = SMALL_PIECE_BYTES): number {
    if (!this.cacheLeft) this.prepare();
    return n <= small ? this.mergeByScan(bytes, n, undefined, starts, ranks) : this.mergeByQueue(bytes, n, undefined, starts, ranks);
  }

  private prepare(): void {
    this.pairTable = this.ranks.pairs();
    // Looked up on first use: a short text needs a few of the 256, and each look-up of a table
    // read in part may read from its file.
    this.byteRank = new Int32Array(256).fill(UNKNOWN);
    this.cacheLeft = new Int32Array(1 << CACHE_BITS).fill(-1);
    this.cacheRight = new Int32Array(1 << CACHE_BITS);
    this.cacheMerged = new Int32Array(1 << CACHE_BITS);
  }

  /** Rank of the single byte b (filled in on first use). */
  private byteRankOf(b: number): number {
    const one = new Uint8Array(1);
    one[0] = b;
    return (this.byteRank![b] = this.ranks.lookup(one, 0, 1));
  }

  /** Rank of the two bytes at `bytes[i]` (filled in on first use); -1 if they are no token. */
  private pairRankOf(bytes: Uint8Array, i: number): number {
    return (this.pairTable![(bytes[i]! << 8) | bytes[i + 1]!] = this.ranks.lookup(bytes, i, i + 2));
  }

  /** Rank of the parts of ranks a and b merged, whose bytes are bytes[start..end); NONE if no token. */
  private merged(a: number, b: number, bytes: Uint8Array, start: number, end: number): number {
    const slot = Math.imul(a ^ Math.imul(b, 0x9e3779b1), 0x85ebca6b) >>> (32 - CACHE_BITS);
    const left = this.cacheLeft!;
    if (left[slot] === a && this.cacheRight[slot] === b) return this.cacheMerged[slot]!;
    const found = this.ranks.lookup(bytes, start, end);
    const r = found < 0 ? NONE : found;
    left[slot] = a;
    this.cacheRight[slot] = b;
    this.cacheMerged[slot] = r;
    return r;
  }

  private mergeByScan(bytes: Uint8Array, n: number, out?: number[], startsOut?: Int32Array, ranksOut?: Int32Array): number {
    if (this.starts.length <= n) {
      this.starts = new Int32Array(n + 1);
      this.parts = new Int32Array(n + 1);
      this.pairs = new Int32Array(n + 1);
    }
    const starts = this.starts;
    const part = this.parts; // part[i]: rank of part i
    const pair = this.pairs; // pair[i]: rank of parts i and i+1 merged
    const byteRank = this.byteRank!;
    const pairTable = this.pairTable!;
    for (let i = 0; i < n; i++) {
      starts[i] = i;
      const r = byteRank[bytes[i]!]!;
      part[i] = r === UNKNOWN ? this.byteRankOf(bytes[i]!) : r;
    }
    starts[n] = n;
    for (let i = 0; i < n - 1; i++) {
      let r = pairTable[(bytes[i]! << 8) | bytes[i + 1]!]!;
      if (r === UNKNOWN) r = this.pairRankOf(bytes, i);
      pair[i] = r < 0 ? NONE : r;
    }
    let count = n;
    for (;;) {
      let best = NONE;
      let at = -1;
      for (let i = 0; i < count - 1; i++) {
        if (pair[i]! < best) {
          best = pair[i]!;
          at = i;
        }
      }
      if (at < 0) break;
      // Parts at and at+1 become one part.
      part[at] = best;
      for (let i = at + 1; i < count; i++) {
        starts[i] = starts[i + 1]!;
        part[i] = part[i + 1]!;
      }
      for (let i = at + 1; i < count - 1; i++) pair[i] = pair[i + 1]!;
      count--;
      pair[at] = at + 1 < count ? this.merged(best, part[at + 1]!, bytes, starts[at]!, starts[at + 2]!) : NONE;
      if (at > 0) pair[at - 1] = this.merged(part[at - 1]!, best, bytes, starts[at - 1]!, starts[at + 1]!);
    }
    if (out) {
      for (let i = 0; i < count; i++) out.push(part[i]!);
    }
    if (startsOut && ranksOut) {
      startsOut.set(starts.subarray(0, count + 1));
      ranksOut.set(part.subarray(0, count));
    }
    return count;
  }

  private mergeByQueue(bytes: Uint8Array, n: number, out?: number[], startsOut?: Int32Array, ranksOut?: Int32Array): number {
    // Parts are identified by their start offset. next[i] is the start of the following part (n
    // at the end), prev[i] the start of the previous one (-1 at the start), part[i] its rank.
    // pair[i] is the rank of the part at i merged with its successor, NONE if that is not a
    // token, -1 if i is no longer a part.
    // Kept between calls: a long piece is merged window after window (see long-piece.ts), and
    // arrays made anew each time would be garbage that the collector frees late.
    if (this.next.length < n) {
      this.next = new Int32Array(n);
      this.prev = new Int32Array(n);
      this.queueParts = new Int32Array(n);
      this.queuePairs = new Int32Array(n);
    }
    const next = this.next;
    const prev = this.prev;
    const part = this.queueParts;
    const pair = this.queuePairs;
    const queue = this.queue;
    queue.clear();
    const byteRank = this.byteRank!;
    const pairTable = this.pairTable!;

    for (let i = 0; i < n; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
      const b = byteRank[bytes[i]!]!;
      part[i] = b === UNKNOWN ? this.byteRankOf(bytes[i]!) : b;
    }
    for (let i = 0; i < n - 1; i++) {
      let r = pairTable[(bytes[i]! << 8) | bytes[i + 1]!]!;
      if (r === UNKNOWN) r = this.pairRankOf(bytes, i);
      pair[i] = r < 0 ? NONE : r;
      if (r >= 0) queue.push(r, i);
    }
    pair[n - 1] = NONE;
    let count = n;
    while (!queue.empty) {
      const start = queue.pop();
      const rank = queue.rank;
      // Stale entry: the part is gone or its successor changed since the entry was pushed.
      if (pair[start] !== rank) continue;
      const removed = next[start]!;
      const after = next[removed]!;
      pair[removed] = -1;
      part[start] = rank;
      next[start] = after;
      if (after < n) prev[after] = start;
      count--;
      if (after < n) {
        const r = this.merged(rank, part[after]!, bytes, start, next[after]!);
        pair[start] = r;
        if (r !== NONE) queue.push(r, start);
      } else {
        pair[start] = NONE;
      }
      const before = prev[start]!;
      if (before >= 0) {
        const r = this.merged(part[before]!, rank, bytes, before, after);
        pair[before] = r;
        if (r !== NONE) queue.push(r, before);
      }
    }
    if (out) {
      for (let i = 0; i < n; i = next[i]!) out.push(part[i]!);
    }
    if (startsOut && ranksOut) {
      let k = 0;
      for (let i = 0; i < n; i = next[i]!, k++) {
        startsOut[k] = i;
        ranksOut[k] = part[i]!;
      }
      startsOut[k] = n;
    }
    return count;
  }
}
