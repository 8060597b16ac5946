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
 */

interface Group {
  /** Starts: sorted from `head` on (a queue), or a binary min-heap (then `head` is 0). */
  items: number[];
  head: number;
  sorted: boolean;
}

export class MergeQueue {
  private readonly groups = new Map<number, Group>();
  /** Ranks whose group is not empty, as a binary min-heap. */
  private readonly ranks: number[] = [];
  /** Rank of the candidate returned by the last `pop`. */
  rank = 0;

  get empty(): boolean {
    return this.ranks.length === 0;
  }

  push(rank: number, start: number): void {
    let g = this.groups.get(rank);
    if (!g) {
      g = { items: [], head: 0, sorted: true };
      this.groups.set(rank, g);
    }
    const items = g.items;
    if (g.head === items.length) {
      items.length = 0;
      g.head = 0;
      g.sorted = true;
      items.push(start);
      siftUp(this.ranks, rank);
      return;
    }
    if (g.sorted) {
      if (start >= items[items.length - 1]!) {
        items.push(start);
        return;
      }
      // A sorted array is already a valid heap.
      g.items = items.slice(g.head);
      g.head = 0;
      g.sorted = false;
    }
    siftUp(g.items, start);
  }

  /** Removes the smallest candidate and returns its start; its rank is then in `rank`. */
  pop(): number {
    const rank = this.ranks[0]!;
    const g = this.groups.get(rank)!;
    const start = g.sorted ? g.items[g.head++]! : popMin(g.items);
    if (g.head === g.items.length) popMin(this.ranks);
    this.rank = rank;
    return start;
  }
}

function siftUp(heap: number[], value: number): void {
  let i = heap.length;
  heap.push(value);
  while (i > 0) {
    const up = (i - 1) >> 1;
    if (heap[up]! <= value) break;
    heap[i] = heap[up]!;
    i = up;
  }
  heap[i] = value;
}

function popMin(heap: number[]): number {
  const top = heap[0]!;
  const last = heap.pop()!;
  const size = heap.length;
  if (size > 0) {
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && heap[c + 1]! < heap[c]!) c++;
      if (last <= heap[c]!) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = last;
  }
  return top;
}
