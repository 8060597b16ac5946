/**
 * The candidate merges of a long piece, as a priority queue on (rank, start): lowest rank first,
 * then leftmost, which is the order in which tiktoken merges.
 *
 * Candidates are grouped by rank. Merging sweeps from left to right, so within one rank the starts
 * mostly arrive in increasing order: a group is a plain queue while they do, and turns into a
 * binary heap when one arrives out of order. The ranks that have candidates sit in a binary heap
 * of their own, which stays small on the long, repetitive pieces that have the most candidates.
 * A piece of one repeated character then costs linear time, where one heap of all candidates
 * would cost n log n and leave the cache.
 *
 * The arrays are typed and kept: one queue serves every long piece of a tokenizer, window after
 * window (see long-piece.ts), and makes no garbage once its arrays have grown.
 */

interface Group {
  /** Starts: sorted in [head, size) (a queue), or a binary min-heap in [0, size) (then head is 0). */
  items: Int32Array;
  size: number;
  head: number;
  sorted: boolean;
}

/** Past this many ranks seen, the groups are dropped when the queue is reused. */
const KEPT_GROUPS = 4096;

export class MergeQueue {
  private groups = new Map<number, Group>();
  /** Ranks whose group is not empty, as a binary min-heap. */
  private readonly ranks: Heap = { items: new Int32Array(64), size: 0 };
  /** Rank of the candidate returned by the last `pop`. */
  rank = 0;

  get empty(): boolean {
    return this.ranks.size === 0;
  }

  /** Empties the queue, keeping its arrays for the next piece. */
  clear(): void {
    this.ranks.size = 0;
    if (this.groups.size > KEPT_GROUPS) {
      this.groups = new Map();
      return;
    }
    for (const g of this.groups.values()) {
      g.size = 0;
      g.head = 0;
      g.sorted = true;
    }
  }

  push(rank: number, start: number): void {
    let g = this.groups.get(rank);
    if (!g) {
      g = { items: new Int32Array(16), size: 0, head: 0, sorted: true };
      this.groups.set(rank, g);
    }
    if (g.head === g.size) {
      g.size = 0;
      g.head = 0;
      g.sorted = true;
      append(g, start);
      siftUp(this.ranks, rank);
      return;
    }
    if (g.sorted) {
      if (start >= g.items[g.size - 1]!) {
        append(g, start);
        return;
      }
      // A sorted array is already a valid heap.
      g.items.copyWithin(0, g.head, g.size);
      g.size -= g.head;
      g.head = 0;
      g.sorted = false;
    }
    siftUp(g, start);
  }

  /** Removes the smallest candidate and returns its start; its rank is then in `rank`. */
  pop(): number {
    const rank = this.ranks.items[0]!;
    const g = this.groups.get(rank)!;
    const start = g.sorted ? g.items[g.head++]! : popMin(g);
    if (g.head === g.size) popMin(this.ranks);
    this.rank = rank;
    return start;
  }
}

interface Heap {
  items: Int32Array;
  size: number;
}

function append(heap: Heap, value: number): void {
  if (heap.size === heap.items.length) {
    const grown = new Int32Array(2 * heap.items.length);
    grown.set(heap.items);
    heap.items = grown;
  }
  heap.items[heap.size++] = value;
}

function siftUp(heap: Heap, value: number): void {
  append(heap, value);
  const items = heap.items;
  let i = heap.size - 1;
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (items[up]! <= value) break;
    items[i] = items[up]!;
    i = up;
  }
  items[i] = value;
}

function popMin(heap: Heap): number {
  const items = heap.items;
  const top = items[0]!;
  const size = --heap.size;
  const last = items[size]!;
  if (size > 0) {
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && items[c + 1]! < items[c]!) c++;
      if (last <= items[c]!) break;
      items[i] = items[c]!;
      i = c;
    }
    items[i] = last;
  }
  return top;
}
