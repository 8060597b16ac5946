/**
 * Byte-pair merging of a piece too long to merge whole (a run of one character, a line of
 * symbols), in windows of bounded size, with the result of merging it whole.
 *
 * Merging keeps a few numbers per byte of the piece, so a piece of megabytes would take hundreds
 * of megabytes. Instead the piece goes through a window: merge what it holds, find a cut that
 * the merging of the whole piece also has, count the tokens before the cut, slide, repeat. Two
 * facts about tiktoken's merge rule (lowest rank first, leftmost on ties) make the cuts exact
 * (after github/rust-gems `crates/bpe/README.md`, Corollaries II and III):
 *
 * 1. If the tokens of X have a boundary at c, they are the tokens of X[..c) followed by those of
 *    X[c..): no merge ever crosses c, so each side merges in the order it would alone.
 * 2. If the tokens of X[a..c) have a boundary at b (a < b < c) and the tokens of X[b..d) have
 *    one at c, the tokens of X[a..d) have both. Until a merge crosses b or c, X[a..c) and X[b..d)
 *    each merge as in X[a..d); the first merge across b would then also be the next merge of
 *    X[a..c) in the same state, and the first across c the next of X[b..d), which never happens.
 *
 * Let P be the tokens of the window X[0..w) (X starts at a cut, so 1 applies from there), and M
 * the longest token of the vocabulary. The boundaries of the tokens of X[0..q), for any end q,
 * are steps of at most M; those of the whole piece (which ends at or after w) therefore include
 * some q in the last M positions of the window, and then all the boundaries of X[0..q). So a
 * boundary of P is a cut if it is a boundary of X[0..q) for every q in that zone. For a q that
 * is no boundary of P, merge the short X[c1..q) from a boundary c1 of P a little before the zone:
 * by 2, each boundary c2 > c1 that it shares with P makes every boundary of P up to c2 one of
 * X[0..q). The cut is the smallest such c2 over the zone.
 *
 * When no cut is found (merges whose order depends on text further away than the window, which
 * ordinary text does not have), the window grows. Each window costs a merge of the window and up
 * to M merges of a few hundred bytes.
 */
import type { BytePairMerger } from './bpe.js';
import { encodeUtf8 } from './utf8.js';

/** Bytes of a piece merged at once. */
export const WINDOW_BYTES = 1 << 16;

/** How far before the zone the short merges start, at first; it doubles when that is too close. */
const FIRST_GAP = 16;

export class LongPieceMerger {
  private buf: Uint8Array;
  private filled = 0;
  /** The tokens of the window (P above): starts, ranks, and a flag at each boundary. */
  private starts: Int32Array;
  private ranks: Int32Array;
  private boundary: Uint8Array;
  private shortStarts = new Int32Array(0);
  private shortRanks = new Int32Array(0);
  /** The last cut found by a search, and what the search read (see knownCut). */
  private known: { bytes: Uint8Array; boundaries: Uint8Array; fromEnd: number } | undefined;
  /** The largest window held so far, in bytes: the working set, which does not grow with the piece. */
  peakWindow = 0;
  /** UTF-8 bytes of the last piece merged. */
  pieceBytes = 0;

  constructor(
    private readonly merger: BytePairMerger,
    private readonly maxTokenBytes: number,
    window = WINDOW_BYTES,
  ) {
    // The zone and the gap before it must leave most of the window to count.
    const size = Math.max(window, 4 * maxTokenBytes);
    this.buf = new Uint8Array(size);
    this.starts = new Int32Array(size + 1);
    this.ranks = new Int32Array(size);
    this.boundary = new Uint8Array(size + 1);
  }

  /**
   * Merges the UTF-8 of `text[start..end)` (well formed, see well-formed.ts) and returns the
   * number of tokens; appends their ranks to `out` when given.
   */
  merge(text: string, start: number, end: number, out?: number[]): number {
    let total = 0;
    let i = start;
    this.filled = 0;
    this.pieceBytes = 0;
    for (;;) {
      i = this.fill(text, i, end);
      this.peakWindow = Math.max(this.peakWindow, this.filled);
      if (i >= end) break;
      const cut = this.findCut();
      if (cut === 0) {
        this.grow();
        continue;
      }
      // The window's tokens before the cut are the piece's: count them and slide past them.
      let k = 0;
      while (this.starts[k]! < cut) k++;
      total += k;
      if (out) for (let t = 0; t < k; t++) out.push(this.ranks[t]!);
      this.buf.copyWithin(0, cut, this.filled);
      this.filled -= cut;
    }
    return total + this.merger.merge(this.buf, this.filled, out);
  }

