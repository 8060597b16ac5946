/**
 * Byte-pair merging with tiktoken's rule: repeatedly merge the adjacent pair whose concatenation
 * has the lowest rank, the leftmost one on ties, until no adjacent pair is a token.
 *
 * Short pieces (nearly all of them) use tiktoken's own array scan, which is quadratic but has
 * the smallest constant. Long pieces use a heap of candidate pairs over a linked list of parts,
 * O(n log n), with the same order of merges: the heap is keyed by (rank, start offset), and start
 * offsets increase from left to right, so "lowest rank, then leftmost" is the heap minimum.
 */

export type Lookup = (bytes: Uint8Array, start: number, end: number) => number;

/** Pieces up to this many bytes use the array scan. */
export const SMALL_PIECE_BYTES = 64;

const NONE = 0x7fffffff;

let sStarts = new Int32Array(SMALL_PIECE_BYTES + 1);
let sRanks = new Int32Array(SMALL_PIECE_BYTES + 1);

/**
 * Merges `bytes[0..n)` (n >= 2). Writes the ranks of the resulting tokens to `out` (when given)
 * from index `outAt`, and returns how many tokens there are.
 */
export function bytePairMerge(bytes: Uint8Array, n: number, lookup: Lookup, out?: number[], small = SMALL_PIECE_BYTES): number {
  return n <= small ? mergeByScan(bytes, n, lookup, out) : mergeByHeap(bytes, n, lookup, out);
}

function mergeByScan(bytes: Uint8Array, n: number, lookup: Lookup, out?: number[]): number {
  if (sStarts.length <= n) {
    sStarts = new Int32Array(n + 1);
    sRanks = new Int32Array(n + 1);
  }
  const starts = sStarts;
  const ranks = sRanks; // ranks[i]: rank of parts i and i+1 merged
  for (let i = 0; i < n; i++) starts[i] = i;
  starts[n] = n;
  for (let i = 0; i < n - 1; i++) {
    const r = lookup(bytes, i, i + 2);
    ranks[i] = r < 0 ? NONE : r;
  }
  let parts = n;
  for (;;) {
    let best = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (ranks[i]! < best) {
        best = ranks[i]!;
        at = i;
      }
    }
    if (at < 0) break;
    // Remove the boundary at at+1.
    for (let i = at + 1; i < parts; i++) starts[i] = starts[i + 1]!;
    for (let i = at + 1; i < parts - 1; i++) ranks[i] = ranks[i + 1]!;
    parts--;
    if (at + 1 < parts) {
      const r = lookup(bytes, starts[at]!, starts[at + 2]!);
      ranks[at] = r < 0 ? NONE : r;
    } else {
      ranks[at] = NONE;
    }
    if (at > 0) {
      const r = lookup(bytes, starts[at - 1]!, starts[at + 1]!);
      ranks[at - 1] = r < 0 ? NONE : r;
    }
  }
  if (out) {
    for (let i = 0; i < parts; i++) out.push(lookup(bytes, starts[i]!, starts[i + 1]!));
  }
  return parts;
}

function mergeByHeap(bytes: Uint8Array, n: number, lookup: Lookup, out?: number[]): number {
  // Parts are identified by their start offset. next[i] is the start of the following part (n at
  // the end), prev[i] the start of the previous one (-1 at the start). pair[i] is the rank of the
  // part at i merged with its successor, NONE if that is not a token, -1 if i is no longer a part.
  const next = new Int32Array(n);
  const prev = new Int32Array(n);
  const pair = new Int32Array(n);
  // Heap entries are rank * 2^32 + start, exact in a double since ranks are far below 2^21.
  let heap = new Float64Array(Math.max(16, n));
  let size = 0;
  const push = (key: number): void => {
    if (size === heap.length) {
      const grown = new Float64Array(size * 2);
      grown.set(heap);
      heap = grown;
    }
    let i = size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (heap[parent]! <= key) break;
      heap[i] = heap[parent]!;
      i = parent;
    }
    heap[i] = key;
  };
  const pop = (): number => {
    const top = heap[0]!;
    const last = heap[--size]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && heap[child + 1]! < heap[child]!) child++;
      if (heap[child]! >= last) break;
      heap[i] = heap[child]!;
      i = child;
    }
    heap[i] = last;
    return top;
  };
  const SHIFT = 4294967296;

  for (let i = 0; i < n; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i < n - 1; i++) {
    const r = lookup(bytes, i, i + 2);
    pair[i] = r < 0 ? NONE : r;
    if (r >= 0) push(r * SHIFT + i);
  }
  pair[n - 1] = NONE;
  let parts = n;
  while (size > 0) {
    const key = pop();
    const start = key % SHIFT;
    const rank = (key - start) / SHIFT;
    // Stale entry: the part is gone or its successor changed since the entry was pushed.
    if (pair[start] !== rank) continue;
    const removed = next[start]!;
    const after = next[removed]!;
    pair[removed] = -1;
    next[start] = after;
    if (after < n) prev[after] = start;
    parts--;
    if (after < n) {
      const r = lookup(bytes, start, next[after]!);
      pair[start] = r < 0 ? NONE : r;
      if (r >= 0) push(r * SHIFT + start);
    } else {
      pair[start] = NONE;
    }
    const before = prev[start]!;
    if (before >= 0) {
      const r = lookup(bytes, before, after);
      pair[before] = r < 0 ? NONE : r;
      if (r >= 0) push(r * SHIFT + before);
    }
  }
  if (out) {
    for (let i = 0; i < n; i = next[i]!) out.push(lookup(bytes, i, next[i]!));
  }
  return parts;
}
