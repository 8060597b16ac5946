/**
 * Byte-pair merging with tiktoken's rule: repeatedly merge the adjacent pair whose concatenation
 * has the lowest rank, the leftmost one on ties, until no adjacent pair is a token.
 *
 * Short pieces (nearly all of them) use tiktoken's own array scan, which is quadratic but has
 * the smallest constant. Long pieces keep their parts in a linked list and the candidate merges
 * in a priority queue keyed by (rank, start offset); start offsets increase from left to right,
 * so "lowest rank, then leftmost" is the queue's minimum and the merges happen in the same order.
 */
import { MergeQueue } from './merge-queue.js';

export type Lookup = (bytes: Uint8Array, start: number, end: number) => number;

/** The rank table, as merging uses it (see rank-table.ts). */
export interface Ranks {
  lookup: Lookup;
  pairs(): Int32Array;
}

/** Pieces up to this many bytes use the array scan. */
export const SMALL_PIECE_BYTES = 64;

const NONE = 0x7fffffff;

let sStarts = new Int32Array(SMALL_PIECE_BYTES + 1);
let sRanks = new Int32Array(SMALL_PIECE_BYTES + 1);

/**
 * Merges `bytes[0..n)` (n >= 2). Writes the ranks of the resulting tokens to `out` (when given)
 * from index `outAt`, and returns how many tokens there are.
 */
export function bytePairMerge(bytes: Uint8Array, n: number, ranks: Ranks, out?: number[], small = SMALL_PIECE_BYTES): number {
  return n <= small ? mergeByScan(bytes, n, ranks, out) : mergeByQueue(bytes, n, ranks, out);
}

function mergeByScan(bytes: Uint8Array, n: number, ranks: Ranks, out?: number[]): number {
  const lookup = ranks.lookup;
  const pairTable = ranks.pairs();
  if (sStarts.length <= n) {
    sStarts = new Int32Array(n + 1);
    sRanks = new Int32Array(n + 1);
  }
  const starts = sStarts;
  const pair = sRanks; // pair[i]: rank of parts i and i+1 merged
  for (let i = 0; i < n; i++) starts[i] = i;
  starts[n] = n;
  for (let i = 0; i < n - 1; i++) {
    const r = pairTable[(bytes[i]! << 8) | bytes[i + 1]!]!;
    pair[i] = r < 0 ? NONE : r;
  }
  let parts = n;
  for (;;) {
    let best = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (pair[i]! < best) {
        best = pair[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    // Remove the boundary at at+1.
    for (let i = at + 1; i < parts; i++) starts[i] = starts[i + 1]!;
    for (let i = at + 1; i < parts - 1; i++) pair[i] = pair[i + 1]!;
    parts--;
    if (at + 1 < parts) {
      const r = lookup(bytes, starts[at]!, starts[at + 2]!);
      pair[at] = r < 0 ? NONE : r;
    } else {
      pair[at] = NONE;
    }
    if (at > 0) {
      const r = lookup(bytes, starts[at - 1]!, starts[at + 1]!);
      pair[at - 1] = r < 0 ? NONE : r;
    }
  }
  if (out) {
    for (let i = 0; i < parts; i++) out.push(lookup(bytes, starts[i]!, starts[i + 1]!));
  }
  return parts;
}

/**
 * Ranks of merged pairs, keyed by the ranks of the two parts (every part is a token), so that a
 * long piece looks each distinct pair up in the rank table once instead of hashing its bytes at
 * every occurrence.
 */
class PairRanks {
  private left: Int32Array;
  private right: Int32Array;
  private merged: Int32Array;
  private size = 0;

  constructor(capacity: number) {
    this.left = new Int32Array(capacity).fill(-1);
    this.right = new Int32Array(capacity);
    this.merged = new Int32Array(capacity);
  }

  /** The merged rank (or -1 if the pair is no token), or -2 if not known yet. */
  get(a: number, b: number): number {
    const mask = this.left.length - 1;
    for (let i = (Math.imul(a, 0x9e3779b1) ^ b) & mask; ; i = (i + 1) & mask) {
      const l = this.left[i]!;
      if (l === -1) return -2;
      if (l === a && this.right[i] === b) return this.merged[i]!;
    }
  }

  set(a: number, b: number, rank: number): void {
    if (2 * (this.size + 1) > this.left.length) this.grow();
    const mask = this.left.length - 1;
    let i = (Math.imul(a, 0x9e3779b1) ^ b) & mask;
    while (this.left[i] !== -1) i = (i + 1) & mask;
    this.left[i] = a;
    this.right[i] = b;
    this.merged[i] = rank;
    this.size++;
  }

  private grow(): void {
    const { left, right, merged } = this;
    this.left = new Int32Array(left.length * 2).fill(-1);
    this.right = new Int32Array(left.length * 2);
    this.merged = new Int32Array(left.length * 2);
    this.size = 0;
    for (let i = 0; i < left.length; i++) if (left[i] !== -1) this.set(left[i]!, right[i]!, merged[i]!);
  }
}

function mergeByQueue(bytes: Uint8Array, n: number, ranks: Ranks, out?: number[]): number {
  const lookup = ranks.lookup;
  // Parts are identified by their start offset. next[i] is the start of the following part (n at
  // the end), prev[i] the start of the previous one (-1 at the start), part[i] its rank. pair[i]
  // is the rank of the part at i merged with its successor, NONE if that is not a token, -1 if i
  // is no longer a part.
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const part = new Int32Array(n);
  const pair = new Int32Array(n);
  const pairs = new PairRanks(1024);
  const queue = new MergeQueue();

  /** Rank of the parts at a and b (= next[a]) merged, given that b's part ends at end. */
  const merged = (a: number, b: number, end: number): number => {
    let r = pairs.get(part[a]!, part[b]!);
    if (r === -2) {
      r = lookup(bytes, a, end);
      pairs.set(part[a]!, part[b]!, r);
    }
    return r < 0 ? NONE : r;
  };

  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    part[i] = lookup(bytes, i, i + 1);
  }
  const pairTable = ranks.pairs();
  for (let i = 0; i < n - 1; i++) {
    const r = pairTable[(bytes[i]! << 8) | bytes[i + 1]!]!;
    pair[i] = r < 0 ? NONE : r;
    if (r >= 0) queue.push(r, i);
  }
  pair[n - 1] = NONE;
  let parts = n;
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
    parts--;
    if (after < n) {
      const r = merged(start, after, next[after]!);
      pair[start] = r;
      if (r !== NONE) queue.push(r, start);
    } else {
      pair[start] = NONE;
    }
    const before = prev[start]!;
    if (before >= 0) {
      const r = merged(before, start, after);
      pair[before] = r;
      if (r !== NONE) queue.push(r, before);
    }
  }
  if (out) {
    for (let i = 0; i < n; i = next[i]!) out.push(part[i]!);
  }
  return parts;
}
