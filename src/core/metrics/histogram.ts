// The metrics API's `histogram` aggregation: the service runs ClickHouse's `histogram(bins)(x)`,
// an adaptive histogram (Ben-Haim and Tom-Tov, "A Streaming Parallel Decision Tree Algorithm",
// JMLR 11, 2010), and answers its bins as [lower, upper, height] triples. This is that algorithm
// step for step (ClickHouse's AggregateFunctionHistogram): values are kept as weighted points;
// whenever 2 × bins are held, the closest neighbours are fused until `bins` are left; at the end
// the points are fused once more, near-equal ones merged, and each becomes a bin between the
// midpoints to its neighbours, with a linearly interpolated height.
//
// With fewer than 2 × bins values the result does not depend on their order and equals the
// service's. With more, fusing happens as values arrive, so the bins depend on the order rows
// reach the function, which ClickHouse does not fix either (threads and parts merge in any order):
// the service's own answers then vary the same way.

interface Point {
  mean: number;
  weight: number;
}

/** The point two points fuse into: the weighted mean, and the sum of the weights. */
function fuse(a: Point, b: Point): Point {
  return { mean: a.mean + (b.weight * (b.mean - a.mean)) / (b.weight + a.weight), weight: a.weight + b.weight };
}

/** A binary min-heap of [distance, index] pairs, ordered by distance, then index. */
class PairHeap {
  private readonly items: Array<[number, number]> = [];

  get size(): number {
    return this.items.length;
  }

  private less(a: [number, number], b: [number, number]): boolean {
    return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  }

  push(item: [number, number]): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(items[i]!, items[parent]!)) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }

  pop(): [number, number] {
    const items = this.items;
    const top = items[0]!;
    const last = items.pop()!;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let smallest = i;
        if (left < items.length && this.less(items[left]!, items[smallest]!)) smallest = left;
        if (right < items.length && this.less(items[right]!, items[smallest]!)) smallest = right;
        if (smallest === i) break;
        [items[i], items[smallest]] = [items[smallest]!, items[i]!];
        i = smallest;
      }
    }
    return top;
  }
}

export class AdaptiveHistogram {
  private points: Point[] = [];
  private lower = Infinity;
  private upper = -Infinity;

  constructor(private readonly bins: number) {}

  /** Adds a finite value (ClickHouse refuses NaN and infinities). */
  add(value: number): void {
    this.points.push({ mean: value, weight: 1 });
    if (value < this.lower) this.lower = value;
    if (value > this.upper) this.upper = value;
    if (this.points.length >= this.bins * 2) this.compress();
  }

  /** Fuses the closest neighbours until at most `bins` points are left. */
  private compress(): void {
    const points = this.points.sort((a, b) => a.mean - b.mean);
    const size = points.length;
    if (size <= this.bins) return;
    // A doubly linked list of the points still active, with `size` as the sentinel.
    const previous = new Int32Array(size + 1);
    const next = new Int32Array(size + 1);
    const active = new Uint8Array(size + 1).fill(1);
    active[size] = 0;
    for (let i = 0; i <= size; i++) {
      previous[i] = i - 1;
      next[i] = i + 1;
    }
    next[size] = 0;
    previous[0] = size;
    const gap = (i: number) => points[next[i]!]!.mean - points[i]!.mean;
    const queue = new PairHeap();
    for (let i = 0; i + 1 < size; i++) queue.push([gap(i), i]);
    let remaining = size;
    while (remaining > this.bins && queue.size > 0) {
      const [distance, left] = queue.pop();
      const right = next[left]!;
      // Stale entries: a side already fused away, or the gap has grown since.
      if (!active[left] || !active[right] || gap(left) > distance) continue;
      points[left] = fuse(points[left]!, points[right]!);
      previous[next[right]!] = previous[right]!;
      next[previous[right]!] = next[right]!;
      active[right] = 0;
      if (active[next[left]!]) queue.push([gap(left), left]);
      if (active[previous[left]!]) queue.push([gap(previous[left]!), previous[left]!]);
      remaining--;
    }
    this.points = points.filter((_, i) => active[i]);
  }

  /** Fuses neighbours whose means differ only in the last digits (the points are sorted). */
  private unique(): void {
    const points = this.points;
    if (points.length === 0) return;
    let left = 0;
    for (let right = 1; right < points.length; right++) {
      const minDiff = 10 * (points[left]!.mean + points[right]!.mean) * Number.EPSILON;
      if (points[left]!.mean + Math.abs(minDiff) >= points[right]!.mean) points[left] = fuse(points[left]!, points[right]!);
      else points[++left] = points[right]!;
    }
    points.length = left + 1;
  }

  /** The bins: [lower, upper, height] each; empty without values. */
  result(): Array<[number, number, number]> {
    this.compress();
    this.unique();
    const points = this.points;
    const out: Array<[number, number, number]> = [];
    for (let i = 0; i < points.length; i++) {
      const point = points[i]!;
      const lower = i === 0 ? this.lower : (point.mean + points[i - 1]!.mean) / 2;
      const upper = i + 1 === points.length ? this.upper : (point.mean + points[i + 1]!.mean) / 2;
      const lowerWeight = i === 0 ? point.weight : (points[i - 1]!.weight + point.weight * 3) / 4;
      const upperWeight = i + 1 === points.length ? point.weight : (points[i + 1]!.weight + point.weight * 3) / 4;
      out.push([lower, upper, (lowerWeight + upperWeight) / 2]);
    }
    return out;
  }
}

/** ClickHouse's histogram(bins)(values) over values in the order given. */
export function histogram(values: Iterable<number>, bins: number): Array<[number, number, number]> {
  const h = new AdaptiveHistogram(bins);
  for (const value of values) h.add(value);
  return h.result();
}