  /** Encodes text from i into the free part of the window; returns where it stopped. */
  private fill(text: string, i: number, end: number): number {
    const buf = this.buf;
    while (i < end) {
      let j = Math.min(end, i + Math.floor((buf.length - this.filled) / 3));
      // A surrogate pair is encoded whole.
      const last = text.charCodeAt(j - 1);
      if (j < end && last >= 0xd800 && last < 0xdc00) j--;
      if (j <= i) break;
      const at = encodeUtf8(text, i, j, buf, this.filled);
      this.pieceBytes += at - this.filled;
      this.filled = at;
      i = j;
    }
    return i;
  }

  /** A boundary of the whole piece's tokens in the window, after its start; 0 if none is proven. */
  private findCut(): number {
    const w = this.filled;
    const count = this.merger.mergeInto(this.buf, w, this.starts, this.ranks);
    const boundary = this.boundary;
    boundary.fill(0, 0, w + 1);
    for (let t = 0; t <= count; t++) boundary[this.starts[t]!] = 1;
    const known = this.knownCut(w);
    if (known > 0) return known;
    const zone = w - this.maxTokenBytes + 1;
    let cut = w;
    let gap = FIRST_GAP;
    // Where the search started reading boundaries: the zone, or a c1 before it.
    let low = zone;
    for (let q = w; q >= zone; q--) {
      if (boundary[q]) {
        cut = Math.min(cut, q);
        continue;
      }
      let shared = 0;
      for (;;) {
        let c1 = Math.max(0, q - gap);
        while (!boundary[c1]) c1--;
        low = Math.min(low, c1);
        shared = this.sharedBoundary(c1, q);
        if (shared > 0 || c1 === 0) break;
        gap *= 2;
      }
      if (shared === 0) return 0;
      cut = Math.min(cut, shared);
    }
    // The search read the window's bytes and boundaries from `low` on, and nothing else.
    if (low > 0) this.known = { bytes: this.buf.slice(low, w), boundaries: boundary.slice(low, w + 1), fromEnd: w - cut };
    return cut;
  }

  /**
   * The cut found in an earlier window whose end held the same bytes and boundaries (a run of one
   * character gives the same window again and again); 0 if there is none.
   */
  private knownCut(w: number): number {
    const known = this.known;
    if (!known) return 0;
    const low = w - known.bytes.length;
    if (low <= 0) return 0;
    const buf = this.buf;
    const boundary = this.boundary;
    for (let i = 0; i < known.bytes.length; i++) if (buf[low + i] !== known.bytes[i]) return 0;
    for (let i = 0; i < known.boundaries.length; i++) if (boundary[low + i] !== known.boundaries[i]) return 0;
    return w - known.fromEnd;
  }

  /**
   * The last boundary of the tokens of buf[c1..q) that is also one of the window's, after c1
   * (c1 is one of the window's boundaries); 0 if there is none.
   */
  private sharedBoundary(c1: number, q: number): number {
    const n = q - c1;
    if (this.shortStarts.length <= n) {
      this.shortStarts = new Int32Array(2 * n + 1);
      this.shortRanks = new Int32Array(2 * n);
    }
    const count = this.merger.mergeInto(this.buf.subarray(c1, q), n, this.shortStarts, this.shortRanks);
    for (let t = count - 1; t > 0; t--) {
      const at = c1 + this.shortStarts[t]!;
      if (this.boundary[at]) return at;
    }
    return 0;
  }

  /** Doubles the window, for a piece where no cut was found in it. */
  private grow(): void {
    const size = 2 * this.buf.length;
    const buf = new Uint8Array(size);
    buf.set(this.buf.subarray(0, this.filled));
    this.buf = buf;
    this.starts = new Int32Array(size + 1);
    this.ranks = new Int32Array(size);
    this.boundary = new Uint8Array(size + 1);
  }
}
